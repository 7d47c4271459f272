"""One or more tests per action space, with the reference's worked examples WE13, WE18, WE19."""

import pytest

from games.engines.base import IllegalAction
from games.engines.caverna import rules as R
from games.engines.caverna.board import idx
from games.engines.caverna.engine import engine

from .helpers import (
    act,
    actor,
    add_space,
    legal,
    parts,
    place,
    player,
    set_cell,
    supply,
    top,
    turn_state,
)


def finished(state, seat):
    """The space's actions are over once someone else (or a harvest step) is deciding."""
    return top(state).get("seat") != seat or top(state)["t"] == "turn"


# ----- accumulation (WE13) ----------------------------------------------------------------------


def goods(state, sid):
    # Read anew after each step: a space is replaced, never changed in place (rules.set_space).
    return state["spaces"][sid]["goods"]


def test_we13_excavation_4_7_two_then_one():
    state, _ = turn_state(4)
    assert goods(state, "excavation_4_7") == {"stone": 2}
    R.replenish(state, {})
    assert goods(state, "excavation_4_7") == {"stone": 3}
    state["spaces"]["excavation_4_7"]["goods"] = {}
    R.replenish(state, {})
    assert goods(state, "excavation_4_7") == {"stone": 2}


def test_we13_sustenance_4_7_grain_then_vegetables():
    state, _ = turn_state(4)
    assert goods(state, "sustenance_4_7") == {"grain": 1}
    R.replenish(state, {})
    assert goods(state, "sustenance_4_7") == {"grain": 1, "vegetable": 1}
    R.replenish(state, {})
    assert goods(state, "sustenance_4_7") == {"grain": 1, "vegetable": 2}


def test_we13_logging_1_3_three_then_one():
    state, _ = turn_state(3)
    assert goods(state, "logging_1_3") == {"wood": 3}
    R.replenish(state, {})
    R.replenish(state, {})
    assert goods(state, "logging_1_3") == {"wood": 5}


def test_strip_mining_ore_when_empty_else_stone():
    state, _ = turn_state(3)
    assert goods(state, "strip_mining") == {"ore": 1}
    R.replenish(state, {})
    assert goods(state, "strip_mining") == {"ore": 1, "stone": 1}


def test_large_depot_accumulates_wood_ore_stone():
    state, _ = turn_state(7)
    assert goods(state, "large_depot") == {"wood": 2, "ore": 1, "stone": 1}
    R.replenish(state, {})
    assert goods(state, "large_depot") == {"wood": 3, "ore": 2, "stone": 2}


def test_ruby_mining_two_players_empty_in_first_two_stages_under_version_3():
    # Versions up to 3 read the seed literally: "in a 2-player game no rubies are placed here in
    # the first two stages" (version 4 follows the card: from round 3).
    state, _ = turn_state(2, version=3)
    assert state["spaces"]["ruby_mining"]["goods"] == {}
    state["round"] = 6
    R.replenish(state, {})
    assert state["spaces"]["ruby_mining"]["goods"] == {}
    state["round"] = 7
    R.replenish(state, {})
    assert state["spaces"]["ruby_mining"]["goods"] == {"ruby": 1}


@pytest.mark.parametrize("n", [1, 3, 7])
def test_ruby_mining_accumulates_from_round_1_otherwise(n):
    state, _ = turn_state(n)
    assert state["spaces"]["ruby_mining"]["goods"] == {"ruby": 1}


# ----- taking goods -----------------------------------------------------------------------------


def test_wood_gathering_takes_the_pile():
    state, seat = turn_state(3)
    before = player(state)["supply"]["wood"]
    state = place(state, "wood_gathering")
    assert state["players"][seat]["supply"]["wood"] == before + 1
    assert state["spaces"]["wood_gathering"]["goods"] == {}
    assert state["spaces"]["wood_gathering"]["occ"] == seat


def test_ore_mining_adds_two_per_ore_mine():
    state, seat = turn_state(3)
    set_cell(state, seat, 4, 2, "ore_mine")
    set_cell(state, seat, 4, 1, "ore_mine")
    state = place(state, "ore_mining_1_3")
    assert state["players"][seat]["supply"]["ore"] == 2 + 4


