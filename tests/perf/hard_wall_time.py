"""The hard level's thinking time as production bounds it (wall clock): wall and CPU seconds per
searched decision, from the start of a seeded game in which every seat plays at level hard.

Run (a minute or two per engine):

    .venv/bin/python -m tests.perf.hard_wall_time stone_age --players 3 --decisions 40

The duel (tests/perf/bot_duel.py) bounds thinking by CPU time so that a busy machine does not
cut its searches short; this checks the bound a player meets, BOT_HARD_MAX_SECONDS of wall time
(the search is single-threaded, so CPU time stays below it too). The first decisions of a game
are the longest (most of the game left to play out), so they are the ones measured.
"""

from __future__ import annotations

import argparse
import json
import time

from games.engines import bots
from games.engines.registry import get_engine


def measure(slug: str, players: int, decisions: int) -> dict:
    engine = get_engine(slug)
    state = engine.new_game(players, f"wall-{slug}")
    walls: list[float] = []
    cpus: list[float] = []
    while not engine.is_over(state) and len(walls) < decisions:
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        stats: dict = {}
        wall, cpu = time.monotonic(), time.process_time()
        action = bots.bot_move(engine, state, seat, bots.HARD, stats=stats)
        if stats.get("searched"):
            walls.append(time.monotonic() - wall)
            cpus.append(time.process_time() - cpu)
        state = engine.apply(state, seat, action)
    walls.sort()
    cpus.sort()
    return {"engine": slug, "players": players, "decisions": len(walls),
            "bound_seconds": bots.MAX_SECONDS[bots.HARD],
            "wall": {"p50": walls[len(walls) // 2], "max": walls[-1]},
            "cpu": {"p50": cpus[len(cpus) // 2], "max": cpus[-1]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", choices=["caverna", "seven_wonders", "stone_age"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=40)
    args = parser.parse_args()
    print(json.dumps(measure(args.engine, args.players, args.decisions), indent=2))


if __name__ == "__main__":
    main()
