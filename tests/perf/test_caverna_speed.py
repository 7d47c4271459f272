"""Caverna engine speed: full random games at 1, 4 and 7 players, the slowest `legal_actions`
call met over many random games, and one `apply`. Skipped unless pytest runs with
--benchmark-enable (`make bench`). Measured and reported, not asserted beyond sanity."""

from __future__ import annotations

import random
import time

import pytest

from games.engines.caverna import engine
from tests.engines.conformance import play_random_game

pytestmark = pytest.mark.skipif(
    "not config.getoption('benchmark_enable', False)", reason="needs --benchmark-enable"
)


@pytest.mark.parametrize("num_players", [1, 4, 7])
def test_full_random_game(benchmark, num_players):
    counter = iter(range(10**9))

    def play():
        return play_random_game(engine, num_players, f"bench-{next(counter)}", chooser_seed=0)

    game = benchmark(play)
    assert engine.is_over(game.final_state)


@pytest.mark.parametrize("num_players", [1, 4, 7])
def test_engine_only_random_game(benchmark, num_players):
    """legal_actions + apply only, without the kit's per-step describe and JSON checks."""
    counter = iter(range(10**9))

    def play():
        index = next(counter)
        chooser = random.Random(index)
        state = engine.new_game(num_players, f"bench-engine-{index}")
        while not engine.is_over(state):
            seat = engine.active_seats(state)[0]
            state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
        return state

    state = benchmark(play)
    assert engine.is_over(state)


def test_full_bot_game_four_players(benchmark):
    counter = iter(range(10**9))

    def play():
        return play_random_game(engine, 4, f"bench-bot-{next(counter)}", use_bot=1.0)

    game = benchmark(play)
    assert engine.is_over(game.final_state)


def _states(num_players, num_games=20):
    for index in range(num_games):
        chooser = random.Random(index)
        state = engine.new_game(num_players, f"slowest-{num_players}-{index}")
        while not engine.is_over(state):
            seat = engine.active_seats(state)[0]
            yield state, seat
            state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("num_players", [4, 7])
def test_slowest_legal_actions_call(benchmark, num_players):
    """Times every legal_actions call of 20 random games (best of 3 each, to keep scheduler
    noise out); benchmarks the slowest."""
    slowest = (0.0, None, None)
    for state, seat in _states(num_players):
        elapsed = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            engine.legal_actions(state, seat)
            elapsed = min(elapsed, time.perf_counter() - started)
        if elapsed > slowest[0]:
            slowest = (elapsed, state, seat)
    _elapsed, state, seat = slowest
    actions = benchmark(engine.legal_actions, state, seat)
    benchmark.extra_info["decision"] = state["stack"][-1]["t"]
    benchmark.extra_info["actions"] = len(actions)
    benchmark.extra_info["slowest_seen_us"] = round(_elapsed * 1e6, 1)
    assert actions


def test_apply_one_placement(benchmark):
    state = engine.new_game(4, "bench-apply")
    seat = engine.active_seats(state)[0]
    action = next(a for a in engine.legal_actions(state, seat) if a["type"] == "place")
    new = benchmark(engine.apply, state, seat, action)
    assert new["spaces"][action["space"]]["occ"] == seat
