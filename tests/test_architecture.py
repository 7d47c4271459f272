"""Layering rules from ARCHITECTURE.md, enforced."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold():
    """import-linter (configured in pyproject.toml): engines never import Django or the apps."""
    linter = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 1 kept, 0 broken" in result.stdout, result.stdout


def test_engines_use_only_the_standard_library_and_themselves():
    allowed_prefixes = ("games.engines",)
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    offenders = []
    for path in (ROOT / "games" / "engines").rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] not in stdlib and not name.startswith(allowed_prefixes):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


def test_views_api_and_tasks_do_not_write_game_state_themselves():
    """Only games/services.py assigns game.state or saves a Game."""
    offenders = []
    for relative in ["games/views.py", "games/tasks.py", "games/admin.py", "games/api"]:
        target = ROOT / relative
        for path in [target] if target.is_file() else target.rglob("*.py"):
            text = path.read_text()
            if ".state =" in text or "Action.objects.create" in text:
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
