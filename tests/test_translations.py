"""Every catalog is complete: each msgid the code or the templates use has a translation in
Persian, Chinese and Italian (a fuzzy entry counts as missing), and no translation loses or adds
a placeholder. Written over every catalog `config.catalogs` compiles, the engines' included."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from config.catalogs import ROOT, catalog_files

LANGUAGES = ("fa", "zh_Hans", "it")
# %(name)s, %s, %d and {name}; "%%" is a literal percent sign, not a placeholder.
PLACEHOLDER = re.compile(r"%\([^)]+\)[sdif]|%[sdif]|\{[A-Za-z_][A-Za-z0-9_]*\}")
CATALOGS = catalog_files()


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def read(path: Path):
    with path.open("rb") as po_file:
        return read_po(po_file, locale=path.parent.parent.name)


def domains() -> set[tuple[Path, str]]:
    """Each catalog folder and domain, so that a language missing a domain is noticed."""
    return {(path.parent.parent.parent, path.stem) for path in CATALOGS}


def test_there_are_catalogs_to_check():
    assert any(path.stem == "django" for path in CATALOGS)
    assert any(path.stem == "djangojs" for path in CATALOGS)


@pytest.mark.parametrize(("folder", "domain"), sorted(domains()),
                         ids=lambda value: str(value.relative_to(ROOT)) if isinstance(value, Path)
                         else value)
def test_every_language_has_every_domain_and_the_same_msgids(folder, domain):
    ids = {}
    for language in LANGUAGES:
        path = folder / language / "LC_MESSAGES" / f"{domain}.po"
        assert path.exists(), f"{path.relative_to(ROOT)} is missing"
        ids[language] = {(message.context, message.id) for message in read(path) if message.id}
    reference = ids[LANGUAGES[0]]
    for language in LANGUAGES[1:]:
        assert ids[language] == reference, (
            f"{folder.relative_to(ROOT)}/{language}/{domain}.po differs from "
            f"{LANGUAGES[0]}: run makemessages for every language")


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_msgid_is_translated_with_its_placeholders(path):
    problems = []
    for message in read(path):
        if not message.id:
            continue
        sources = list(message.id) if isinstance(message.id, tuple) else [message.id]
        translations = (list(message.string) if isinstance(message.string, tuple)
                        else [message.string])
        label = f"{sources[0]!r}" + (f" (context {message.context!r})" if message.context else "")
        if message.fuzzy:
            problems.append(f"fuzzy: {label}")
            continue
        if not all(translations):
            problems.append(f"untranslated: {label}")
            continue
        # A plural translation may leave the count out of its "one" form, never a name.
        expected = set(placeholders(sources[-1]))
        for translation in translations:
            found = set(placeholders(translation))
            if found - expected or (expected - found) - {"%(counter)s", "%(count)s"}:
                problems.append(f"placeholders {sorted(found)} instead of {sorted(expected)}: "
                                f"{label} -> {translation!r}")
    assert not problems, f"{path.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_the_catalogs_hold_every_msgid_the_templates_use():
    """A string marked in a template after the last makemessages is caught here too (the
    catalogs are committed, so nothing regenerates them on the way to production)."""
    tag = re.compile(r"""\{%\s*(?:translate|trans)\s+(["'])(.*?)\1"""
                     r"""(?:\s+context\s+(["'])(.*?)\3)?""")
    known = {(message.context, message.id) for message in
             read(ROOT / "locale" / "fa" / "LC_MESSAGES" / "django.po") if message.id}
    missing = []
    for template in sorted((ROOT / "templates").rglob("*")):
        if template.suffix not in {".html", ".txt"}:
            continue
        for match in tag.finditer(template.read_text()):
            key = (match.group(4), match.group(2))
            if key not in known:
                missing.append(f"{template.relative_to(ROOT)}: {match.group(2)!r}")
    assert not missing, "run makemessages and translate:\n" + "\n".join(missing)


#: What makemessages reads: the project's code and templates, not the engines (their own
#: catalogs), the tests or installed packages.
EXTRACTED = ("accounts", "config", "games", "notifications", "templates", "static", "manage.py")


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_makemessages_finds_nothing_the_catalogs_lack(domain, tmp_path):
    """Every string marked anywhere (templates, blocktranslate, Python gettext and lazy labels,
    scripts) is in the committed catalogs: makemessages is run on a copy of the code and its
    msgids compared. Needs GNU gettext (xgettext), which .ci/run installs."""
    if shutil.which("xgettext") is None:
        message = "GNU gettext (xgettext) is missing: apt-get install gettext"
        if os.environ.get("TURNPOST_REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    for name in EXTRACTED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.mo", "*.po"))
        else:
            shutil.copy2(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    command = [sys.executable, "manage.py", "makemessages", "-l", "fa", "-d", domain,
               "-i", "games/engines", "-i", "static/vendor", "--no-obsolete"]
    if domain == "django":
        command += ["-e", "html,txt,py"]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
           "DATA_DIR": str(tmp_path / "data")}
    subprocess.run(command, cwd=tmp_path, env=env, check=True, capture_output=True)
    extracted = {(message.context, message.id) for message in
                 read(tmp_path / "locale" / "fa" / "LC_MESSAGES" / f"{domain}.po") if message.id}
    committed = {(message.context, message.id) for message in
                 read(ROOT / "locale" / "fa" / "LC_MESSAGES" / f"{domain}.po") if message.id}
    missing = sorted(extracted - committed, key=str)
    assert not missing, (f"{len(missing)} marked strings are not in locale/*/{domain}.po; run "
                         "makemessages (locale/README.md) and translate:\n"
                         + "\n".join(f"{context or ''} {msgid!r}" for context, msgid in missing))
