"""Every worked example of the reference (RULES.md section 21) and of the seeds, played through
the engine's public protocol where the example is about play, through scoring where it is about
points."""

import pytest

from games.engines.base import IllegalAction
from games.engines.stone_age import rules, scoring
from games.engines.stone_age.engine import engine

from .helpers import action_phase, apply, fresh, resources, rig_dice, set_tools, step


def gather(location, people, dice, *, tools=(), used=None, one_use=(), num_players=4):
    """Resolve `location` worked by `people` with the next dice rigged to `dice`."""
    state = action_phase(num_players, 0, {location: people})
    player = state["players"][0]
    set_tools(player, list(tools), used)
    player["one_use"] = list(one_use)
    player["cards"] = list(one_use)
    rig_dice(state, dice)
    return apply(state, 0, {"type": "resolve", "location": location})


# ----- 21.1–21.7 gathering and tools -----------------------------------------------------------


def test_21_1_hunting_without_tools_persian_five_dice():
    state = gather("hunting_grounds", 5, [2, 3, 3, 2, 4])  # 14
    assert state["players"][0]["food"] == 12 + 7
    assert state["pending"] is None


def test_21_1_hunting_chinese_seven_dice_showing_14():
    state = action_phase(4, 0, {"hunting_grounds": 7})
    rig_dice(state, count=7, total=14)
    state = apply(state, 0, {"type": "resolve", "location": "hunting_grounds"})
    assert state["players"][0]["food"] == 12 + 7


def test_21_2_hunting_with_one_tool_tile():
    state = gather("hunting_grounds", 3, [3, 4, 4], tools=[1])  # 11
    assert state["pending"]["kind"] == "tools"
    legal = engine.legal_actions(state, 0)
    assert {"type": "use_tools", "tiles": [1], "one_use": []} in legal
    state = apply(state, 0, {"type": "use_tools", "tiles": [1], "one_use": []})
    assert state["players"][0]["food"] == 12 + 6
    assert state["players"][0]["tools"] == [{"value": 1, "used": True}]


def test_21_2_without_the_tile_gives_five():
    state = gather("hunting_grounds", 3, [3, 4, 4], tools=[1])
    state = apply(state, 0, {"type": "use_tools", "tiles": [], "one_use": []})
    assert state["players"][0]["food"] == 12 + 5
    assert state["players"][0]["tools"] == [{"value": 1, "used": False}]


@pytest.mark.parametrize("tiles", [[1, 1], [2]], ids=["chinese-two-ones", "persian-one-two"])
def test_21_3_hunting_plus_two_from_tools(tiles):
    state = gather("hunting_grounds", 2, [1, 3], tools=tiles)
    state = apply(state, 0, {"type": "use_tools", "tiles": tiles, "one_use": []})
    assert state["players"][0]["food"] == 12 + 3


def test_21_4a_river_with_all_tools_used_gives_nothing_and_asks_nothing():
    state = gather("river", 2, [2, 3], tools=[1], used=[True])
    assert state["pending"] is None
    assert state["players"][0]["resources"]["gold"] == 0


def test_21_4b_river_with_three_value_two_tiles():
    state = gather("river", 3, [1, 2, 4], tools=[2, 2, 2])  # 7
    state = apply(state, 0, {"type": "use_tools", "tiles": [2, 2, 2], "one_use": []})
    assert state["players"][0]["resources"]["gold"] == 2


def test_21_5_reaching_a_threshold():
    state = gather("hunting_grounds", 3, [6, 4, 3], tools=[1, 1])  # 13
    # Only one tile is needed; offering both would waste one.
    legal = engine.legal_actions(state, 0)
    assert {"type": "use_tools", "tiles": [1, 1], "one_use": []} not in legal
    state = apply(state, 0, {"type": "use_tools", "tiles": [1], "one_use": []})
    assert state["players"][0]["food"] == 12 + 7


def test_21_6_clay_pit_from_the_italian_guide():
    state = gather("clay_pit", 3, [5, 4, 4], tools=[2, 1, 1], used=[False, False, True])  # 13
    without = engine.apply(state, 0, {"type": "use_tools", "tiles": [], "one_use": []})
    assert without["players"][0]["resources"]["clay"] == 3
    state = apply(state, 0, {"type": "use_tools", "tiles": [2, 1], "one_use": []})
    assert state["players"][0]["resources"]["clay"] == 4


