"""Prints the cost table (tests/perf/cost_table.py) after the benchmarks that recorded rows, and
the bot latency table (tests/perf/bot_latency.py) when it was measured."""

from __future__ import annotations

from tests.perf import bot_latency, cost_table


def pytest_terminal_summary(terminalreporter):
    for report in bot_latency.REPORTS:
        terminalreporter.section("bot latency (tests/perf/test_bot_latency.py)")
        terminalreporter.write_line(report)
    if not cost_table.ROWS:
        return
    terminalreporter.section("cost table (ratios measured side by side in this run)")
    terminalreporter.write_line(cost_table.render())
    terminalreporter.write_line(f"written to {cost_table.write()}")
