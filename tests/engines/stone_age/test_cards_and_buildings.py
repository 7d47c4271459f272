"""Every civilization card and every building, bought through the engine; and the data tables
checked against the counts the reference and the seeds give."""

from collections import Counter

import pytest

from games.engines.stone_age import data, rules
from games.engines.stone_age.engine import engine

from .helpers import action_phase, apply, resources, rig_dice, set_tools

# ----- the data ----------------------------------------------------------------------------


def test_thirty_six_cards_with_the_seed_counts_per_top_effect():
    assert len(data.CARDS) == 36 and len(set(data.CARD_IDS)) == 36
    tops = Counter(card["top"]["type"] for card in data.CARDS_LIST)
    # Persian and Chinese seeds: dice 10, food 7, resource 5, dice-resource 3, points 3,
    # tool 1, food track 2, extra card 1, one-use tool 3, two resources 1.
    assert tops == {"dice_for_all": 10, "food": 7, "resource": 5, "resource_by_dice": 3,
                    "points": 3, "tool": 1, "food_track": 2, "extra_card": 1,
                    "one_use_tool": 3, "any_two_resources": 1}


def test_sixteen_green_cards_each_symbol_twice_and_twenty_sand_cards():
    symbols = Counter(c["bottom"]["culture"] for c in data.CARDS_LIST if "culture" in c["bottom"])
    assert symbols == dict.fromkeys(data.CULTURE_SYMBOLS, 2)
    figures = Counter()
    sand = [c for c in data.CARDS_LIST if "multiplier" in c["bottom"]]
    for card in sand:
        figures[card["bottom"]["multiplier"]] += card["bottom"]["count"]
    assert len(sand) == 20
    assert figures == {"farmer": 7, "toolmaker": 8, "hut_builder": 9, "shaman": 7}
    per_kind = Counter(card["bottom"]["multiplier"] for card in sand)
    assert per_kind == dict.fromkeys(data.MULTIPLIER_KINDS, 5)


def test_twenty_eight_buildings_seventeen_fixed_eight_count_kinds_three_open():
    assert len(data.BUILDINGS) == 28
    kinds = Counter(b["cost"]["type"] for b in data.BUILDINGS_LIST)
    assert kinds == {"fixed": 17, "count_kinds": 8, "any": 3}
    fixed_points = [b["points"] for b in data.BUILDINGS_LIST if b["cost"]["type"] == "fixed"]
    assert fixed_points == [10, 11, 11, 12, 13, 13, 14, 14, 16, 12, 12, 13, 13, 14, 14, 15, 15]
    assert all(sum(b["cost"]["resources"].values()) == 3
               for b in data.BUILDINGS_LIST if b["cost"]["type"] == "fixed")
    combos = {(b["cost"]["count"], b["cost"]["kinds"])
              for b in data.BUILDINGS_LIST if b["cost"]["type"] == "count_kinds"}
    assert combos == {(c, k) for c in (4, 5) for k in (1, 2, 3, 4)}


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_setup_four_cards_and_one_stack_of_seven_per_player(num_players):
    state = engine.new_game(num_players, "setup")
    assert len(state["display"]) == 4 and None not in state["display"]
    assert len(state["deck"]) == 32
    assert [len(stack) for stack in state["stacks"]] == [7] * num_players
    for player in state["players"]:
        assert (player["people"], player["food"], player["food_track"], player["score"]) == (
            5, 12, 0, 0)
        assert player["resources"] == resources() and player["tools"] == []
    assert state["first_player"] == 0 and engine.active_seats(state) == [0]


def test_setup_is_a_shuffle_from_the_seed():
    one = engine.new_game(4, "a")
    assert one == engine.new_game(4, "a")
    assert one["deck"] != engine.new_game(4, "b")["deck"]


# ----- every card --------------------------------------------------------------------------


def buy(card_id, num_players=4, have=None):
    state = action_phase(num_players, 0, {"civ_slot_1": 1})
    state["display"][0] = card_id
    state["players"][0]["resources"] = have or resources(clay=1)
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_1"})
    return state


