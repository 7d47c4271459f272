"""Stone Age engine speed: full random games per player count, the slowest `legal_actions` call
met over many random games, and one `apply`. Skipped unless pytest runs with
--benchmark-enable (`make bench`). Measured and reported, not asserted beyond sanity."""

from __future__ import annotations

import random
import time

import pytest

from games.engines.stone_age import engine
from tests.engines.conformance import play_random_game

pytestmark = pytest.mark.skipif(
    "not config.getoption('benchmark_enable', False)", reason="needs --benchmark-enable"
)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_full_random_game(benchmark, num_players):
    counter = iter(range(10**9))

    def play():
        return play_random_game(engine, num_players, f"bench-{next(counter)}", chooser_seed=0)

    game = benchmark(play)
    assert engine.is_over(game.final_state)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_engine_only_random_game(benchmark, num_players):
    """legal_actions + apply only, without the kit's per-step describe and JSON checks."""
    counter = iter(range(10**9))

    def play():
        index = next(counter)
        chooser = random.Random(index)
        state = engine.new_game(num_players, f"bench-engine-{index}")
        while not engine.is_over(state):
            if engine.ready_to_resolve(state):  # a dice roll: the engine's chance step
                state = engine.resolve(state)
                continue
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


SLOWEST_GAMES = 200


def _states(num_games=SLOWEST_GAMES):
    for index in range(num_games):
        chooser = random.Random(index)
        state = engine.new_game(4, f"slowest-{index}")
        while not engine.is_over(state):
            if engine.ready_to_resolve(state):  # a dice roll: no seat decides
                state = engine.resolve(state)
                continue
            seat = engine.active_seats(state)[0]
            yield state, seat
            state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))


def test_slowest_legal_actions_call(benchmark):
    """Times every legal_actions call of 200 random 4-player games (best of 3 each, to keep
    scheduler noise out); benchmarks the slowest."""
    slowest = (0.0, None, None)
    calls = 0
    for state, seat in _states():
        calls += 1
        elapsed = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            engine.legal_actions(state, seat)
            elapsed = min(elapsed, time.perf_counter() - started)
        if elapsed > slowest[0]:
            slowest = (elapsed, state, seat)
    _elapsed, state, seat = slowest
    actions = benchmark(engine.legal_actions, state, seat)
    benchmark.extra_info["decision"] = (state["pending"] or {}).get("kind", state["phase"])
    benchmark.extra_info["actions"] = len(actions)
    benchmark.extra_info["slowest_seen_us"] = round(_elapsed * 1e6, 1)
    benchmark.extra_info["calls_timed"] = calls
    assert actions


def test_apply_one_placement(benchmark):
    state = engine.new_game(4, "bench-apply")
    action = engine.legal_actions(state, 0)[0]
    new = benchmark(engine.apply, state, 0, action)
    assert new["players"][0]["placed"]