def test_21_7_choosing_tools_in_the_quarry():
    state = gather("quarry", 3, [4, 4, 4], tools=[2, 1, 1], one_use=["civ_34"])  # 12
    legal = engine.legal_actions(state, 0)
    assert {"type": "use_tools", "tiles": [2, 1], "one_use": []} in legal
    assert {"type": "use_tools", "tiles": [], "one_use": ["civ_34"]} in legal
    assert {"type": "use_tools", "tiles": [2, 1, 1], "one_use": ["civ_34"]} not in legal
    with_card = apply(state, 0, {"type": "use_tools", "tiles": [], "one_use": ["civ_34"]})
    player = with_card["players"][0]
    assert player["resources"]["stone"] == 3
    assert player["one_use"] == [] and "civ_34" in player["cards"]
    assert all(not tile["used"] for tile in player["tools"])
    with_tiles = apply(state, 0, {"type": "use_tools", "tiles": [2, 1], "one_use": []})
    assert with_tiles["players"][0]["resources"]["stone"] == 3
    assert with_tiles["players"][0]["one_use"] == ["civ_34"]


def test_italian_guide_red_rolls_13_at_the_clay_pit_for_3_clay():
    state = gather("clay_pit", 3, [6, 6, 1])
    assert state["players"][0]["resources"]["clay"] == 3


def test_persian_red_needs_14_and_turns_one_tile():
    state = gather("forest", 3, [6, 4, 3], tools=[1])  # 13 -> 4 wood, 14 -> 4 wood: no choice
    assert state["pending"] is None
    state = gather("hunting_grounds", 3, [6, 4, 3], tools=[1])
    state = apply(state, 0, {"type": "use_tools", "tiles": [1], "one_use": []})
    assert state["players"][0]["food"] == 12 + 7


# ----- 21.8 resource-by-dice cards ---------------------------------------------------------


def buy_card_state(card_id, cost_slot="civ_slot_1", have=None):
    state = action_phase(4, 0, {cost_slot: 1})
    state["display"][int(cost_slot[-1]) - 1] = card_id
    state["players"][0]["resources"] = have or resources(wood=4)
    state = apply(state, 0, {"type": "resolve", "location": cost_slot})
    return state


def test_21_8_wood_card_two_dice_total_six():
    state = buy_card_state("civ_24")
    rig_dice(state, [2, 4])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(wood=1)})
    assert state["players"][0]["resources"]["wood"] == 3 - 0 + 2  # 4 - 1 paid + 2 gained


def test_21_8_gold_card_eleven_plus_one_tile():
    state = buy_card_state("civ_23")
    set_tools(state["players"][0], [1])
    rig_dice(state, [5, 6])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(wood=1)})
    assert state["pending"]["kind"] == "tools"
    state = apply(state, 0, {"type": "use_tools", "tiles": [1], "one_use": []})
    assert state["players"][0]["resources"]["gold"] == 2


def test_persian_wood_card_example_six_gives_two_wood():
    state = buy_card_state("civ_24", have=resources(clay=1))
    rig_dice(state, [3, 3])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(clay=1)})
    assert state["players"][0]["resources"] == resources(wood=2)


# ----- 21.9 dice for all -------------------------------------------------------------------


def test_21_9_dice_for_all_four_players_rulebook():
    state = buy_card_state("civ_01")
    rig_dice(state, [5, 6, 2, 2])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(wood=1)})
    assert engine.active_seats(state) == [0]
    assert engine.legal_actions(state, 0) == [
        {"type": "pick_die", "face": 2}, {"type": "pick_die", "face": 5},
        {"type": "pick_die", "face": 6}]
    text = engine.describe(state, 0, {"type": "pick_die", "face": 5})
    assert "5" in text and "tool" in text
    state = apply(state, 0, {"type": "pick_die", "face": 5})
    assert engine.active_seats(state) == [1]
    state = apply(state, 1, {"type": "pick_die", "face": 6})
    # Green and Yellow are left with the 2s: handed out without asking.
    assert state["pending"] is None
    players = state["players"]
    assert players[0]["tools"] == [{"value": 1, "used": False}]
    assert players[1]["food_track"] == 1
    assert players[2]["resources"]["clay"] == 1 and players[3]["resources"]["clay"] == 1
    assert engine.active_seats(state) == [0]