def test_ruby_mining_bonus_needs_a_ruby_mine():
    state, seat = turn_state(3)
    set_cell(state, seat, 4, 2, "ruby_mine")
    state = place(state, "ruby_mining")
    assert state["players"][seat]["supply"]["ruby"] == 2


def test_ruby_delivery_bonus_needs_two_ruby_mines():
    state, seat = turn_state(3)
    add_space(state, "ruby_delivery", {"ruby": 2})
    set_cell(state, seat, 4, 2, "ruby_mine")
    state2 = place(state, "ruby_delivery")
    assert state2["players"][seat]["supply"]["ruby"] == 2
    set_cell(state, seat, 4, 1, "ruby_mine")
    state3 = place(state, "ruby_delivery")
    assert state3["players"][seat]["supply"]["ruby"] == 3


def test_ore_delivery_takes_stone_ore_and_mine_bonus():
    state, seat = turn_state(3)
    add_space(state, "ore_delivery", {"stone": 1, "ore": 1})
    set_cell(state, seat, 4, 2, "ore_mine")
    state = place(state, "ore_delivery")
    p = state["players"][seat]
    assert (p["supply"]["stone"], p["supply"]["ore"]) == (1, 3)


def test_supplies_gives_the_printed_goods():
    state, seat = turn_state(3)
    before = dict(player(state)["supply"])
    state = place(state, "supplies")
    after = state["players"][seat]["supply"]
    diff = {g: after[g] - before[g] for g in after if after[g] != before[g]}
    assert diff == {"wood": 1, "stone": 1, "ore": 1, "food": 1, "gold": 2}


def test_forest_exploration_4_7_wood_and_two_food():
    state, seat = turn_state(4)
    food = player(state)["supply"]["food"]
    state = place(state, "forest_exploration_4_7")
    p = state["players"][seat]
    assert (p["supply"]["wood"], p["supply"]["food"]) == (2, food + 2)


def test_forest_exploration_3_wood_and_a_vegetable():
    state, seat = turn_state(3)
    state = place(state, "forest_exploration_3")
    assert state["players"][seat]["supply"]["vegetable"] == 1


def test_strip_mining_takes_goods_and_two_wood():
    state, seat = turn_state(3)
    state = place(state, "strip_mining")
    p = state["players"][seat]
    assert (p["supply"]["ore"], p["supply"]["wood"]) == (1, 2)


def test_depots():
    state, seat = turn_state(5)
    state = place(state, "depot_5")
    p = state["players"][seat]
    assert (p["supply"]["wood"], p["supply"]["ore"]) == (1, 1)


# ----- starting player --------------------------------------------------------------------------


def test_starting_player_1_3_token_food_and_two_ore():
    state, seat = turn_state(3)
    state["start"] = (seat + 1) % 3
    food = player(state)["supply"]["food"]
    state = place(state, "starting_player_1_3")
    p = state["players"][seat]
    assert state["start"] == seat
    assert (p["supply"]["food"], p["supply"]["ore"]) == (food + 1, 2)


def test_starting_player_4_7_gives_a_ruby():
    state, seat = turn_state(4)
    state = place(state, "starting_player_4_7")
    assert state["players"][seat]["supply"]["ruby"] == 1


def test_the_new_starting_player_begins_the_next_round():
    state, seat = turn_state(3)
    other = (seat + 2) % 3
    state = place(state, "wood_gathering")
    state = act(state, {"type": "place", "space": "logging_1_3"})
    assert actor(state) == other
    state = place(state, "starting_player_1_3")
    assert state["start"] == other
    while state["round"] == 1:
        s = actor(state)
        state = engine.apply(state, s, engine.timeout_action(state, s))
    assert actor(state) == other


# ----- tiles ------------------------------------------------------------------------------------


