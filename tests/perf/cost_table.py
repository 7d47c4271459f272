"""One table for `make bench`: each benchmark records its rows here, and the table (with every
row's ratio to the floor measured in the same run) is printed at the end of the session and
written to TEST_ARTIFACTS_DIR/cost-table.json.

A row is `record(name, value, unit, floor_ratio=None, note="")`: `value` in `unit` (e.g. ms of
server CPU per request, timeouts/s, games/s), `floor_ratio` the cost against the cheapest
authenticated request measured side by side in the same process run, where that applies."""

from __future__ import annotations

import json
import os
from pathlib import Path

ROWS: list[dict] = []


def artifacts_dir() -> Path:
    return Path(os.environ.get("TEST_ARTIFACTS_DIR",
                               Path(__file__).resolve().parents[2] / "test-artifacts"))


def record(name: str, value: float, unit: str, *, floor_ratio: float | None = None,
           note: str = "") -> None:
    ROWS.append({"name": name, "value": value, "unit": unit, "floor_ratio": floor_ratio,
                 "note": note})


def render() -> str:
    lines = [f"{'row':<34} {'value':>12} {'unit':<16} {'× floor':>8}  note"]
    for row in ROWS:
        ratio = "" if row["floor_ratio"] is None else f"{row['floor_ratio']:.2f}"
        lines.append(f"{row['name']:<34} {row['value']:>12.2f} {row['unit']:<16} {ratio:>8}  "
                     f"{row['note']}")
    return "\n".join(lines)


def save_report(name: str, report) -> Path:
    """Writes a benchmark's own report as JSON beside the table; returns its path."""
    out = artifacts_dir()
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(json.dumps(report, indent=1))
    return path


def write() -> Path:
    return save_report("cost-table.json", ROWS)
