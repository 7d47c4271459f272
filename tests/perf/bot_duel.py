"""Hard bot against search bots: the share of search bots the hard bot finishes ahead of.

Run (CPU-heavy; on a shared machine lower its priority, one run at a time or parallel ranges):

    nice -n 10 .venv/bin/python -m tests.perf.bot_duel seven_wonders --players 2 --games 200
    nice -n 10 .venv/bin/python -m tests.perf.bot_duel caverna --games 100 --first 100 > b.log
    .venv/bin/python -m tests.perf.bot_duel caverna --summarize a.log b.log   # ranges together

One seat plays at level `hard` (rotating over the seats game by game), every other seat at
`search`, each with its engine's own budget (`--rollouts`/`--width` change the hard bot's, to tune
it). Game k uses the seed "duel-<engine>-<players>p-<k // players>" with the hard bot on seat k %
players: each deal is played once with the hard bot on every seat, so the deal's luck and the
seat's advantage (large in Caverna for two) cancel out over the games. Per game the hard bot's
share is the fraction of search bots it finishes ahead of (a tie on points counts ½ unless the
engine's tie-break puts exactly one of the two among the winners). Prints one JSON line per game
and a summary (also written to TEST_ARTIFACTS_DIR/bot_duel_<engine>_<players>p.json): the mean
share with a 95 % interval (Wilson over the games for two players, a share then being a win, a tie
or a loss; normal over the per-game shares for more), and the CPU seconds per searched decision of
the hard bot (mean, 95th percentile, max) and of the search bots.

Thinking time is bounded by CPU time here (`--clock cpu`, the default), not wall time: on a
busy machine a wall bound would cut searches short and measure the load, not the bot; a quiet
machine, where wall and CPU time agree, is what production sizes for. `--clock wall` measures
as production plays on this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from games.engines import bots, search
from games.engines.registry import get_engine
from tests.perf.bot_strength import mean_ci, wilson

PLAYERS = {"seven_wonders": 3, "stone_age": 3, "caverna": 2}
CLOCKS = {"cpu": time.process_time, "wall": time.monotonic}


def normal_interval(values: list[float]) -> tuple[float, float]:
    return mean_ci(values)[1:]


def share_ahead(scores: list[float], winners: list[int], seat: int) -> float:
    """The fraction of the other seats `seat` finished ahead of (a tie counts ½)."""
    points = []
    for other, score in enumerate(scores):
        if other == seat:
            continue
        if scores[seat] != score:
            points.append(1.0 if scores[seat] > score else 0.0)
        elif (seat in winners) != (other in winners):
            points.append(1.0 if seat in winners else 0.0)
        else:
            points.append(0.5)
    return statistics.fmean(points)


def play(slug: str, players: int, index: int, *, rollouts: int | None, width: int | None,
         clock: str, explore: float | None = None) -> dict:
    engine = get_engine(slug)
    adapter = bots.adapter_for(engine)
    state = engine.new_game(players, f"duel-{slug}-{players}p-{index // players}")
    hard_seat = index % players
    hard_times: list[float] = []
    search_times: list[float] = []
    hard_playouts = 0
    while not engine.is_over(state):
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        stats: dict = {}
        started = time.process_time()
        if seat == hard_seat and (rollouts or width or explore is not None):
            # Tuning: the hard level's search at another budget.
            action = search.choose(
                engine, adapter, state, seat, rollouts=rollouts or adapter.hard_rollouts,
                width=width or adapter.hard_width, max_seconds=bots.MAX_SECONDS[bots.HARD],
                stats=stats, clock=CLOCKS[clock],
                explore=adapter.hard_explore if explore is None else explore)
        else:
            level = bots.HARD if seat == hard_seat else bots.SEARCH
            action = bots.bot_move(engine, state, seat, level, stats=stats, clock=CLOCKS[clock])
        if stats.get("searched"):
            (hard_times if seat == hard_seat else search_times).append(
                time.process_time() - started)
            if seat == hard_seat:
                hard_playouts += stats.get("playouts", 0)
        state = engine.apply(state, seat, action)
    result = engine.result(state)
    return {"scores": result["scores"], "winners": result["winners"], "hard_seat": hard_seat,
            "share": share_ahead(result["scores"], result["winners"], hard_seat),
            "hard_seconds": hard_times, "search_seconds": search_times,
            "hard_playouts": hard_playouts}


def _cpu(times: list[float]) -> dict:
    times = sorted(times)
    if not times:
        return {"mean": 0.0, "p95": 0.0, "max": 0.0, "decisions": 0}
    return {"mean": statistics.fmean(times), "p95": times[int(0.95 * (len(times) - 1))],
            "max": times[-1], "decisions": len(times)}


def summarize(games: list[dict], players: int) -> dict:
    shares = [g["share"] for g in games]
    mean = statistics.fmean(shares)
    interval = (wilson(sum(shares), len(shares)) if players == 2 else normal_interval(shares))
    return {
        "games": len(games),
        "share_ahead": mean,
        "share_ahead_95ci": interval,
        "hard_wins": sum(g["hard_seat"] in g["winners"] for g in games),
        "hard_mean_score": statistics.fmean(g["scores"][g["hard_seat"]] for g in games),
        "search_mean_score": statistics.fmean(
            s for g in games for i, s in enumerate(g["scores"]) if i != g["hard_seat"]),
        "hard_cpu_seconds_per_decision": _cpu([t for g in games for t in g["hard_seconds"]]),
        "search_cpu_seconds_per_decision": _cpu(
            [t for g in games for t in g["search_seconds"]]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--players", type=int, help="seats (default: 3; Caverna 2)")
    parser.add_argument("--rollouts", type=int, help="the hard bot's play-outs a decision")
    parser.add_argument("--width", type=int, help="the hard bot's candidates a decision")
    parser.add_argument("--explore", type=float,
                        help="the hard bot's play-outs: chance a decision is explored")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="what bounds a decision's thinking time (default: CPU time)")
    parser.add_argument("--summarize", metavar="LOG", nargs="+",
                        help="only summarize the per-game lines of earlier runs")
    args = parser.parse_args()
    players = args.players or PLAYERS[args.engine]
    games = []
    if args.summarize:
        for log in args.summarize:
            for line in Path(log).read_text().splitlines():
                if line.startswith('{"game"'):
                    games.append(json.loads(line))
    else:
        for index in range(args.first, args.first + args.games):
            game = play(args.engine, players, index, rollouts=args.rollouts, width=args.width,
                        explore=args.explore, clock=args.clock)
            games.append(game)
            print(json.dumps({"game": index, **game}), flush=True)
    adapter = bots.adapter_for(get_engine(args.engine))
    summary = {"engine": args.engine, "players": players,
               "hard_rollouts": args.rollouts or adapter.hard_rollouts,
               "hard_width": args.width or adapter.hard_width,
               "hard_explore": adapter.hard_explore if args.explore is None else args.explore,
               "clock": args.clock,
               **summarize(games, players)}
    print(json.dumps(summary, indent=2))
    out = Path(os.environ.get("TEST_ARTIFACTS_DIR", "test-artifacts"))
    out.mkdir(parents=True, exist_ok=True)
    name = f"bot_duel_{args.engine}_{players}p.json"
    (out / name).write_text(json.dumps({"summary": summary, "games": games}, indent=1))


if __name__ == "__main__":
    main()