def test_drift_mining_offers_only_the_cavern_tunnel_twin():
    state, seat = turn_state(3)
    state = place(state, "drift_mining_1_3")
    assert parts(state) == [0, 1]
    state = act(state, {"type": "part", "index": 1})
    tiles = {a["tile"] for a in legal(state)}
    assert tiles == {"cavern_tunnel_twin"}
    state = act(state, {"type": "tile", "tile": "cavern_tunnel_twin", "at": [[4, 3], [5, 3]]})
    p = state["players"][seat]
    assert p["cells"][idx(4, 3)]["k"] == "cavern" and p["cells"][idx(5, 3)]["k"] == "tunnel"
    assert p["supply"]["food"] >= 1  # the water source at (4,3)
    state = act(state, {"type": "part", "index": 0})
    assert state["players"][seat]["supply"]["stone"] == 1
    assert finished(state, seat)


def test_excavation_offers_both_mountain_twins():
    state, seat = turn_state(3)
    state = place(state, "excavation_1_3")
    state = act(state, {"type": "part", "index": 1})
    assert {a["tile"] for a in legal(state)} == {"cavern_tunnel_twin", "cavern_cavern_twin"}
    state = act(state, {"type": "tile", "tile": "cavern_cavern_twin", "at": [[4, 2], [4, 3]]})
    assert player(state, seat)["cells"][idx(4, 2)]["k"] == "cavern"


def test_clearing_wood_and_meadow_field_twin():
    state, seat = turn_state(3)
    state = place(state, "clearing_1_3")
    state = act(state, {"type": "part", "index": 1})
    spots = [a["at"] for a in legal(state)]
    assert all([2, 3] in at for at in spots)
    state = act(state, {"type": "tile", "tile": "meadow_field_twin", "at": [[1, 3], [2, 3]]})
    p = state["players"][seat]
    assert p["cells"][idx(1, 3)]["k"] == "meadow" and p["cells"][idx(2, 3)]["k"] == "field"
    state = act(state, {"type": "part", "index": 0})
    assert state["players"][seat]["supply"]["wood"] == 1


def test_sustenance_1_3_food_and_grain_and_or_twin():
    state, seat = turn_state(3)
    food = player(state)["supply"]["food"]
    state = place(state, "sustenance_1_3")
    state = act(state, {"type": "part", "index": 0})
    p = state["players"][seat]
    assert (p["supply"]["food"], p["supply"]["grain"]) == (food + 1, 1)
    assert {"type": "done"} in legal(state)


def test_slash_and_burn_twin_and_then_sow():
    state, seat = turn_state(3)
    supply(state, seat, grain=1, vegetable=1)
    state = place(state, "slash_and_burn")
    assert top(state)["t"] == "tile"  # no field yet: placing the twin is the only choice
    state = act(state, {"type": "tile", "tile": "meadow_field_twin", "at": [[2, 2], [2, 3]]})
    assert parts(state) == [1]
    state = act(state, {"type": "part", "index": 1})
    sows = [a for a in legal(state) if a["type"] == "sow"]
    assert {a["crop"] for a in sows} == {"grain", "vegetable"}
    state = act(state, {"type": "sow", "crop": "vegetable", "at": [2, 3]})
    cell = state["players"][seat]["cells"][idx(2, 3)]
    assert (cell["crop"], cell["n"]) == ("vegetable", 2)
    assert finished(state, seat)  # no more empty fields: the sow step ends by itself


def test_sow_grain_puts_three_on_the_field():
    state, seat = turn_state(3)
    supply(state, seat, grain=2)
    set_cell(state, seat, 2, 3, "field", n=0, crop=None)
    set_cell(state, seat, 2, 2, "field", n=0, crop=None)
    add_space(state, "family_life")
    state = place(state, "family_life")  # no room for a dwarf: sowing is forced
    state = act(state, {"type": "sow", "crop": "grain", "at": [2, 3]})
    state = act(state, {"type": "sow", "crop": "grain", "at": [2, 2]})
    p = state["players"][seat]
    assert p["supply"]["grain"] == 0
    assert [p["cells"][idx(2, y)]["n"] for y in (2, 3)] == [3, 3]


