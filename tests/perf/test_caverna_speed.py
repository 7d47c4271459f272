"""Caverna engine speed: full random games at 1, 4 and 7 players, the slowest `legal_actions`
call met over many random games, and one `apply`. Skipped unless pytest runs with
--benchmark-enable (`make bench`). Measured and reported, not asserted beyond sanity."""

from __future__ import annotations

import pytest

from games.engines.caverna.engine import engine
from tests.perf.engine_play import (
    BENCHMARKS_ONLY,
    decisions,
    kit_games,
    random_game,
    slowest_legal_actions,
)

pytestmark = BENCHMARKS_ONLY


@pytest.mark.parametrize("num_players", [1, 4, 7])
def test_full_random_game(benchmark, num_players):
    game = benchmark(kit_games(engine, num_players))
    assert engine.is_over(game.final_state)


@pytest.mark.parametrize("num_players", [1, 4, 7])
def test_engine_only_random_game(benchmark, num_players):
    """legal_actions + apply only, without the kit's per-step describe and JSON checks."""
    counter = iter(range(10**9))

    def play():
        index = next(counter)
        return random_game(engine, num_players, f"bench-engine-{index}", chooser_seed=index)

    assert benchmark(play) > 0


def test_full_bot_game_four_players(benchmark):
    game = benchmark(kit_games(engine, 4, "bench-bot", use_bot=1.0))
    assert engine.is_over(game.final_state)


@pytest.mark.parametrize("num_players", [4, 7])
def test_slowest_legal_actions_call(benchmark, num_players):
    """Times every legal_actions call of 20 random games; benchmarks the slowest."""
    games = (decision for index in range(20) for decision in
             decisions(engine, num_players, f"slowest-{num_players}-{index}", index))
    slowest_seen, state, seat, _calls = slowest_legal_actions(engine, games)
    actions = benchmark(engine.legal_actions, state, seat)
    benchmark.extra_info["decision"] = state["stack"][-1]["t"]
    benchmark.extra_info["actions"] = len(actions)
    benchmark.extra_info["slowest_seen_us"] = round(slowest_seen * 1e6, 1)
    assert actions


def test_apply_one_placement(benchmark):
    state = engine.new_game(4, "bench-apply")
    seat = engine.active_seats(state)[0]
    action = next(a for a in engine.legal_actions(state, seat) if a["type"] == "place")
    new = benchmark(engine.apply, state, seat, action)
    assert new["spaces"][action["space"]]["occ"] == seat