@pytest.mark.parametrize("card_id", data.CARD_IDS)
def test_every_card_is_bought_and_its_top_effect_applies(card_id):
    state = buy(card_id)
    rig_dice(state, [3, 4, 4, 6])  # for dice cards: the first two sum to 7
    deck_before = list(state["deck"])
    before = state["players"][0]
    after_state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    after = after_state["players"][0]
    top = data.CARDS[card_id]["top"]
    kind = top["type"]
    assert card_id in after["cards"] and after_state["display"][0] is None
    assert after["resources"]["clay"] == before["resources"]["clay"] - 1 + (
        top["amount"] if kind == "resource" and top["resource"] == "clay" else 0)
    if kind == "dice_for_all":
        items_before = [sum(p["resources"].values()) + p["tools_gained"] + p["food_track"]
                        for p in state["players"]]
        while after_state["pending"] is not None:
            seat = engine.active_seats(after_state)[0]
            after_state = engine.apply(after_state, seat, engine.timeout_action(after_state, seat))
        items_after = [sum(p["resources"].values()) + p["tools_gained"] + p["food_track"]
                       for p in after_state["players"]]
        assert [a - b for a, b in zip(items_after, items_before, strict=True)] == [0, 1, 1, 1]
        # The buyer's clay paid (-1) and one item (+1).
    elif kind == "food":
        assert after["food"] == before["food"] + top["amount"]
    elif kind == "resource":
        assert after["resources"][top["resource"]] == (
            before["resources"][top["resource"]] + top["amount"] - (
                1 if top["resource"] == "clay" else 0))
    elif kind == "resource_by_dice":
        assert after["resources"][top["resource"]] == 7 // top["divisor"]
    elif kind == "points":
        assert after["score"] == 3 and after["points"]["cards"] == 3
    elif kind == "tool":
        assert after["tools"] == [{"value": 1, "used": False}]
    elif kind == "food_track":
        assert after["food_track"] == 1
    elif kind == "extra_card":
        assert after["cards"] == [card_id, deck_before[0]]
        assert after_state["deck"] == deck_before[1:]
    elif kind == "one_use_tool":
        assert after["one_use"] == [card_id]
    else:
        assert after["two_resources"] == [card_id]
    assert after_state["pending"] is None


def test_dice_for_all_buyer_picks_first_and_tools_never_apply():
    state = buy("civ_05", have=resources(clay=1))
    set_tools(state["players"][0], [1, 1])
    rig_dice(state, [1, 2, 3, 4])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    assert state["pending"]["kind"] == "dice_for_all"
    assert all(a["type"] == "pick_die" for a in engine.legal_actions(state, 0))
    seats = []
    while state["pending"] is not None:
        seat = engine.active_seats(state)[0]
        seats.append(seat)
        state = apply(state, seat, engine.legal_actions(state, seat)[0])
    assert seats == [0, 1, 2]  # seat 3 got the last die without being asked
    assert [p["resources"] for p in state["players"]] == [
        resources(wood=1), resources(clay=1), resources(stone=1), resources(gold=1)]


def test_dice_for_all_choices_say_what_each_die_gives_before_its_face():
    state = buy("civ_05", have=resources(clay=1))
    rig_dice(state, [1, 2, 5, 6])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    described = {action["face"]: engine.describe(state, 0, action)
                 for action in engine.legal_actions(state, 0)}
    # Not "takes the 1: 1 wood": the good first, the die it comes from after it.
    assert described == {1: "Seat 0 takes 1 wood (the die showing 1).",
                         2: "Seat 0 takes 1 clay (the die showing 2).",
                         5: "Seat 0 takes a tool (the die showing 5).",
                         6: "Seat 0 takes +1 food track (the die showing 6)."}


def test_dice_for_all_all_alike_is_handed_out():
    state = buy("civ_03", num_players=3)
    rig_dice(state, [6, 6, 6])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    assert state["pending"] is None
    assert [p["food_track"] for p in state["players"]] == [1, 1, 1]


def test_dice_for_all_beyond_the_caps_gives_nothing():
    state = buy("civ_04", num_players=2)
    state["players"][0]["food_track"] = 10
    set_tools(state["players"][1], [4, 4, 4])
    state["players"][1]["tools_gained"] = 12
    rig_dice(state, [5, 6])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    state = apply(state, 0, {"type": "pick_die", "face": 6})
    assert state["players"][0]["food_track"] == 10
    assert [t["value"] for t in state["players"][1]["tools"]] == [4, 4, 4]


def test_extra_card_with_an_empty_deck_draws_nothing():
    state = buy("civ_32")
    state["deck"] = []
    state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    assert state["players"][0]["cards"] == ["civ_32"]


def test_one_use_tool_on_a_resource_by_dice_card():
    state = buy("civ_25", have=resources(clay=1))
    state["players"][0]["one_use"] = ["civ_35"]
    state["players"][0]["cards"] = ["civ_35"]
    rig_dice(state, [4, 4])  # 8 -> 1 stone; +2 -> 10 -> 2 stone
    state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    assert engine.legal_actions(state, 0) == [
        {"type": "use_tools", "tiles": [], "one_use": []},
        {"type": "use_tools", "tiles": [], "one_use": ["civ_35"]}]
    state = apply(state, 0, {"type": "use_tools", "tiles": [], "one_use": ["civ_35"]})
    assert state["players"][0]["resources"]["stone"] == 2
    assert state["players"][0]["one_use"] == [] and "civ_35" in state["players"][0]["cards"]


