"""Prints the cost table (tests/perf/cost_table.py) after the benchmarks that recorded rows."""

from __future__ import annotations

from tests.perf import cost_table


def pytest_terminal_summary(terminalreporter):
    if not cost_table.ROWS:
        return
    terminalreporter.section("cost table (ratios measured side by side in this run)")
    terminalreporter.write_line(cost_table.render())
    terminalreporter.write_line(f"written to {cost_table.write()}")
