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