def test_one_use_tools_combine_with_each_other_and_tiles():
    state = action_phase(4, 0, {"river": 2})
    player = state["players"][0]
    player["one_use"] = ["civ_33", "civ_34"]
    set_tools(player, [1])
    rig_dice(state, [2, 3])  # 5: +1 -> 1 gold; +4+3 -> 12 -> 2 gold
    state = apply(state, 0, {"type": "resolve", "location": "river"})
    legal = engine.legal_actions(state, 0)
    assert {"type": "use_tools", "tiles": [1], "one_use": []} in legal
    assert {"type": "use_tools", "tiles": [], "one_use": ["civ_33", "civ_34"]} in legal
    # Adding the tile to both cards wastes it: not offered.
    assert {"type": "use_tools", "tiles": [1], "one_use": ["civ_33", "civ_34"]} not in legal
    state = apply(state, 0, {"type": "use_tools", "tiles": [], "one_use": ["civ_33", "civ_34"]})
    assert state["players"][0]["resources"]["gold"] == 2
    assert state["players"][0]["tools"] == [{"value": 1, "used": False}]


def test_two_resources_card_used_before_paying_for_a_card():
    state = action_phase(4, 0, {"civ_slot_2": 1})
    player = state["players"][0]
    player["two_resources"] = ["civ_36"]
    player["cards"] = ["civ_36"]
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_2"})
    assert state["pending"]["kind"] == "buy_card"  # affordable only through the card
    assert [a for a in engine.legal_actions(state, 0) if a["type"] == "buy_card"] == []
    state = apply(state, 0, {"type": "use_two_resources", "take": resources(wood=1, gold=1)})
    assert {"type": "buy_card", "pay": resources(wood=1, gold=1)} in engine.legal_actions(
        state, 0)


def test_two_resources_card_can_be_used_at_the_action_turn_choice():
    state = action_phase(4, 0, {"forest": 1})
    state["players"][0]["two_resources"] = ["civ_36"]
    state["players"][0]["cards"] = ["civ_36"]
    legal = engine.legal_actions(state, 0)
    takes = [a for a in legal if a["type"] == "use_two_resources"]
    assert len(takes) == 10
    state = apply(state, 0, {"type": "use_two_resources", "take": resources(stone=2)})
    assert state["players"][0]["resources"] == resources(stone=2)
    assert not [a for a in engine.legal_actions(state, 0) if a["type"] == "use_two_resources"]


def test_unused_two_resources_card_scores_two_at_the_end():
    state = engine.new_game(2, "end")
    state["players"][0]["two_resources"] = ["civ_36"]
    state["players"][0]["cards"] = ["civ_36"]
    state["phase"] = "over"
    assert engine.result(state)["breakdown"][0]["resources"] == 2


def test_card_price_is_fixed_by_the_slot_for_the_whole_round():
    state = action_phase(4, 0, {"civ_slot_1": 1, "civ_slot_4": 1, "hunting_grounds": 1},
                         keep_busy=False)
    state["players"][0]["resources"] = resources(wood=5)
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_1"})
    state = apply(state, 0, {"type": "buy_card", "pay": resources(wood=1)})
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_4"})
    assert state["display"][0] is None  # no slide during the round
    pays = [a["pay"] for a in engine.legal_actions(state, 0) if a["type"] == "buy_card"]
    assert pays == [resources(wood=4)]


def test_declining_a_card_leaves_it():
    state = buy("civ_11")
    card_before = state["display"][0]
    state = apply(state, 0, {"type": "decline"})
    assert state["display"][0] == card_before == "civ_11"
    assert state["players"][0]["cards"] == [] and state["players"][0]["resources"]["clay"] == 1


# ----- every building ----------------------------------------------------------------------


def pay_steps(state, seat=0):
    """Pays an open building with everything it may (most of each kind, in order)."""
    while state["pending"] is not None and state["pending"]["kind"] == "buy_building":
        pays = [a for a in engine.legal_actions(state, seat) if a["type"] == "pay"]
        state = apply(state, seat, max(pays, key=lambda a: a["amount"]))
    return state


