"""README.md stays true: the two set-up commands come first, and every setting is documented."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_the_first_commands_are_make_run_and_make_test():
    first_block = re.search(r"```sh\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first_block.splitlines() if line.strip()]
    assert commands == ["make run", "make test"]


def test_every_environment_variable_read_by_the_settings_is_in_the_readme():
    settings = "".join((ROOT / "config" / name).read_text() for name in (
        "environment.py", "settings.py", "email_settings.py", "celery_settings.py", "oauth.py"))
    read = set(re.findall(r"""env(?:\.\w+)?\(\s*["']([A-Z][A-Z0-9_]+)["']""", settings))
    assert len(read) > 20, "the pattern no longer finds the settings' variables"
    missing = sorted(name for name in read if f"`{name}`" not in README)
    assert not missing, f"README.md does not document {missing}"
