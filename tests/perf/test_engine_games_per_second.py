"""Random full games per second on the engine alone (`legal_actions`, `apply`, `resolve`:
tests/perf/engine_play.random_game), counted in this process's CPU time so that other load on
a shared machine does not count, for the player counts with a target (issue 20, point 4). Each
round plays new seeds (a replayed seed would find the engines' caches warm); the best round is
recorded in the cost table, the range in its note. Skipped unless pytest runs with
--benchmark-enable (`make bench`); pin it to one core for steady figures:

    taskset -c 1 .venv/bin/python -m pytest tests/perf/test_engine_games_per_second.py \\
        --benchmark-enable --benchmark-only -p no:randomly
"""

from __future__ import annotations

import itertools
import time

import pytest

from games.engines.registry import get_engine
from tests.perf.cost_table import record
from tests.perf.engine_play import BENCHMARKS_ONLY, random_game

pytestmark = BENCHMARKS_ONLY

ROUNDS = 3

#: (engine, players, games per round, target in games per CPU second).
CASES = [
    ("seven_wonders", 7, 100, 130),
    ("stone_age", 4, 30, 40),
    ("caverna", 4, 20, 25),
    ("caverna", 7, 8, 10),
]


@pytest.mark.parametrize(("slug", "num_players", "games", "target"), CASES,
                         ids=[f"{slug}-{players}p" for slug, players, _, _ in CASES])
def test_random_games_per_cpu_second(benchmark, slug, num_players, games, target):
    engine = get_engine(slug)
    seeds = itertools.count()
    rates: list[float] = []

    def play_round() -> None:
        started = time.process_time()
        for _ in range(games):
            index = next(seeds)
            random_game(engine, num_players, f"bench-{index}", index)
        rates.append(games / (time.process_time() - started))

    benchmark.pedantic(play_round, rounds=ROUNDS, iterations=1)
    best = max(rates)
    benchmark.extra_info["games_per_cpu_second"] = [round(rate, 1) for rate in rates]
    record(f"engine {slug} {num_players}p", best, "games/CPU s",
           note=f"target >= {target} ({'met' if best >= target else 'NOT met'}); "
                f"rounds {min(rates):.1f}-{best:.1f}")
    assert best > 0
