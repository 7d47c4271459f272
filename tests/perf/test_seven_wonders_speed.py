"""7 Wonders engine speed: full random 7-player and 2-player (Free City) games, legal_actions
mid-game at 7 players, and one pick applied. Skipped unless pytest runs with --benchmark-enable
(`make bench`)."""

from __future__ import annotations

from games.engines.seven_wonders.engine import engine
from tests.engines.conformance import play_random_game
from tests.perf.engine_play import BENCHMARKS_ONLY, kit_games, random_game

pytestmark = BENCHMARKS_ONLY


def _mid_game_state():
    """A 7-player state at Age II, turn 3, reached by random play."""
    played = play_random_game(engine, 7, "bench-mid-game", chooser_seed=1)
    state = engine.new_game(7, "bench-mid-game")
    for entry in played.log:
        if state["age"] == 2 and state["turn"] == 3 and engine.active_seats(state) == list(
            range(7)
        ):
            return state
        if entry[0] == "resolve":
            state = engine.resolve(state)
        else:
            state = engine.apply(state, entry[1], entry[2])
    raise AssertionError("the game never reached Age II turn 3")


def test_full_random_seven_player_game(benchmark):
    game = benchmark(kit_games(engine, 7))
    assert engine.is_over(game.final_state)


def test_full_random_seven_player_game_on_the_engine(benchmark):
    """legal_actions / apply / resolve only (no describe, no JSON checks): games per second."""
    counter = iter(range(10**9))
    decisions = benchmark(lambda: random_game(engine, 7, f"bench-seven-{next(counter)}", 0))
    assert decisions >= 18 * 7


def test_full_random_two_player_game_on_the_engine(benchmark):
    """legal_actions / apply / resolve only (no describe, no JSON checks): games per second."""
    counter = iter(range(10**9))
    decisions = benchmark(lambda: random_game(engine, 2, f"bench-two-{next(counter)}", 0))
    # 18 turns of three picks (the controller's own and the Free City's, the other seat's).
    assert decisions >= 18 * 3


def test_full_random_three_player_game_on_the_engine(benchmark):
    """The same at 3 players, to compare side by side with the 2-player game."""
    counter = iter(range(10**9))
    decisions = benchmark(lambda: random_game(engine, 3, f"bench-three-{next(counter)}", 0))
    assert decisions >= 18 * 3


def test_legal_actions_mid_game_seven_players(benchmark):
    state = _mid_game_state()
    actions = benchmark(engine.legal_actions, state, 3)
    assert actions


def test_apply_one_pick_seven_players(benchmark):
    state = _mid_game_state()
    action = engine.legal_actions(state, 3)[0]
    new = benchmark(engine.apply, state, 3, action)
    assert new["picks"][3] == action
