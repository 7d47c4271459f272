"""Random full games per second of one engine on the engine alone (`legal_actions`, `apply`,
`resolve`: tests/perf/engine_play.random_game), counted in this process's CPU time so that other
load on a shared machine does not count. Optionally with a cProfile of the run.

    nice -n 10 taskset -c 1 python -m tests.perf.engine_speed stone_age 4 15
    python -m tests.perf.engine_speed caverna 4 3 --profile tottime

To compare with older code, run it in a checkout of that code (this file copied in) alternately
with the new one.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time

from games.engines.registry import get_engine
from tests.perf.engine_play import random_game


def main(argv: list[str]) -> None:
    slug, num_players, games = argv[0], int(argv[1]), int(argv[2])
    engine = get_engine(slug)
    profile = cProfile.Profile() if "--profile" in argv else None
    if profile:
        profile.enable()
    started = time.process_time()
    for index in range(games):
        random_game(engine, num_players, f"bench-{index}", index)
    elapsed = time.process_time() - started
    if profile:
        profile.disable()
        pstats.Stats(profile).sort_stats(argv[argv.index("--profile") + 1]).print_stats(25)
    print(f"{slug} {num_players}p: {games / elapsed:.2f} games/s (CPU time, {games} games)")


if __name__ == "__main__":
    main(sys.argv[1:])