def test_housework_dog_and_or_furnish():
    state, seat = turn_state(3)
    supply(state, seat, wood=4, stone=3)
    state = place(state, "housework")
    state = act(state, {"type": "part", "index": 1})
    tiles = {a["tile"] for a in legal(state)}
    assert "dwelling" in tiles and "couple_dwelling" not in tiles
    state = act(state, {"type": "furnish", "tile": "dwelling"})  # one cavern: placed at once
    p = state["players"][seat]
    assert p["cells"][idx(3, 2)] == {"k": "room", "st": False, "tile": "dwelling"}
    assert (p["supply"]["wood"], p["supply"]["stone"]) == (0, 0)
    state = act(state, {"type": "part", "index": 0})
    assert state["players"][seat]["animals"]["dog"] == 1


def test_unique_tiles_are_built_once():
    state, seat = turn_state(3)
    supply(state, seat, wood=1)
    state["built"].append("cuddle_room")
    state = place(state, "housework")
    state = act(state, {"type": "part", "index": 1})
    assert {"type": "furnish", "tile": "cuddle_room"} not in legal(state)


def test_furnish_needs_an_empty_cavern():
    state, seat = turn_state(3)
    supply(state, seat, wood=9, stone=9)
    set_cell(state, seat, 3, 2, "room", tile="dwelling")
    state = place(state, "housework")
    assert state["players"][seat]["animals"]["dog"] == 1  # only the dog was possible
    assert finished(state, seat)


# ----- fences and stables -----------------------------------------------------------------------


def test_sheep_farming_fences_stable_then_sheep():
    state, seat = turn_state(3)
    add_space(state, "sheep_farming", {"sheep": 3})
    supply(state, seat, wood=6, stone=1)
    for y in (0, 1, 2):
        set_cell(state, seat, 2, y, "meadow")
    set_cell(state, seat, 2, 3, "field", n=0, crop=None)
    state = place(state, "sheep_farming")
    state = act(state, {"type": "part", "index": 0})
    assert parts(state) == [0, 1, 2]
    state = act(state, {"type": "part", "index": 1})
    state = act(state, {"type": "build", "at": [[2, 0], [2, 1]]})
    state = act(state, {"type": "part", "index": 0})
    state = act(state, {"type": "build", "at": [[2, 2]]})
    state = act(state, {"type": "part", "index": 2})
    assert [2, 3] not in [a["at"][0] for a in legal(state)]  # never on a field
    state = act(state, {"type": "build", "at": [[2, 0]]})
    state = act(state, {"type": "part", "index": 1})  # take the sheep
    p = state["players"][seat]
    assert p["animals"]["sheep"] == 3
    assert p["cells"][idx(2, 0)]["k"] == "large_pasture" and p["cells"][idx(2, 0)]["st"]
    assert p["cells"][idx(2, 2)]["k"] == "pasture"
    assert (p["supply"]["wood"], p["supply"]["stone"], p["stables"]) == (0, 0, 2)


def test_stables_are_limited_to_three():
    state, seat = turn_state(3)
    add_space(state, "donkey_farming", {"donkey": 1})
    supply(state, seat, stone=5)
    state["players"][seat]["stables"] = 0
    state = place(state, "donkey_farming")
    # Only the donkey is left to take: the fencing group is not offered.
    assert state["players"][seat]["animals"]["donkey"] == 1 or parts(state) == [1]


def test_fence_building_wood_then_pastures():
    state, seat = turn_state(6)
    set_cell(state, seat, 2, 3, "meadow")
    supply(state, seat, wood=0)
    state = place(state, "fence_building_6_7")  # no wood: taking the wood is forced
    assert state["players"][seat]["supply"]["wood"] == 2
    assert parts(state) == [1]
    state = act(state, {"type": "part", "index": 1})  # only the small pasture fits: forced
    state = act(state, {"type": "build", "at": [[2, 3]]})
    assert state["players"][seat]["cells"][idx(2, 3)]["k"] == "pasture"
    assert state["players"][seat]["supply"]["wood"] == 0


# ----- family growth ----------------------------------------------------------------------------


