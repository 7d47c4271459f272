"""How long a person waits for a bot's reply, and where the time goes (tests/perf/bot_latency.py):
a real game worker of `make run` under PostgreSQL + Redis and under the embedded settings
(SQLite, filesystem broker), a person moving through the API in Stone Age 2p, 7 Wonders 3p and
Caverna 2p against default-level bots. `make bench` prints the table at the end of the run.

  make bench PYTEST_ARGS=tests/perf/test_bot_latency.py
"""

from __future__ import annotations

import pytest

from tests.perf import bot_latency
from tests.perf.engine_play import BENCHMARKS_ONLY

pytestmark = [pytest.mark.celery_worker, BENCHMARKS_ONLY]


def test_bot_reply_latency_under_both_settings(benchmark):
    results = {}

    def both() -> None:
        for setting in bot_latency.SETTINGS:
            results[setting] = bot_latency.measure(setting)

    benchmark.pedantic(both, rounds=1, iterations=1)
    table = bot_latency.table(results)
    bot_latency.REPORTS.append(table)
    print(table)
    for setting, result in results.items():
        kinds = {row["kind"] for row in result["rows"]}
        # Every engine's bots replied, and every reply was seen in the API.
        assert {f"bot {slug}" for slug, _, _ in bot_latency.GAMES} <= kinds, (setting, kinds)
        assert all(row["api"] is not None for row in result["rows"]), setting
