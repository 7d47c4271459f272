"""Random full games per second of today's engines against the first wave's (main at b6794c1,
frozen in tests/perf/engines_b6794c1), side by side in one process: the same seeds and choosers,
the two engines alternating in rounds so that whatever else the machine does falls on both, CPU
time of this process only. The ratio is what holds from machine to machine.

    python -m tests.perf.engine_ratios                       # every pair of the table
    python -m tests.perf.engine_ratios stone_age 4 --rounds 5 --games 4
"""

from __future__ import annotations

import argparse
import importlib
import time

from tests.perf.engine_play import random_game

FROZEN_PACKAGE = "tests.perf.engines_b6794c1"
CURRENT_MODULE = "games.engines.{slug}.engine"

#: (engine, players, games a round): the pairs the engines must be ×3 on, a round ~1 s each.
PAIRS = (
    ("stone_age", 4, 6),
    ("caverna", 4, 3),
    ("caverna", 7, 1),
    ("seven_wonders", 7, 10),
)


def frozen_engine(slug: str):
    return importlib.import_module(f"{FROZEN_PACKAGE}.{slug}").engine


def current_engine(slug: str):
    return importlib.import_module(CURRENT_MODULE.format(slug=slug)).engine


def _cpu_seconds(engine, num_players: int, seeds: range) -> float:
    started = time.process_time()
    for index in seeds:
        random_game(engine, num_players, f"bench-{index}", index)
    return time.process_time() - started


def ratio(slug: str, num_players: int, games: int, rounds: int) -> dict:
    """Games per second of both engines over `rounds` rounds of the same `games` seeds each."""
    old, new = frozen_engine(slug), current_engine(slug)
    old_seconds = new_seconds = 0.0
    for round_number in range(rounds):
        seeds = range(round_number * games, (round_number + 1) * games)
        first, second = (old, new) if round_number % 2 == 0 else (new, old)
        seconds = {first: _cpu_seconds(first, num_players, seeds),
                   second: _cpu_seconds(second, num_players, seeds)}
        old_seconds += seconds[old]
        new_seconds += seconds[new]
    played = games * rounds
    return {"engine": slug, "players": num_players, "games": played,
            "before": played / old_seconds, "after": played / new_seconds,
            "ratio": old_seconds / new_seconds}


def table(rows: list[dict]) -> str:
    lines = ["engine         players  games  b6794c1 games/s  now games/s  ratio"]
    for row in rows:
        lines.append(f"{row['engine']:<14} {row['players']:>7}  {row['games']:>5}  "
                     f"{row['before']:>15.2f}  {row['after']:>11.2f}  ×{row['ratio']:.2f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", nargs="?")
    parser.add_argument("players", nargs="?", type=int)
    parser.add_argument("--games", type=int, help="games a round (default: the table's)")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    pairs = [pair for pair in PAIRS
             if (args.engine is None or pair[0] == args.engine)
             and (args.players is None or pair[1] == args.players)]
    if args.engine and not pairs:
        pairs = [(args.engine, args.players or 4, args.games or 2)]
    rows = []
    for slug, num_players, games in pairs:
        rows.append(ratio(slug, num_players, args.games or games, args.rounds))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    print(table(rows))


if __name__ == "__main__":
    main()