def test_21_9_dice_for_all_three_players():
    state = action_phase(3, 0, {"civ_slot_1": 1})
    state["display"][0] = "civ_09"
    state["players"][0]["resources"] = resources(wood=1)
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_1"})
    rig_dice(state, [1, 5, 6])
    state = apply(state, 0, {"type": "buy_card", "pay": resources(wood=1)})
    state = apply(state, 0, {"type": "pick_die", "face": 6})
    state = apply(state, 1, {"type": "pick_die", "face": 5})
    assert state["pending"] is None
    assert state["players"][0]["food_track"] == 1
    assert state["players"][1]["tools_gained"] == 1
    assert state["players"][2]["resources"]["wood"] == 1


def test_dice_for_all_roll_is_public_in_the_log():
    state = buy_card_state("civ_02")
    rig_dice(state, [3, 3, 4, 1])
    action = {"type": "buy_card", "pay": resources(wood=1)}
    assert "1, 3, 3, 4" not in engine.describe(state, 0, action, viewer=0)
    bought = engine.apply(state, 0, action)
    assert "1, 3, 3, 4" in engine.describe_resolution(bought, viewer=2)


# ----- 21.10 tool progression --------------------------------------------------------------


def test_21_10_tool_progression_table():
    expected = [[1], [1, 1], [1, 1, 1], [2, 1, 1], [2, 2, 1], [2, 2, 2], [3, 2, 2], [3, 3, 2],
                [3, 3, 3], [4, 3, 3], [4, 4, 3], [4, 4, 4], [4, 4, 4]]
    player = fresh()["players"][0]
    for n, tiles in enumerate(expected, start=1):
        gained = rules.gain_tool(player)
        assert gained == (n <= 12)
        assert [tile["value"] for tile in player["tools"]] == tiles
        assert scoring.tool_value(player) == min(n, 12)


def test_21_10_mid_round_upgrade_goes_to_the_unused_tile():
    player = fresh()["players"][0]
    set_tools(player, [1, 1, 1], [True, True, False])
    rules.gain_tool(player)
    assert player["tools"] == [{"value": 2, "used": False}, {"value": 1, "used": True},
                               {"value": 1, "used": True}]


def test_upgrade_of_a_used_tile_stays_used():
    player = fresh()["players"][0]
    set_tools(player, [2, 1, 1], [False, True, True])
    rules.gain_tool(player)
    assert sorted((t["value"], t["used"]) for t in player["tools"]) == [
        (1, True), (2, False), (2, True)]


# ----- 21.11 buying a card -----------------------------------------------------------------


def test_21_11_any_mix_pays_for_a_card_food_never():
    state = action_phase(4, 0, {"civ_slot_3": 1})
    state["players"][0]["resources"] = resources(wood=2, clay=1, stone=2, gold=1)
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_3"})
    legal = engine.legal_actions(state, 0)
    assert {"type": "buy_card", "pay": resources(wood=2, clay=1)} in legal
    assert {"type": "buy_card", "pay": resources(stone=2, gold=1)} in legal
    assert all(sum(a["pay"].values()) == 3 for a in legal if a["type"] == "buy_card")
    with pytest.raises(IllegalAction, match="food"):
        engine.apply(state, 0, {"type": "buy_card", "pay": {"food": 3}})


def test_21_11_cannot_buy_with_too_few_resources_card_stays():
    state = action_phase(4, 0, {"civ_slot_3": 1, "civ_slot_1": 1, "civ_slot_2": 1})
    card = state["display"][2]
    state["players"][0]["resources"] = resources(wood=1, gold=1)
    state = apply(state, 0, {"type": "resolve", "location": "civ_slot_3"})
    assert state["pending"] is None
    assert state["display"][2] == card
    assert "civ_slot_3" not in state["players"][0]["placed"]
    assert state["players"][0]["resources"] == resources(wood=1, gold=1)


# ----- 21.12–21.13 buildings ---------------------------------------------------------------


def building_state(building_id, have):
    state = action_phase(4, 0, {"building_stack_1": 1})
    state["stacks"][0][0] = building_id
    state["players"][0]["resources"] = have
    return apply(state, 0, {"type": "resolve", "location": "building_stack_1"})


def test_21_12_fixed_building_rulebook_yellow():
    state = building_state("bld_01", resources(wood=2, clay=1))
    state = apply(state, 0, {"type": "buy_building", "pay": resources(wood=2, clay=1)})
    player = state["players"][0]
    assert player["score"] == 10 and player["resources"] == resources()
    assert player["buildings"] == [{"id": "bld_01", "points": 10}]


