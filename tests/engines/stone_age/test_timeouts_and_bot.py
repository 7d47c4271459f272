"""Time-out defaults are legal and conservative for every kind of decision; the bot is a real
heuristic: deterministic, legal, and much stronger than random play."""

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.stone_age.engine import engine
from tests.engines.conformance import play_random_game

from .helpers import action_phase, apply, fresh, resources, rig_dice, set_tools


def decision_kinds_seen(num_games=4):
    """Every (phase, pending kind) met in some random games, with a state for each."""
    seen = {}
    for index in range(num_games):
        game = play_random_game(engine, 2 + index % 3, f"kinds-{index}", chooser_seed=index)
        state = engine.new_game(game.num_players, game.seed)
        for entry in game.log:
            pending = state["pending"]
            key = (state["phase"], pending["kind"] if pending else None)
            seen.setdefault(key, state)
            if entry[0] == "resolve":
                state = engine.resolve(state)
            else:
                state = engine.apply(state, entry[1], entry[2])
    return seen


def test_timeout_is_legal_for_every_kind_of_decision():
    seen = decision_kinds_seen()
    assert set(seen) >= {("placement", None), ("actions", None), ("actions", "tools"),
                         ("actions", "buy_card"), ("actions", "buy_building"),
                         ("actions", "dice_for_all"), ("feeding", "feeding"),
                         ("actions", "roll")}
    for state in seen.values():
        for seat in engine.active_seats(state):
            assert engine.timeout_action(state, seat) in engine.legal_actions(state, seat)
            assert engine.bot_action(state, seat) in engine.legal_actions(state, seat)


def test_timeout_places_everyone_on_the_hunting_grounds():
    assert engine.timeout_action(fresh(3), 0) == {
        "type": "place", "location": "hunting_grounds", "count": 5}


def test_timeout_without_hunting_takes_the_roomiest_place():
    state = fresh(4)
    state["players"][0]["placed"] = {"hunting_grounds": 2}
    state["players"][0]["unplaced"] = 3
    state["players"][1]["placed"] = {"forest": 5}
    action = engine.timeout_action(state, 0)
    assert action["location"] in ("clay_pit", "quarry", "river") and action["count"] == 3


def test_timeout_declines_purchases():
    state = action_phase(4, 0, {"civ_slot_1": 1, "building_stack_1": 1})
    state["players"][0]["resources"] = resources(5, 5, 5, 5)
    card = apply(state, 0, {"type": "resolve", "location": "civ_slot_1"})
    assert engine.timeout_action(card, 0) == {"type": "decline"}
    building = apply(state, 0, {"type": "resolve", "location": "building_stack_1"})
    assert engine.timeout_action(building, 0) == {"type": "decline"}


def test_timeout_never_spends_a_one_use_tool_but_uses_tiles_on_the_last_roll():
    state = action_phase(4, 0, {"forest": 2}, keep_busy=False)
    state["players"][1]["placed"] = {"forest": 1, "river": 1}
    player = state["players"][0]
    player["one_use"] = ["civ_33"]
    set_tools(player, [1])
    rig_dice(state, [4, 4])  # 8: the tile gives 9 -> 3 wood, the card 12 -> 4 wood
    state = apply(state, 0, {"type": "resolve", "location": "forest"})
    assert engine.timeout_action(state, 0) == {"type": "use_tools", "tiles": [1], "one_use": []}
    assert engine.bot_action(state, 0) == {"type": "use_tools", "tiles": [],
                                           "one_use": ["civ_33"]}


def test_timeout_feeding_pays_cheapest_first_or_takes_the_penalty():
    state = action_phase(2, 0, {"hunting_grounds": 1}, keep_busy=False)
    player = state["players"][0]
    player.update(food=0, people=5, resources=resources(wood=1, clay=2, gold=5))
    state["players"][1]["food"] = 20
    rig_dice(state, [1])
    state = apply(state, 0, {"type": "resolve", "location": "hunting_grounds"})
    while state["pending"]:
        state = apply(state, 0, engine.timeout_action(state, 0))
    assert state["players"][0]["resources"] == resources(gold=3)
    assert state["players"][0]["score"] == 0


def test_timeout_picks_the_highest_useful_die():
    state = action_phase(2, 0, {"civ_slot_1": 1})
    state["display"][0] = "civ_01"
    state["players"][0]["resources"] = resources(wood=1)
    state["players"][0]["food_track"] = 10
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_1"})
    rig_dice(state, [6, 5])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(wood=1)})
    assert engine.timeout_action(state, 0) == {"type": "pick_die", "face": 5}


def play_bot_vs_random(num_players, seed, bot_seat):
    chooser = random.Random(seed)
    state = engine.new_game(num_players, f"duel-{seed}")
    while not engine.is_over(state):
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        if seat == bot_seat:
            action = engine.bot_action(state, seat)
        else:
            action = chooser.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
    return engine.result(state)


def test_bot_beats_random_players():
    wins = 0
    games = 12
    for index in range(games):
        num_players = 2 + index % 3
        result = play_bot_vs_random(num_players, index, index % num_players)
        wins += (index % num_players) in result["winners"]
    assert wins >= games * 3 // 4


def test_bot_is_deterministic_and_plays_whole_games():
    for num_players in (2, 3, 4):
        game = play_random_game(engine, num_players, f"all-bots-{num_players}", use_bot=1.0)
        again = play_random_game(engine, num_players, f"all-bots-{num_players}", use_bot=1.0)
        assert game.log == again.log
        scores = engine.result(game.final_state)["scores"]
        assert max(scores) >= 60, scores


def test_timeout_and_bot_refuse_a_seat_with_nothing_to_decide():
    state = fresh(3)
    for call in (engine.timeout_action, engine.bot_action):
        with pytest.raises(IllegalAction):
            call(state, 1)  # seat 0 places first
