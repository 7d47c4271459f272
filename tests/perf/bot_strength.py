"""Search bot against easy bots: win share, scores and time per move, per engine.

Run (CPU-heavy; on a shared machine lower its priority and bound it):

    nice -n 10 .venv/bin/python -m tests.perf.bot_strength seven_wonders --games 200 --rollouts 24
    nice -n 10 .venv/bin/python -m tests.perf.bot_strength seven_wonders --players 2 --games 200
    nice -n 10 .venv/bin/python -m tests.perf.bot_strength stone_age --games 45 --rollouts 64
    nice -n 10 .venv/bin/python -m tests.perf.bot_strength caverna --games 126 --rollouts 12
    .venv/bin/python -m tests.perf.bot_strength caverna --summarize run.log   # a partial run

By default 7 Wonders and Stone Age: 3 players, one search bot and two easy bots; Caverna: 2
players, one search bot and one easy bot (`--players` sets another count: 7 Wonders at 2 is the
Free City variant, one search bot against one easy bot). Without `--rollouts` the search uses the
engine's own budget (its adapter's `rollouts`, as in production). The search seat rotates over
the seats game by game; game k uses the seed "strength-<engine>-<k>" (at another count than the
default "strength-<engine>-<players>p-<k>"). Prints one line per game and a summary (also
written as JSON to TEST_ARTIFACTS_DIR/bot_strength_<engine>[_<players>p].json): the search bot's
win share with a 95 % Wilson interval (a shared first place counts as a win), the mean scores of
the search bot and of the easy bots with 95 % intervals, and the time per searched move (mean,
95th percentile, max).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from pathlib import Path

from games.engines import bots, search
from games.engines.registry import get_engine

PLAYERS = {"seven_wonders": 3, "stone_age": 3, "caverna": 2}


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def play(slug: str, players: int, index: int, rollouts: int | None, max_seconds: float) -> dict:
    engine = get_engine(slug)
    tag = slug if players == PLAYERS[slug] else f"{slug}-{players}p"
    state = engine.new_game(players, f"strength-{tag}-{index}")
    search_seat = index % players
    times: list[float] = []
    while not engine.is_over(state):
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        if seat == search_seat:
            stats: dict = {}
            started = time.process_time()
            action = bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=rollouts,
                                   max_seconds=max_seconds, stats=stats)
            if stats.get("searched"):
                times.append(time.process_time() - started)
        else:
            action = engine.bot_action(state, seat)
        state = engine.apply(state, seat, action)
    result = engine.result(state)
    return {"scores": result["scores"], "winners": result["winners"], "search_seat": search_seat,
            "move_seconds": times}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--players", type=int, help="seats (default: 3; Caverna 2)")
    parser.add_argument("--rollouts", type=int,
                        help="play-outs per decision (default: the engine's own budget)")
    parser.add_argument("--max-seconds", type=float, default=search.DEFAULT_MAX_SECONDS)
    parser.add_argument("--summarize", metavar="LOG",
                        help="only summarize the per-game lines of an earlier (partial) run")
    args = parser.parse_args()
    players = args.players or PLAYERS[args.engine]
    rollouts = args.rollouts or bots.adapter_for(get_engine(args.engine)).rollouts
    games = []
    started = time.process_time()
    if args.summarize:
        for line in Path(args.summarize).read_text().splitlines():
            if line.startswith('{"game"'):
                games.append(json.loads(line))
    for index in range(args.first, args.first + (0 if args.summarize else args.games)):
        game = play(args.engine, players, index, rollouts, args.max_seconds)
        games.append(game)
        print(json.dumps({"game": index, **game}), flush=True)
    wins = sum(g["search_seat"] in g["winners"] for g in games)
    search_scores = [g["scores"][g["search_seat"]] for g in games]
    easy_scores = [s for g in games for i, s in enumerate(g["scores"]) if i != g["search_seat"]]
    margins = [g["scores"][g["search_seat"]] - max(s for i, s in enumerate(g["scores"])
                                                    if i != g["search_seat"]) for g in games]
    moves = sorted(t for g in games for t in g["move_seconds"])
    summary = {
        "engine": args.engine,
        "players": players,
        "games": len(games),
        "rollouts": rollouts,
        "max_seconds": args.max_seconds,
        "search_wins": wins,
        "win_share": wins / len(games),
        "win_share_95ci": wilson(wins, len(games)),
        "search_mean_score_95ci": mean_ci(search_scores),
        "easy_mean_score_95ci": mean_ci(easy_scores),
        "margin_vs_best_easy_95ci": mean_ci(margins),
        "searched_moves": len(moves),
        "move_cpu_seconds_mean": statistics.mean(moves) if moves else 0.0,
        "move_cpu_seconds_p95": moves[int(0.95 * (len(moves) - 1))] if moves else 0.0,
        "move_cpu_seconds_max": moves[-1] if moves else 0.0,
        "cpu_seconds_this_run": time.process_time() - started,
    }
    print(json.dumps(summary, indent=2))
    out = Path(os.environ.get("TEST_ARTIFACTS_DIR", "test-artifacts"))
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if players == PLAYERS[args.engine] else f"_{players}p"
    name = f"bot_strength_{args.engine}{suffix}.json"
    (out / name).write_text(json.dumps({"summary": summary, "games": games}, indent=1))


if __name__ == "__main__":
    main()
