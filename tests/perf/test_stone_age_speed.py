"""Stone Age engine speed: full random games per player count, the slowest `legal_actions` call
met over many random games, and one `apply`. Skipped unless pytest runs with
--benchmark-enable (`make bench`). Measured and reported, not asserted beyond sanity."""

from __future__ import annotations

import pytest

from games.engines.stone_age.engine import engine
from tests.perf.engine_play import (
    BENCHMARKS_ONLY,
    decisions,
    kit_games,
    random_game,
    slowest_legal_actions,
)

pytestmark = BENCHMARKS_ONLY


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_full_random_game(benchmark, num_players):
    game = benchmark(kit_games(engine, num_players))
    assert engine.is_over(game.final_state)


@pytest.mark.parametrize("num_players", [2, 3, 4])
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


SLOWEST_GAMES = 200


def test_slowest_legal_actions_call(benchmark):
    """Times every legal_actions call of 200 random 4-player games; benchmarks the slowest."""
    games = (decision for index in range(SLOWEST_GAMES)
             for decision in decisions(engine, 4, f"slowest-{index}", index))
    slowest_seen, state, seat, calls = slowest_legal_actions(engine, games)
    actions = benchmark(engine.legal_actions, state, seat)
    benchmark.extra_info["decision"] = (state["pending"] or {}).get("kind", state["phase"])
    benchmark.extra_info["actions"] = len(actions)
    benchmark.extra_info["slowest_seen_us"] = round(slowest_seen * 1e6, 1)
    benchmark.extra_info["calls_timed"] = calls
    assert actions


def test_apply_one_placement(benchmark):
    state = engine.new_game(4, "bench-apply")
    action = engine.legal_actions(state, 0)[0]
    new = benchmark(engine.apply, state, 0, action)
    assert new["players"][0]["placed"]