def test_21_13_four_of_two_kinds():
    state = building_state("bld_19", resources(wood=2, clay=1, stone=4))
    legal = engine.legal_actions(state, 0)
    assert {"type": "buy_building", "pay": resources(stone=4)} not in legal
    assert {"type": "buy_building", "pay": resources(wood=1, clay=1, stone=2)} not in legal
    state = apply(state, 0, {"type": "buy_building", "pay": resources(wood=1, stone=3)})
    assert state["players"][0]["score"] == 18


def test_21_13_five_of_three_kinds():
    state = building_state("bld_24", resources(wood=2, clay=2, gold=1))
    state = apply(state, 0, {"type": "buy_building", "pay": resources(wood=2, clay=2, gold=1)})
    assert state["players"][0]["score"] == 20


def test_21_13_four_of_four_kinds():
    state = building_state("bld_21", resources(wood=3, clay=3, stone=3, gold=3))
    legal = [a for a in engine.legal_actions(state, 0) if a["type"] == "buy_building"]
    assert legal == [{"type": "buy_building", "pay": resources(1, 1, 1, 1)}]
    state = apply(state, 0, legal[0])
    assert state["players"][0]["score"] == 18


def pay_open(state, pay):
    for kind in ("wood", "clay", "stone", "gold"):
        if state["pending"] is None or state["pending"]["kind"] != "buy_building":
            break
        if kind != rules.RESOURCES[state["pending"]["step"]]:
            assert state["pending"]["chosen"][kind] == pay[kind]  # a forced step was skipped
            continue
        state = apply(state, 0, {"type": "pay", "resource": kind, "amount": pay[kind]})
    return state


@pytest.mark.parametrize("have,pay,points", [
    (resources(wood=1, stone=1, gold=2), resources(wood=1, stone=1, gold=2), 20),
    (resources(gold=9), resources(gold=7), 42),
    (resources(wood=1), resources(wood=1), 3),
    (resources(wood=3, clay=3, stone=3, gold=3), resources(wood=1, stone=1, gold=2), 20),
])
def test_21_13_open_buildings(have, pay, points):
    state = building_state("bld_26", have)
    state = pay_open(state, pay)
    assert state["pending"] is None
    assert state["players"][0]["score"] == points
    assert state["players"][0]["buildings"][0]["points"] == points


def test_open_building_never_takes_more_than_seven():
    state = building_state("bld_27", resources(gold=9))
    assert engine.legal_actions(state, 0)[:-1] == [
        {"type": "pay", "resource": "gold", "amount": a} for a in range(1, 8)]


# ----- 21.14 feeding -----------------------------------------------------------------------


def feeding_state(people, food_track, food, score=0, have=None, two=False):
    state = action_phase(4, 0, {"hunting_grounds": 1}, keep_busy=False)
    for player in state["players"]:
        player["food"] = 20
    player = state["players"][0]
    player.update(people=people, food_track=food_track, food=food, score=score)
    player["resources"] = have or resources()
    if two:
        player["two_resources"] = ["civ_36"]
        player["cards"] = ["civ_36"]
    rig_dice(state, [1])  # the last hunt yields nothing
    return apply(state, 0, {"type": "resolve", "location": "hunting_grounds"})


def test_21_14a_feeding_with_enough_food():
    state = feeding_state(6, 4, 3)
    assert state["players"][0]["food"] == 1
    assert state["round"] == 2


def test_21_14b_short_pays_with_resources():
    state = feeding_state(7, 3, 2, score=4, have=resources(wood=1, clay=1, gold=1))
    assert state["pending"] == {"kind": "feeding", "seat": 0, "shortfall": 2, "step": 0,
                                "chosen": resources()}
    assert state["players"][0]["food"] == 0
    state = apply(state, 0, {"type": "pay", "resource": "wood", "amount": 1})
    state = apply(state, 0, {"type": "pay", "resource": "clay", "amount": 1})
    player = state["players"][0]
    assert player["score"] == 4 and player["resources"] == resources(gold=1)
    assert player["food"] == 0