def test_wish_for_children_growth_needs_room():
    state, seat = turn_state(3)
    add_space(state, "wish_for_children")
    supply(state, seat, wood=0, stone=0)
    with pytest.raises(IllegalAction):
        place(state, "wish_for_children")  # no room and no dwelling affordable
    set_cell(state, seat, 3, 2, "room", tile="dwelling")
    state = place(state, "wish_for_children")
    dwarfs = state["players"][seat]["dwarfs"]
    assert len(dwarfs) == 3 and dwarfs[2]["new"] and dwarfs[2]["at"] is None
    assert R.available_dwarfs(state["players"][seat]) == [1]


def test_wish_for_children_either_growth_or_dwelling():
    state, seat = turn_state(3)
    add_space(state, "wish_for_children")
    supply(state, seat, wood=4, stone=3)
    set_cell(state, seat, 4, 2, "cavern")
    set_cell(state, seat, 3, 2, "room", tile="dwelling")
    state = place(state, "wish_for_children")
    assert parts(state) == [0, 1]
    state = act(state, {"type": "part", "index": 1})
    tiles = {a["tile"] for a in legal(state)}
    assert tiles <= set(R.B.DWELLING_TILES) and "dwelling" in tiles
    state = act(state, {"type": "furnish", "tile": "dwelling"})
    assert finished(state, seat)  # either/or: no growth after the dwelling
    assert len(state["players"][seat]["dwarfs"]) == 2


def test_urgent_wish_dwelling_and_then_growth_or_three_gold():
    state, seat = turn_state(3)
    add_space(state, "urgent_wish_for_children")
    supply(state, seat, wood=4, stone=3, gold=0)
    state = place(state, "urgent_wish_for_children")
    assert parts(state) == [0, 1]
    state = act(state, {"type": "part", "index": 0})
    assert top(state)["t"] == "furnish"  # growth only after the dwelling
    state = act(state, {"type": "furnish", "tile": "dwelling"})
    assert parts(state) == [1]
    state = act(state, {"type": "part", "index": 1})
    assert len(state["players"][seat]["dwarfs"]) == 3


def test_urgent_wish_gold_side():
    state, seat = turn_state(3)
    add_space(state, "urgent_wish_for_children")
    state = place(state, "urgent_wish_for_children")  # no dwelling affordable: gold forced
    assert state["players"][seat]["supply"]["gold"] == 3


def test_growth_either_goods_or_family_growth():
    state, seat = turn_state(4)
    set_cell(state, seat, 3, 2, "room", tile="dwelling")
    state = place(state, "growth")
    assert parts(state) == [0, 1]
    state = act(state, {"type": "part", "index": 1})
    assert len(state["players"][seat]["dwarfs"]) == 3
    assert finished(state, seat)


def test_family_life_growth_and_sow():
    state, seat = turn_state(3)
    add_space(state, "family_life")
    set_cell(state, seat, 3, 2, "room", tile="dwelling")
    state = place(state, "family_life")  # no field: growth is the only choice
    assert len(state["players"][seat]["dwarfs"]) == 3


def test_family_life_flips_wish_for_children():
    state, _ = turn_state(3)
    add_space(state, "wish_for_children")
    state["deck"]["7"] = "family_life"
    state["stack"] = [{"t": "round_start"}]
    state["round"] = 6
    R.run(state)
    assert "urgent_wish_for_children" in state["spaces"]
    assert "wish_for_children" not in state["spaces"]


def test_family_limit_is_five():
    state, seat = turn_state(4)
    p = state["players"][seat]
    set_cell(state, seat, 3, 2, "room", tile="couple_dwelling")
    set_cell(state, seat, 4, 2, "room", tile="dwelling")
    p["dwarfs"] += [{"w": 0, "at": None, "new": False} for _ in range(3)]
    assert R.B.family_limit(p["cells"]) == 5
    assert not R.can_grow(p)


# ----- mines ------------------------------------------------------------------------------------


