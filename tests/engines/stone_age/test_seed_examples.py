"""The seed rulebooks' placement and action examples that reference section 21 does not repeat:
the Persian (seeds/000) and Chinese (seeds/004) placement round and per-location examples, and
the resource / food card examples. docs/rules/stone_age.md maps every example to its test."""

import pytest

from games.engines.base import IllegalAction
from games.engines.stone_age.engine import engine
from tests.engines.english import english_view

from .helpers import action_phase, apply, fresh, resources, rig_dice

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def place(location, count=1):
    return {"type": "place", "location": location, "count": count}


def test_persian_and_chinese_placement_round_example():
    """Red (start player) puts 1 on the second card, Blue 5 on the hunting grounds, Green 2 in
    the hut, Yellow 1 on the third building; the locations have no order of their own."""
    state = fresh(4)
    assert engine.active_seats(state) == [RED]
    state = apply(state, RED, place("civ_slot_2"))
    assert engine.active_seats(state) == [BLUE]
    state = apply(state, BLUE, place("hunting_grounds", 5))
    state = apply(state, GREEN, place("hut", 2))
    state = apply(state, YELLOW, place("building_stack_3"))
    # Blue has no people left and is skipped from now on; the others go on clockwise.
    assert state["players"][BLUE]["unplaced"] == 0
    state = apply(state, RED, place("forest", 4))
    assert engine.active_seats(state) == [GREEN]
    state = apply(state, GREEN, place("clay_pit", 3))
    assert engine.active_seats(state) == [YELLOW]
    legal = engine.legal_actions(state, YELLOW)
    # The other three card slots and buildings stay open to everybody (Yellow included).
    for slot in ("civ_slot_1", "civ_slot_3", "civ_slot_4"):
        assert place(slot) in legal
    assert place("civ_slot_2") not in legal
    for stack in ("building_stack_1", "building_stack_2", "building_stack_4"):
        assert place(stack) in legal
    assert place("building_stack_3") not in legal
    # The hut is full (2 of Green), the forest holds 4 of Red: 3 spaces left for Yellow.
    assert place("hut", 2) not in legal
    assert place("forest", 3) in legal and place("forest", 4) not in legal


def test_persian_line_78_red_with_four_in_the_forest_cannot_add_more():
    state = fresh(4)
    state = apply(state, RED, place("forest", 4))
    for seat in (BLUE, GREEN, YELLOW):
        state = apply(state, seat, place(("tool_maker", "field", "civ_slot_1")[seat - 1]))
    assert all(a["location"] != "forest" for a in engine.legal_actions(state, RED))
    with pytest.raises(IllegalAction, match="already placed"):
        engine.apply(state, RED, place("forest", 1))


@pytest.mark.parametrize("location", ["tool_maker", "field"])
def test_persian_lines_82_and_98_tool_maker_and_field_hold_one_person(location):
    state = apply(fresh(4), RED, place(location))
    for seat in (BLUE, GREEN, YELLOW):
        assert not [a for a in engine.legal_actions(state, seat) if a["location"] == location]
        state = apply(state, seat, place("hunting_grounds", 1))
    assert place(location, 2) not in engine.legal_actions(fresh(4), RED)


def test_persian_line_92_hut_takes_exactly_two_of_one_player_at_once():
    legal = engine.legal_actions(fresh(4), RED)
    assert place("hut", 2) in legal
    assert place("hut", 1) not in legal and place("hut", 3) not in legal
    state = apply(fresh(4), RED, place("hut", 2))
    assert not [a for a in engine.legal_actions(state, BLUE) if a["location"] == "hut"]


def test_persian_line_209_chinese_hut_green_gains_a_third_figure_back():
    state = action_phase(4, GREEN, {"hut": 2})
    state = apply(state, GREEN, {"type": "resolve", "location": "hut"})
    assert state["players"][GREEN]["people"] == 6


def test_persian_line_507_resource_card_one_gold_and_chinese_food_card_four_food():
    state = action_phase(4, RED, {"civ_slot_1": 1})
    state["display"][0] = "civ_21"  # 1 gold / 1 shaman
    state["players"][RED]["resources"] = resources(wood=1)
    state = apply(state, RED, {"type": "resolve", "location": "civ_slot_1"})
    state = apply(state, RED, {"type": "buy_card", "pay": resources(wood=1)})
    assert state["players"][RED]["resources"] == resources(gold=1)
    state = action_phase(4, RED, {"civ_slot_1": 1})
    state["display"][0] = "civ_15"  # 4 food / 1 hut builder
    state["players"][RED]["resources"] = resources(clay=1)
    food = state["players"][RED]["food"]
    state = apply(state, RED, {"type": "resolve", "location": "civ_slot_1"})
    state = apply(state, RED, {"type": "buy_card", "pay": resources(clay=1)})
    assert state["players"][RED]["food"] == food + 4


def test_log_shows_every_die_of_a_roll_to_everyone():
    state = action_phase(4, BLUE, {"hunting_grounds": 5})
    rig_dice(state, [1, 2, 3, 4, 4])
    state = apply(state, BLUE, {"type": "resolve", "location": "hunting_grounds"})
    for viewer in (None, RED, BLUE):
        log = english_view(engine, state, viewer)["log"]
        assert any("rolls 1, 2, 3, 4, 4 = 14" in line for line in log)
    assert state["players"][BLUE]["food"] == 12 + 7


def test_21_22_display_cannot_be_refilled_so_the_game_ends_after_that_rounds_feeding():
    """Reference 21.22, second case: two empty slots, one card in the deck. The round is played
    to the end, feeding included; then no new round starts."""
    state = action_phase(4, RED, {"hunting_grounds": 1}, keep_busy=False)
    state["display"] = [state["display"][0], None, None, state["display"][3]]
    state["deck"] = state["deck"][:1]
    state["round"] = 11
    food = [p["food"] + p["food_track"] - p["people"] for p in state["players"]]
    rig_dice(state, [1])
    state = apply(state, RED, {"type": "resolve", "location": "hunting_grounds"})
    assert engine.is_over(state) and state["ended_by"] == "cards"
    assert state["round"] == 11 and state["phase"] == "over"
    assert [p["food"] for p in state["players"]] == food  # round 11's feeding happened
    assert len(state["deck"]) == 1  # nothing was dealt