def test_21_14b_short_takes_the_penalty_and_keeps_resources():
    state = feeding_state(7, 3, 2, score=4, have=resources(wood=1, clay=1, gold=1))
    state = apply(state, 0, {"type": "accept_penalty"})
    player = state["players"][0]
    assert player["score"] == -6 and player["resources"] == resources(wood=1, clay=1, gold=1)
    assert player["food"] == 0


def test_short_without_resources_loses_ten_automatically():
    state = feeding_state(7, 0, 2, score=0)
    assert state["pending"] is None
    assert state["players"][0]["score"] == -10
    assert state["players"][0]["points"]["penalties"] == 1


def test_two_resources_card_can_cover_a_shortfall():
    state = feeding_state(5, 0, 3, have=resources(), two=True)
    legal = engine.legal_actions(state, 0)
    assert {"type": "accept_penalty"} in legal
    assert not [a for a in legal if a["type"] == "pay"]
    state = apply(state, 0, {"type": "use_two_resources", "take": resources(wood=2)})
    # Every amount is now forced (2 wood): one confirming step, or still the penalty.
    pays = [a for a in engine.legal_actions(state, 0) if a["type"] == "pay"]
    assert len(pays) == 1 and {"type": "accept_penalty"} in engine.legal_actions(state, 0)
    assert "2 wood" in engine.describe(state, 0, pays[0])
    state = apply(state, 0, pays[0])
    assert state["players"][0]["resources"] == resources()
    assert state["players"][0]["score"] == 0
    assert state["players"][0]["two_resources"] == []


# ----- 21.15 refilling the display ----------------------------------------------------------


def test_21_15_display_slides_right_and_refills():
    state = feeding_state(5, 0, 10)  # runs a whole round end
    assert state["round"] == 2
    before = fresh()
    a, b, c, d = before["display"]
    # Now the same with B and C bought.
    state = action_phase(4, 0, {"hunting_grounds": 1}, keep_busy=False)
    state["display"] = [a, None, None, d]
    deck_top = state["deck"][:2]
    rig_dice(state, [1])
    state = apply(state, 0, {"type": "resolve", "location": "hunting_grounds"})
    assert state["display"] == [a, d, *deck_top]


def test_21_15_deck_too_small_ends_the_game():
    state = action_phase(4, 0, {"hunting_grounds": 1}, keep_busy=False)
    state["display"] = [state["display"][0], None, None, state["display"][3]]
    state["deck"] = state["deck"][:1]
    rig_dice(state, [1])
    state = apply(state, 0, {"type": "resolve", "location": "hunting_grounds"})
    assert engine.is_over(state) and state["ended_by"] == "cards"


# ----- 21.16–21.20 scoring -----------------------------------------------------------------


def scored_player(**fields):
    player = fresh()["players"][0]
    player.update(fields)
    return player


def test_21_16_tie_break_by_sum():
    state = fresh(2)
    a, b = state["players"]
    a.update(food_track=5, people=8)
    set_tools(a, [2, 2, 2])
    b.update(food_track=7, people=7)
    set_tools(b, [2, 1, 1])
    # Give both 87 points on the track; no cards, no resources.
    a["points"]["buildings"] = 87
    b["points"]["buildings"] = 87
    state["phase"] = "over"
    result = engine.result(state)
    assert result["scores"] == [87, 87]
    assert result["tie_break"] == [19, 18]
    assert result["winners"] == [0]


def test_equal_tie_break_sum_shares_the_win():
    state = fresh(3)
    for player in state["players"]:
        player["points"]["buildings"] = 50
    state["phase"] = "over"
    assert engine.result(state)["winners"] == [0, 1, 2]


GREEN = {"pottery": ["civ_01", "civ_11"], "writing": ["civ_02", "civ_32"],
         "time": ["civ_03", "civ_30"], "transport": ["civ_04", "civ_18"],
         "medicine": ["civ_12", "civ_36"], "weaving": ["civ_13", "civ_14"],
         "art": ["civ_23", "civ_29"], "music": ["civ_26", "civ_27"]}


def green(*symbols):
    cards, seen = [], {}
    for symbol in symbols:
        cards.append(GREEN[symbol][seen.get(symbol, 0)])
        seen[symbol] = seen.get(symbol, 0) + 1
    return cards


