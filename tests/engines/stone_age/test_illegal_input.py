"""Anything not listed is refused with a reason a player can read, and changes nothing."""

import copy

import pytest

from games.engines.base import IllegalAction, InvalidOptions
from games.engines.stone_age.engine import engine

from .helpers import action_phase, apply, fresh, resources, rig_dice


def refused(state, seat, action, match=None):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=match) as error:
        engine.apply(state, seat, action)
    assert str(error.value)
    assert state == before
    return str(error.value)


def test_out_of_turn():
    state = fresh(3)
    refused(state, 1, {"type": "place", "location": "forest", "count": 1}, "turn")


@pytest.mark.parametrize("action", [
    {"type": "place", "location": "hut", "count": 1},
    {"type": "place", "location": "hut", "count": 3},
    {"type": "place", "location": "tool_maker", "count": 2},
    {"type": "place", "location": "forest", "count": 8},
    {"type": "place", "location": "forest", "count": 0},
    {"type": "place", "location": "forest", "count": "2"},
    {"type": "place", "location": "hunting_grounds", "count": 6},
    {"type": "place", "location": "moon", "count": 1},
    {"type": "place", "location": "building_stack_3", "count": 1},  # only 2 stacks with 2 seats
    {"type": "resolve", "location": "forest"},
    {"type": "place", "location": "forest"},
    {"type": "place", "location": "forest", "count": 1, "extra": True},
])
def test_bad_placements(action):
    refused(fresh(2), 0, action)


def test_second_visit_is_refused_with_the_reason():
    state = fresh(4)
    state = apply(state, 0, {"type": "place", "location": "hunting_grounds", "count": 2})
    for seat in (1, 2, 3):
        state = apply(state, seat, {"type": "place", "location": "field" if seat == 1 else
                                    "civ_slot_1" if seat == 2 else "civ_slot_2", "count": 1})
    text = refused(state, 0, {"type": "place", "location": "hunting_grounds", "count": 1})
    assert "already placed" in text


def test_occupied_location_is_refused():
    state = fresh(4)
    state = apply(state, 0, {"type": "place", "location": "tool_maker", "count": 1})
    assert "occupied" in refused(state, 1, {"type": "place", "location": "tool_maker",
                                            "count": 1})


def test_resolving_a_location_not_placed():
    state = action_phase(4, 0, {"forest": 2})
    refused(state, 0, {"type": "resolve", "location": "river"})
    refused(state, 1, {"type": "resolve", "location": "forest"}, "turn")


def test_wrong_payments_for_a_card():
    state = action_phase(4, 0, {"civ_slot_2": 1})
    state["players"][0]["resources"] = resources(wood=1, clay=2)
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_2"})
    refused(state, 0, {"type": "buy_card", "pay": resources(wood=1)}, "payment")
    refused(state, 0, {"type": "buy_card", "pay": resources(wood=2)})  # has only one
    refused(state, 0, {"type": "buy_card", "pay": resources(wood=1, clay=2)})  # too much
    refused(state, 0, {"type": "buy_card", "pay": {"wood": 1, "clay": 1, "food": 0}})
    refused(state, 0, {"type": "buy_card", "pay": {"wood": -1, "clay": 3, "stone": 0,
                                                   "gold": 0}})
    refused(state, 0, {"type": "buy_building", "pay": resources(wood=1, clay=1)})
    refused(state, 0, {"type": "accept_penalty"}, "pay for the card or decline")


def test_wrong_tools_and_dice_picks():
    state = action_phase(4, 0, {"hunting_grounds": 2})
    state["players"][0]["tools"] = [{"value": 1, "used": True}, {"value": 1, "used": False}]
    rig_dice(state, [1, 2])
    state = apply(state, 0, {"type": "resolve", "location": "hunting_grounds"})
    refused(state, 0, {"type": "use_tools", "tiles": [1, 1], "one_use": []})  # one is used
    refused(state, 0, {"type": "use_tools", "tiles": [2], "one_use": []})
    refused(state, 0, {"type": "use_tools", "tiles": [], "one_use": ["civ_33"]})
    refused(state, 0, {"type": "pick_die", "face": 1}, "choose which tools")


def test_pick_a_die_that_was_not_rolled():
    state = action_phase(4, 0, {"civ_slot_1": 1})
    state["display"][0] = "civ_01"
    state["players"][0]["resources"] = resources(wood=1)
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_1"})
    rig_dice(state, [1, 2, 3, 4])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(wood=1)})
    refused(state, 0, {"type": "pick_die", "face": 6})
    refused(state, 1, {"type": "pick_die", "face": 1}, "turn")


def test_two_resources_without_the_card():
    state = action_phase(4, 0, {"forest": 1})
    assert "no unused two-resources card" in refused(
        state, 0, {"type": "use_two_resources", "take": resources(gold=2)})


def test_after_the_game_is_over():
    state = fresh(2)
    state["phase"] = "over"
    assert engine.legal_actions(state, 0) == [] and engine.active_seats(state) == []
    refused(state, 0, {"type": "place", "location": "forest", "count": 1}, "over")


@pytest.mark.parametrize("num_players,options", [(1, None), (5, None), ("2", None), (True, None),
                                                 (2, {"variant": "x"}), (2, [])])
def test_bad_set_up(num_players, options):
    with pytest.raises(InvalidOptions):
        engine.new_game(num_players, "seed", options)


def test_facts():
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == (
        "stone_age", "Stone Age", 2, 4)
    assert engine.simultaneous is False and engine.rules_version == 1
    assert engine.describe_engine()["options"] == []
