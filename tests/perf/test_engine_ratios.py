"""Today's engines against the first wave's (b6794c1, frozen in tests/perf/engines_b6794c1):
random full games per CPU second of both, side by side in one process on the same seeds
(tests/perf/engine_ratios.py), for the pairs that must be at least three times as fast. Under
`make bench` each pair plays several alternating rounds and its ratio goes into the cost table;
with --benchmark-disable (CI) one game each, so that the yardstick keeps playing."""

from __future__ import annotations

import pytest

from tests.perf.cost_table import record
from tests.perf.engine_ratios import PAIRS, ratio

TARGET = 3.0


@pytest.mark.parametrize(("slug", "num_players", "games"), PAIRS,
                         ids=[f"{slug}-{players}p" for slug, players, _ in PAIRS])
def test_engines_against_the_first_waves(request, slug, num_players, games):
    measuring = request.config.getoption("benchmark_enable", False)
    row = ratio(slug, num_players, games if measuring else 1, rounds=4 if measuring else 1)
    if measuring:
        record(f"engine {slug} {num_players}p ×b6794c1", row["ratio"], "× games/s",
               note=f"{row['before']:.1f} → {row['after']:.1f} games/CPU s over "
                    f"{row['games']} games; target ×{TARGET:g} "
                    f"({'met' if row['ratio'] >= TARGET else 'NOT met'})")
    assert row["before"] > 0 and row["after"] > 0
