"""Layering rules from ARCHITECTURE.md, enforced."""

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The project's own packages, whose modules may not import one another in a circle.
PROJECT_PACKAGES = ("config", "games", "accounts", "notifications")


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (migrations left out), read with `ast`: `import
    x`, `from x import y` (y a module or a name in x), relative imports, and imports inside
    functions all count, since a cycle through a deferred import is a cycle all the same."""
    files = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            relative = path.relative_to(root)
            if "migrations" in relative.parts:
                continue
            name = ".".join(relative.with_suffix("").parts)
            files[name.removesuffix(".__init__")] = path

    def module_of(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*parts, base] if base else parts)
                # `from package import module` imports that module; any other name is the
                # package's (or module's) own.
                submodules = [f"{base}.{alias.name}" for alias in node.names
                              if f"{base}.{alias.name}" in files]
                targets = submodules + ([base] if len(submodules) < len(node.names) else [])
            else:
                continue
            for target in targets:
                module = module_of(target)
                if module is not None and module != name:
                    graph[name].add(module)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def describe_cycles(graph: dict[str, set[str]], cycles: list[list[str]]) -> str:
    lines = []
    for cycle in cycles:
        lines.append(f"cycle of {len(cycle)}:")
        lines += [f"  {module} -> {', '.join(sorted(graph[module] & set(cycle)))}"
                  for module in cycle]
    return "\n".join(lines)


def test_no_import_cycles_among_the_project_modules():
    graph = import_graph(ROOT, PROJECT_PACKAGES)
    cycles = import_cycles(graph)
    assert not cycles, describe_cycles(graph, cycles)


@pytest.mark.parametrize("deferred_import", [
    "from planted import a", "from . import a", "from .a import NAME", "import planted.a"])
def test_the_import_graph_finds_a_cycle_through_an_import_inside_a_function(
        tmp_path, deferred_import):
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from planted.b import helper\n\nNAME = 1\n")
    (package / "b.py").write_text(f"def helper():\n    {deferred_import}\n")
    (package / "c.py").write_text("from planted import a\n")
    graph = import_graph(tmp_path, ["planted"])
    assert import_cycles(graph) == [["planted.a", "planted.b"]]
    assert describe_cycles(graph, import_cycles(graph)) == (
        "cycle of 2:\n  planted.a -> planted.b\n  planted.b -> planted.a")


def test_import_linter_contracts_hold():
    """import-linter (configured in pyproject.toml): engines never import Django or the apps;
    game services never import the web, the API or the tasks; games never import
    notifications; the layers of games and of notifications."""
    linter = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 5 kept, 0 broken" in result.stdout, result.stdout


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
    """Only games/services assigns game.state or saves a Game."""
    offenders = []
    for relative in ["games/web", "games/tasks.py", "games/admin.py", "games/api"]:
        target = ROOT / relative
        assert target.exists(), f"{relative} has moved: point this test at its new place"
        for path in [target] if target.is_file() else target.rglob("*.py"):
            text = path.read_text()
            if ".state =" in text or "Action.objects.create" in text:
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
