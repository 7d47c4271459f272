"""The Python client a third party would generate from the live schema with
openapi-python-client (pinned in the dev dependencies), generated fresh and imported."""

from __future__ import annotations

import importlib
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tools" / "openapi-python-client.yaml"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"


def fetch_schema(base_url: str, destination: Path) -> Path:
    with urllib.request.urlopen(f"{base_url}/api/schema/?format=json", timeout=30) as response:
        destination.write_bytes(response.read())
    return destination


def generate_client(schema: Path, directory: Path):
    """Generates the client into `directory` and imports its package (turnpost_client)."""
    output = directory / "turnpost_client"
    completed = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(schema), "--meta", "none",
         "--output-path", str(output), "--config", str(CONFIG)],
        capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    # Anything the generator had to leave out is a schema bug: say so instead of a later
    # ImportError.
    assert "Unable to" not in completed.stdout, completed.stdout
    for name in [name for name in sys.modules if name.split(".")[0] == "turnpost_client"]:
        del sys.modules[name]
    sys.path.insert(0, str(directory))
    try:
        return importlib.import_module("turnpost_client")
    finally:
        sys.path.remove(str(directory))


def import_every_module(package) -> list[str]:
    """Imports each generated module (an import error in one is a failure to report)."""
    import pkgutil

    names = []
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        importlib.import_module(info.name)
        names.append(info.name)
    return names


def assert_parsed(answer, raw) -> None:
    """`answer`, parsed by generated code from the JSON `raw`, is typed all the way down: every
    object the schema names is its model, never a dict the generator fell back to (it does so
    silently when a model fails to parse, e.g. on a null it was not told of), and it gives back
    the same JSON."""
    import attrs

    def walk(value, where, declared="object"):
        if attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                if field.name != "additional_properties":
                    walk(getattr(value, field.name), f"{where}.{field.name}", str(field.type))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{where}[{index}]", declared)
        elif isinstance(value, dict) and not ("Any" in declared or "dict[" in declared):
            # Only free-form fields (`options`: any JSON) may hold a plain dict.
            raise AssertionError(f"{where} ({declared}) is a raw dict, not a model: "
                                 f"{value!r:.200}")

    walk(answer, type(answer).__name__)
    again = [item.to_dict() for item in answer] if isinstance(answer, list) else answer.to_dict()
    again, raw = _same_instants(again), _same_instants(raw)
    assert again == raw, _first_difference(again, raw, type(answer).__name__)


def _same_instants(value):
    """JSON with its date-times written one way (the client writes `+00:00` for the `Z` sent)."""
    from datetime import datetime

    if isinstance(value, dict):
        return {key: _same_instants(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_same_instants(item) for item in value]
    if isinstance(value, str) and len(value) >= 20 and value[4:5] == "-" and "T" in value:
        try:
            return datetime.fromisoformat(value).isoformat()
        except ValueError:
            return value
    return value


def _first_difference(mine, theirs, where: str) -> str:
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in sorted({*mine, *theirs}):
            if mine.get(key, "<absent>") != theirs.get(key, "<absent>"):
                return _first_difference(mine.get(key, "<absent>"), theirs.get(key, "<absent>"),
                                         f"{where}.{key}")
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for index, (one, other) in enumerate(zip(mine, theirs, strict=True)):
            if one != other:
                return _first_difference(one, other, f"{where}[{index}]")
    return f"{where}: parsed back as {mine!r:.200}, sent as {theirs!r:.200}"