def test_ore_mine_construction_twin_three_ore_then_expedition():
    state, seat = turn_state(3)
    add_space(state, "ore_mine_construction")
    set_cell(state, seat, 4, 2, "tunnel")
    set_cell(state, seat, 4, 1, "tunnel")
    state["players"][seat]["dwarfs"][0]["w"] = 2
    state["players"][seat]["dwarfs"][1]["w"] = 2
    state = place(state, "ore_mine_construction")
    state = act(state, {"type": "part", "index": 0})
    state = act(
        state, {"type": "tile", "tile": "ore_mine_deep_tunnel_twin", "at": [[4, 1], [4, 2]]}
    )
    p = state["players"][seat]
    assert p["supply"]["ore"] == 3
    assert p["cells"][idx(4, 1)]["k"] == "ore_mine" and p["cells"][idx(4, 2)]["k"] == "deep_tunnel"
    assert parts(state) == [1]


def test_ore_mine_construction_needs_two_adjacent_tunnels():
    state, seat = turn_state(3)
    add_space(state, "ore_mine_construction")
    set_cell(state, seat, 4, 2, "tunnel")
    assert {"type": "place", "space": "ore_mine_construction"} not in legal(state)


def test_ruby_mine_construction_tunnel_or_deep_tunnel_with_ruby():
    state, seat = turn_state(3)
    add_space(state, "ruby_mine_construction")
    set_cell(state, seat, 4, 2, "tunnel")
    set_cell(state, seat, 4, 1, "deep_tunnel")
    state = place(state, "ruby_mine_construction")
    assert parts(state) == [0, 1]
    deep = act(state, {"type": "part", "index": 1})
    deep = act(deep, {"type": "tile", "tile": "ruby_mine", "at": [[4, 1]]})
    assert deep["players"][seat]["supply"]["ruby"] == 1
    ordinary = act(state, {"type": "part", "index": 0})
    assert [a["at"] for a in legal(ordinary)] == [[[4, 2]]]
    ordinary = act(ordinary, {"type": "tile", "tile": "ruby_mine", "at": [[4, 2]]})
    assert ordinary["players"][seat]["supply"]["ruby"] == 0
    assert ordinary["players"][seat]["cells"][idx(4, 2)]["k"] == "ruby_mine"


# ----- weapons ----------------------------------------------------------------------------------


def test_blacksmithing_armed_dwarf_only_goes_on_the_expedition():
    state, seat = turn_state(3)
    add_space(state, "blacksmithing")
    for d in state["players"][seat]["dwarfs"]:
        d["w"] = 3
    supply(state, seat, ore=5)
    state = place(state, "blacksmithing")
    assert top(state)["t"] == "expedition"  # the frame skipped forging by itself


def test_blacksmithing_needs_ore_or_a_weapon():
    state, seat = turn_state(3)
    add_space(state, "blacksmithing")
    supply(state, seat, ore=0)
    assert {"type": "place", "space": "blacksmithing"} not in legal(state)


def test_exploration_needs_an_armed_dwarf():
    state, seat = turn_state(3)
    add_space(state, "exploration")
    assert {"type": "place", "space": "exploration"} not in legal(state)
    state["players"][seat]["dwarfs"][0]["w"] = 4
    state["players"][seat]["dwarfs"][1]["w"] = 4
    state = place(state, "exploration")
    assert top(state)["t"] == "expedition" and top(state)["level"] == 4


def test_we19_ore_trading():
    state, seat = turn_state(3)
    add_space(state, "ore_trading")
    supply(state, seat, ore=7, gold=0)
    food = player(state)["supply"]["food"]
    state = place(state, "ore_trading")
    assert [a["times"] for a in legal(state)] == [1, 2, 3]
    state = act(state, {"type": "exchange", "times": 3})
    p = state["players"][seat]
    assert (p["supply"]["gold"], p["supply"]["food"], p["supply"]["ore"]) == (6, food + 3, 1)


def test_ore_trading_at_most_what_the_ore_allows():
    state, seat = turn_state(3)
    add_space(state, "ore_trading")
    supply(state, seat, ore=3)
    state = place(state, "ore_trading")
    assert [a["times"] for a in legal(state)] == [1]