@pytest.mark.parametrize("building_id", data.BUILDING_IDS)
def test_every_building_is_bought_and_scores(building_id):
    state = action_phase(4, 0, {"building_stack_2": 1})
    state["stacks"][1] = [building_id, "bld_01"]
    state["players"][0]["resources"] = resources(5, 5, 5, 5)
    state = apply(state, 0, {"type": "resolve", "location": "building_stack_2"})
    cost = data.BUILDINGS[building_id]["cost"]
    if cost["type"] == "any":
        state = pay_steps(state)
    else:
        buys = [a for a in engine.legal_actions(state, 0) if a["type"] == "buy_building"]
        single = cost["type"] == "fixed" or (cost["count"], cost["kinds"]) == (4, 4)
        assert buys and (len(buys) == 1) == single
        state = apply(state, 0, buys[-1])
    player = state["players"][0]
    paid = {k: 5 - player["resources"][k] for k in data.RESOURCES}
    kinds_paid = sum(1 for k in data.RESOURCES if paid[k])
    if cost["type"] == "fixed":
        assert paid == {k: cost["resources"].get(k, 0) for k in data.RESOURCES}
        points = data.BUILDINGS[building_id]["points"]
    elif cost["type"] == "count_kinds":
        assert sum(paid.values()) == cost["count"] and kinds_paid == cost["kinds"]
        points = sum(data.VALUE[k] * paid[k] for k in data.RESOURCES)
    else:
        assert paid == resources(5, 2, 0, 0)  # steps run wood to gold, most of each
        points = 15 + 8
    assert player["buildings"] == [{"id": building_id, "points": points}]
    assert player["score"] == points == player["points"]["buildings"]
    assert state["stacks"][1] == ["bld_01"]


def test_five_of_one_kind_needs_five_alike():
    state = action_phase(4, 0, {"building_stack_1": 1})
    state["stacks"][0][0] = "bld_22"
    state["players"][0]["resources"] = resources(4, 4, 4, 4)
    state = apply(state, 0, {"type": "resolve", "location": "building_stack_1"})
    assert state["pending"] is None  # four of each is not enough: returned at once
    assert state["stacks"][0][0] == "bld_22"


def test_fixed_building_rejects_substitutes():
    state = action_phase(4, 0, {"building_stack_1": 1})
    state["stacks"][0][0] = "bld_01"  # 2 wood + 1 clay
    state["players"][0]["resources"] = resources(wood=1, clay=1, stone=1, gold=3)
    state = apply(state, 0, {"type": "resolve", "location": "building_stack_1"})
    assert state["pending"] is None and state["players"][0]["buildings"] == []


def test_declining_a_building_leaves_the_tile():
    state = action_phase(4, 0, {"building_stack_1": 1})
    top = state["stacks"][0][0]
    state["players"][0]["resources"] = resources(5, 5, 5, 5)
    state = apply(state, 0, {"type": "resolve", "location": "building_stack_1"})
    state = apply(state, 0, {"type": "decline"})
    assert state["stacks"][0][0] == top and state["players"][0]["resources"] == resources(
        5, 5, 5, 5)


# ----- village and caps --------------------------------------------------------------------


def test_hut_field_and_tool_maker_resolve():
    state = action_phase(4, 0, {"hut": 2, "field": 1, "tool_maker": 1})
    for location in ("hut", "field", "tool_maker"):
        state = apply(state, 0, {"type": "resolve", "location": location})
    player = state["players"][0]
    assert (player["people"], player["food_track"], player["tools_gained"]) == (6, 1, 1)


def test_caps_allow_the_visit_but_gain_nothing():
    state = action_phase(4, 0, {"hut": 2, "field": 1, "tool_maker": 1})
    player = state["players"][0]
    player.update(people=10, food_track=10)
    set_tools(player, [4, 4, 4])
    for location in ("hut", "field", "tool_maker"):
        state = apply(state, 0, {"type": "resolve", "location": location})
    player = state["players"][0]
    assert (player["people"], player["food_track"], rules.tool_total(player)) == (10, 10, 12)


def test_newborn_is_fed_in_the_same_round_and_field_counts_at_once():
    state = action_phase(2, 0, {"hut": 2, "field": 1}, keep_busy=False)
    state["players"][0]["food"] = 0
    state["players"][1]["food"] = 20
    state = apply(state, 0, {"type": "resolve", "location": "hut"})
    # field resolved automatically (last location); feeding: 6 people, income 1, 0 food.
    player = state["players"][0]
    assert player["people"] == 6 and player["food_track"] == 1
    assert player["score"] == -10  # 5 short, no resources


def test_tools_refresh_at_the_new_round():
    state = action_phase(2, 0, {"hunting_grounds": 1}, keep_busy=False)
    set_tools(state["players"][0], [2, 1], [True, True])
    for player in state["players"]:
        player["food"] = 20
    rig_dice(state, [6])
    state = apply(state, 0, {"type": "resolve", "location": "hunting_grounds"})
    assert state["round"] == 2
    assert all(not tile["used"] for tile in state["players"][0]["tools"])
    assert state["first_player"] == 1 and engine.active_seats(state) == [1]
    assert state["players"][0]["unplaced"] == state["players"][0]["people"]