@pytest.mark.parametrize("symbols,points", [
    (("pottery", "writing", "art"), 9),
    (("pottery", "writing", "art", "time", "music"), 25),
    (("pottery", "writing", "art", "time", "music", "pottery"), 26),  # rulebook, Persian, Chinese
    (("pottery", "writing", "art", "time", "music", "pottery", "music"), 29),  # Yucata
    (("time", "pottery", "transport", "medicine", "music", "weaving", "pottery", "weaving"),
     40),  # Italian guide
    (tuple(GREEN) * 2, 128),
])
def test_21_17_green_sets(symbols, points):
    assert scoring.green_points(green(*symbols)) == points


def test_21_18_sand_multipliers_rulebook_examples():
    farmers = ["civ_10", "civ_17", "civ_09"]  # 2 + 2 + 1 = 5 farmers
    player = scored_player(food_track=7, cards=farmers)
    assert scoring.breakdown(player)["farmers"] == 35
    toolmakers = ["civ_07", "civ_33"]  # 3 toolmakers
    player = scored_player(cards=toolmakers)
    set_tools(player, [3, 2, 2])
    assert scoring.breakdown(player)["toolmakers"] == 21
    huts = ["civ_28", "civ_06", "civ_16"]  # 3 + 2 + 2 = 7 hut builders
    player = scored_player(cards=huts, buildings=[{"id": "bld_01", "points": 10}] * 6)
    assert scoring.breakdown(player)["hut_builders"] == 42
    shamans = ["civ_22", "civ_20"]  # 3 shamans
    player = scored_player(cards=shamans, people=8)
    assert scoring.breakdown(player)["shamans"] == 24


def test_21_19_italian_end_of_game_card_points():
    cards = green("time", "pottery", "transport", "medicine", "music", "weaving", "pottery",
                  "weaving")
    cards += ["civ_09"]  # 1 farmer
    cards += ["civ_22", "civ_24", "civ_21"]  # 2 + 2 + 1 = 5 shamans
    cards += ["civ_28", "civ_06"]  # 3 + 2 = 5 hut builders
    cards += ["civ_07"]  # 2 toolmakers
    player = scored_player(cards=cards, food_track=6, people=7,
                           buildings=[{"id": "bld_02", "points": 11}] * 5)
    set_tools(player, [2, 1, 1])
    row = scoring.breakdown(player)
    assert row["green_sets"] == 40
    assert (row["farmers"], row["shamans"], row["hut_builders"], row["toolmakers"]) == (
        6, 35, 25, 8)
    card_points = sum(row[k] for k in ("green_sets", "farmers", "shamans", "hut_builders",
                                       "toolmakers"))
    assert card_points == 114


def test_21_20_a_complete_final_score():
    cards = ["civ_28", "civ_17", "civ_31", "civ_35", "civ_20"]
    cards += green("pottery", "pottery", "writing", "time", "transport")
    player = scored_player(
        cards=cards, food_track=6, people=7, food=3,
        resources=resources(wood=2, clay=1, gold=1),
        buildings=[{"id": "bld_01", "points": 10}, {"id": "bld_19", "points": 18},
                   {"id": "bld_12", "points": 13}],
        points={"buildings": 41, "cards": 3, "penalties": 1},
    )
    set_tools(player, [2, 2, 1])
    row = scoring.breakdown(player)
    assert row["buildings"] + row["card_points"] + row["feeding_penalties"] == 34
    assert row["green_sets"] == 17
    assert (row["farmers"], row["toolmakers"], row["hut_builders"], row["shamans"]) == (
        18, 10, 9, 7)
    assert row["resources"] == 4
    assert sum(row.values()) == 99
    assert list(row) == list(scoring.CATEGORIES)


# ----- 21.21 placement legality -------------------------------------------------------------


def placement(num_players, seat=0):
    state = fresh(num_players)
    state["turn"] = seat
    return state


def legal_places(state, seat, location):
    return [a["count"] for a in engine.legal_actions(state, seat)
            if a["type"] == "place" and a["location"] == location]


def test_21_21_three_players_two_colours_close_the_forest():
    state = placement(3, 2)
    state["players"][0]["placed"] = {"forest": 2}
    state["players"][1]["placed"] = {"forest": 3}
    assert legal_places(state, 2, "forest") == []
    for seat in (0, 1):
        state["turn"] = seat
        assert legal_places(state, seat, "forest") == []
    state["turn"] = 2
    with pytest.raises(IllegalAction, match="closed"):
        engine.apply(state, 2, {"type": "place", "location": "forest", "count": 1})