# ----- market, hardware rental, extension -------------------------------------------------------


def test_weekly_market_four_gold_then_one_of_each():
    state, seat = turn_state(5)
    supply(state, seat, gold=0)
    state = place(state, "weekly_market_5")  # no gold yet: the 4 gold come first
    state = act(state, {"type": "part", "index": 1})
    state = act(state, {"type": "buy", "good": "cattle"})
    assert {"type": "buy", "good": "cattle"} not in legal(state)
    state = act(state, {"type": "buy", "good": "wood"})
    p = state["players"][seat]
    assert p["supply"]["gold"] == 0 and p["animals"]["cattle"] == 1 and p["supply"]["wood"] == 1
    assert finished(state, seat)  # no gold left: the market step ends


def test_hardware_rental_6_7_wood_expedition_sow():
    state, seat = turn_state(6)
    state = place(state, "hardware_rental_6_7")  # unarmed, no field: only the wood
    assert state["players"][seat]["supply"]["wood"] == 2
    assert finished(state, seat)


def test_extension_either_forest_or_mountain_with_a_good():
    state, seat = turn_state(7)
    state = place(state, "extension")
    assert parts(state) == [0, 1]
    state = act(state, {"type": "part", "index": 1})
    state = act(state, {"type": "tile", "tile": "cavern_tunnel_twin", "at": [[4, 2], [4, 1]]})
    assert state["players"][seat]["supply"]["stone"] == 1
    assert finished(state, seat)


def test_small_scale_drift_mining_stone_comes_with_the_twin_under_version_3():
    # Versions up to 3 followed the seed: "provides 1 stone and a cavern/tunnel twin" (version 4
    # follows the card: and/or).
    state, seat = turn_state(5, version=3)
    state = place(state, "small_scale_drift_mining")
    assert top(state)["t"] == "tile"
    state = act(state, {"type": "tile", "tile": "cavern_tunnel_twin", "at": [[4, 3], [5, 3]]})
    assert state["players"][seat]["supply"]["stone"] == 1
    full, seat2 = turn_state(5, version=3)
    for x in (4, 5):
        for y in range(4):
            set_cell(full, seat2, x, y, "tunnel")
    for y in (0, 1):
        set_cell(full, seat2, 3, y, "tunnel")
    assert {"type": "place", "space": "small_scale_drift_mining"} not in legal(full)


# ----- imitation (WE18) -------------------------------------------------------------------------


def imitation_game():
    state, first = turn_state(5, "imitation")
    second = (first + 1) % 5
    state = place(state, "logging_4_7")
    assert actor(state) == second
    return state, first, second


def test_we18_imitation_pays_food_and_gets_no_accumulated_goods():
    state, first, second = imitation_game()
    supply(state, second, food=5, wood=0)
    for d in state["players"][second]["dwarfs"]:
        d["w"] = 1
    state = place(state, "imitation_5")
    assert state["players"][second]["supply"]["food"] == 1
    targets = [a["space"] for a in legal(state)]
    assert targets == ["logging_4_7"]
    state = act(state, {"type": "imitate", "space": "logging_4_7"})
    assert top(state)["t"] == "expedition" and top(state)["level"] == 1
    assert state["players"][second]["supply"]["wood"] == 0


def test_imitation_needs_an_armed_dwarf_for_an_expedition_only_space():
    state, first, second = imitation_game()
    supply(state, second, food=5)
    # Unarmed: Logging offers nothing but the (taken) wood, so it cannot be imitated.
    assert {"type": "place", "space": "imitation_5"} not in legal(state)


def test_imitation_needs_the_food():
    state, first, second = imitation_game()
    for d in state["players"][second]["dwarfs"]:
        d["w"] = 1
    supply(state, second, food=1)
    assert {"type": "place", "space": "imitation_4_7"} not in legal(state)
    supply(state, second, food=2)
    assert {"type": "place", "space": "imitation_4_7"} in legal(state)


