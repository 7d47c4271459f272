"""Random play for the engine speed benchmarks: through the conformance kit, or straight on the
engine with no describe and no JSON checks, just `legal_actions` and `apply` (and `resolve` for
chance or simultaneous steps)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest

from tests.engines.conformance import play_random_game

#: Engine benchmarks run only under `make bench` (pytest --benchmark-enable).
BENCHMARKS_ONLY = pytest.mark.skipif(
    "not config.getoption('benchmark_enable', False)", reason="needs --benchmark-enable"
)


def kit_games(engine, num_players: int, prefix: str = "bench", **options) -> Callable:
    """A new random game through the conformance kit's player at each call (describe and JSON
    checks included), for `benchmark(...)`."""
    counter = iter(range(10**9))
    return lambda: play_random_game(engine, num_players, f"{prefix}-{next(counter)}", **options)


def decisions(engine, num_players: int, seed: str, chooser_seed: int) -> Iterator[tuple]:
    """Yields (state, seat) at every decision of one random game, then plays a random choice."""
    chooser = random.Random(chooser_seed)
    state = engine.new_game(num_players, seed)
    while not engine.is_over(state):
        if engine.ready_to_resolve(state):  # dice, or every secret pick is in
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        yield state, seat
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))


def random_game(engine, num_players: int, seed: str, chooser_seed: int) -> int:
    """Plays one random game to the end; returns the number of decisions."""
    return sum(1 for _ in decisions(engine, num_players, seed, chooser_seed))


def slowest_legal_actions(engine, games: Iterator[tuple]) -> tuple[float, dict, int, int]:
    """Times every `legal_actions` call of the given decisions (best of 3 each, to keep
    scheduler noise out): (seconds, state, seat) of the slowest and the number of calls."""
    slowest, slowest_state, slowest_seat, calls = 0.0, None, None, 0
    for state, seat in games:
        calls += 1
        elapsed = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            engine.legal_actions(state, seat)
            elapsed = min(elapsed, time.perf_counter() - started)
        if elapsed > slowest:
            slowest, slowest_state, slowest_seat = elapsed, state, seat
    return slowest, slowest_state, slowest_seat, calls