def test_21_21_two_players_first_colour_closes_the_quarry():
    state = placement(2)
    state = apply(state, 0, {"type": "place", "location": "quarry", "count": 1})
    assert engine.active_seats(state) == [1]
    assert legal_places(state, 1, "quarry") == []


@pytest.mark.parametrize("num_players", [2, 3])
def test_21_21_field_and_hut_taken_close_the_tool_maker(num_players):
    state = placement(num_players)
    state = apply(state, 0, {"type": "place", "location": "field", "count": 1})
    state = apply(state, 1, {"type": "place", "location": "hut", "count": 2})
    assert legal_places(state, engine.active_seats(state)[0], "tool_maker") == []


def test_four_players_use_all_three_village_locations():
    state = placement(4)
    state = apply(state, 0, {"type": "place", "location": "field", "count": 1})
    state = apply(state, 1, {"type": "place", "location": "hut", "count": 2})
    assert legal_places(state, 2, "tool_maker") == [1]


def test_21_21_four_players_fill_the_forest():
    state = placement(4)
    state = apply(state, 0, {"type": "place", "location": "forest", "count": 4})
    assert legal_places(state, 1, "forest") == [1, 2, 3]
    state = apply(state, 1, {"type": "place", "location": "forest", "count": 2})
    state = apply(state, 2, {"type": "place", "location": "forest", "count": 1})
    assert legal_places(state, 3, "forest") == []
    assert legal_places(state, 3, "hunting_grounds") == [1, 2, 3, 4, 5]


def test_21_21_one_figure_cannot_take_the_hut_and_may_sit_out():
    state = placement(2)
    state["players"][0]["unplaced"] = 1
    assert legal_places(state, 0, "hut") == []
    # Nothing left for seat 0: hunting used, every other location gone.
    player = state["players"][0]
    player["placed"] = {"hunting_grounds": 4}
    other = state["players"][1]
    other["placed"] = {loc: 1 for loc in ("forest", "clay_pit", "quarry", "river", "tool_maker",
                                          "field", "civ_slot_1", "civ_slot_2", "civ_slot_3",
                                          "civ_slot_4", "building_stack_1", "building_stack_2")}
    assert engine.legal_actions(state, 0) == []
    assert not rules.can_place(state, 0)


# ----- 21.22 end-of-game timing ------------------------------------------------------------


def test_21_22_last_tile_of_a_stack_finishes_the_round_with_feeding():
    state = action_phase(2, 0, {"building_stack_1": 1, "hunting_grounds": 2, "forest": 1},
                         keep_busy=False)
    state["players"][1]["placed"] = {"building_stack_2": 1, "clay_pit": 2}
    state["stacks"][0] = ["bld_01"]
    state["players"][0]["resources"] = resources(wood=2, clay=1)
    state = apply(state, 0, {"type": "resolve", "location": "building_stack_1"})
    state = apply(state, 0, {"type": "buy_building", "pay": resources(wood=2, clay=1)})
    assert state["last_stack_emptied"] and not engine.is_over(state)
    food_before = [p["food"] for p in state["players"]]
    while not engine.is_over(state):
        state = step(state, engine.timeout_action)
    assert state["ended_by"] == "buildings" and state["round"] == 1
    # Everyone was fed in that last round.
    assert [p["food"] for p in state["players"]] != food_before
    assert all(not p["placed"] for p in state["players"])


def test_21_22_other_stacks_may_still_be_bought_in_the_last_round():
    state = action_phase(2, 0, {"building_stack_1": 1, "hunting_grounds": 2}, keep_busy=False)
    state["players"][1]["placed"] = {"building_stack_2": 1, "clay_pit": 2}
    state["stacks"][0] = ["bld_01"]
    state["stacks"][1][0] = "bld_02"
    state["players"][0]["resources"] = resources(wood=2, clay=1)
    state["players"][1]["resources"] = resources(wood=2, stone=1)
    state = apply(state, 0, {"type": "resolve", "location": "building_stack_1"})
    state = apply(state, 0, {"type": "buy_building", "pay": resources(wood=2, clay=1)})
    while engine.active_seats(state) == [0]:
        state = apply(state, 0, engine.timeout_action(state, 0))
    state = apply(state, 1, {"type": "resolve", "location": "building_stack_2"})
    state = apply(state, 1, {"type": "buy_building", "pay": resources(wood=2, stone=1)})
    assert state["players"][1]["score"] == 11