def test_imitation_targets_exclude_forbidden_spaces():
    state, first = turn_state(7, "imitation7")
    second = (first + 1) % 7
    state["spaces"]["starting_player_4_7"]["occ"] = first
    state["spaces"]["supplies"] = state["spaces"].get("supplies", {"goods": {}, "occ": None})
    state["spaces"]["growth"]["occ"] = first
    state["spaces"]["imitation_4_7"]["occ"] = first
    state["spaces"]["clearing_4_7"]["occ"] = second
    targets = R.imitation_targets(state, second, 0)
    assert targets == ["growth"]
    assert R.imitation_targets(state, first, 0) == ["clearing_4_7"]


# ----- trades at any time -----------------------------------------------------------------------


def test_we15_food_conversions():
    state, seat = turn_state(3)
    supply(state, seat, gold=5, food=0, ruby=1)
    state["players"][seat]["animals"].update(donkey=2)
    one = act(state, {"type": "convert", "from": "gold", "amount": 5})
    assert one["players"][seat]["supply"]["food"] == 4
    two = act(state, {"type": "convert", "from": "gold", "amount": 2})
    two = act(two, {"type": "convert", "from": "gold", "amount": 3})
    assert two["players"][seat]["supply"]["food"] == 3
    pair = act(state, {"type": "convert", "from": "donkey_pair"})
    assert pair["players"][seat]["supply"]["food"] == 3
    single = act(
        state, {"type": "convert", "from": "donkey"}, {"type": "convert", "from": "donkey"}
    )
    assert single["players"][seat]["supply"]["food"] == 2
    supply(state, seat, food=1)
    cattle = act(state, {"type": "ruby_trade", "to": "cattle"})
    p = cattle["players"][seat]
    assert (p["animals"]["cattle"], p["supply"]["food"], p["supply"]["ruby"]) == (1, 0, 0)


def test_one_gold_alone_buys_nothing():
    state, seat = turn_state(3)
    supply(state, seat, gold=1)
    assert not [a for a in legal(state) if a.get("from") == "gold"]


def test_ruby_buys_goods_and_tiles_but_no_gold():
    state, seat = turn_state(3)
    supply(state, seat, ruby=2)
    kinds = {(a["type"], a.get("to") or a.get("tile")) for a in legal(state)}
    assert ("ruby_trade", "gold") not in kinds  # the overview card lists no gold
    assert ("ruby_trade", "sheep") in kinds and ("ruby_trade", "ore") in kinds
    legacy, _ = turn_state(3, version=3)
    supply(legacy, seat, ruby=1)
    # Versions up to 3 followed the seed's "... vegetables and gold".
    assert {"type": "ruby_trade", "to": "gold"} in legal(legacy)
    assert {("ruby_tile", t) for t in ("meadow", "field", "tunnel", "cavern")} <= kinds
    state = act(state, {"type": "ruby_tile", "tile": "cavern", "at": [4, 2]})
    p = state["players"][seat]
    assert p["supply"]["ruby"] == 0 and p["cells"][idx(4, 2)]["k"] == "cavern"


def test_ruby_field_goes_in_front_of_the_entrance_first():
    state, seat = turn_state(3)
    supply(state, seat, ruby=1)
    fields = [a["at"] for a in legal(state) if a.get("tile") == "field"]
    assert fields == [[2, 3]]


def test_animals_that_do_not_fit_ask_to_convert_or_release():
    state, seat = turn_state(3)
    supply(state, seat, ruby=3, food=0)
    state = act(state, {"type": "ruby_trade", "to": "sheep"}, {"type": "ruby_trade", "to": "sheep"})
    assert top(state)["t"] == "turn"  # 2 sheep fit in the entry-level dwelling
    state = act(state, {"type": "ruby_trade", "to": "donkey"})
    assert top(state)["t"] == "overflow"
    options = legal(state)
    assert {"type": "convert", "from": "donkey"} in options
    assert {"type": "release", "animal": "sheep"} in options
    state = act(state, {"type": "convert", "from": "donkey"})
    assert top(state)["t"] == "turn"
    assert state["players"][seat]["supply"]["food"] == 1
