"""Forging, expeditions and the loot table (WE5-WE8)."""

import pytest

from games.engines.caverna import rules as R
from games.engines.caverna.data import LOOT

from .helpers import act, add_space, legal, place, supply, top, turn_state

LOOT_TABLE = [
    ("weapons_plus_1", 1),
    ("wood", 1),
    ("dog", 1),
    ("grain", 2),
    ("sheep", 2),
    ("stone", 3),
    ("donkey", 3),
    ("vegetable", 4),
    ("ore_2", 4),
    ("wild_boar", 5),
    ("gold_2", 6),
    ("furnish_cavern", 7),
    ("stable", 8),
    ("tunnel", 9),
    ("small_pasture_1_wood", 9),
    ("cattle", 10),
    ("large_pasture_2_wood", 10),
    ("meadow", 11),
    ("dwelling_2w_2s", 11),
    ("field", 12),
    ("sow", 12),
    ("cavern", 14),
    ("breed_2_types", 14),
]


def test_the_complete_loot_table():
    assert [(item["id"], item["min_strength"]) for item in LOOT] == LOOT_TABLE
    assert 13 not in {item["min_strength"] for item in LOOT}


def loot_ids(state):
    return [a["item"] for a in legal(state) if a["type"] == "loot"]


def expedition_state(strength, level, n=3, others=()):
    state, seat = turn_state(n)
    space = {1: "logging_1_3", 2: "hardware_rental_5", 3: "blacksmithing", 4: "exploration"}[level]
    add_space(state, space)
    state["spaces"][space]["goods"] = {}
    p = state["players"][seat]
    # Dwarf 0 goes; the others are already out working this round.
    p["dwarfs"] = [{"w": strength, "at": None, "new": False}]
    for w in others or (0,):
        p["dwarfs"].append({"w": w, "at": "-", "new": False})
    state = place(state, space)
    assert top(state)["t"] == "expedition"
    return state, seat


def test_we5_forge_seven_then_level_three_expedition():
    state, seat = turn_state(3)
    add_space(state, "blacksmithing")
    supply(state, seat, ore=10, wood=4, stone=3)
    state = place(state, "blacksmithing")
    assert [a["strength"] for a in legal(state) if a["type"] == "forge"] == list(range(1, 9))
    state = act(state, {"type": "forge", "strength": 7})
    assert state["players"][seat]["supply"]["ore"] == 3
    assert [a for a in legal(state) if a["type"] in ("part", "done")] == [
        {"type": "part", "index": 1},
        {"type": "done"},
    ]
    state = act(state, {"type": "part", "index": 1})
    assert top(state)["t"] == "expedition" and top(state)["level"] == 3
    offered = loot_ids(state)
    assert {"dog", "gold_2", "furnish_cavern"} <= set(offered)
    assert all(dict(LOOT_TABLE)[i] <= 7 for i in offered)
    state = act(state, {"type": "loot", "item": "dog"}, {"type": "loot", "item": "gold_2"})
    state = act(
        state, {"type": "loot", "item": "furnish_cavern"}, {"type": "furnish", "tile": "dwelling"}
    )
    p = state["players"][seat]
    assert p["dwarfs"][0]["w"] == 8
    assert (p["animals"]["dog"], p["supply"]["gold"]) == (1, 2)
    assert p["cells"][R.B.idx(3, 2)]["tile"] == "dwelling"


def test_we5_all_weapons_instead_of_the_dog():
    state, seat = expedition_state(7, 3, others=(3,))
    state = act(state, {"type": "loot", "item": "weapons_plus_1"})
    state = act(state, {"type": "loot", "item": "gold_2"}, {"type": "loot", "item": "wood"})
    weapons = [d["w"] for d in state["players"][seat]["dwarfs"]]
    assert weapons == [9, 4]  # the expedition dwarf 7 + 2, the other armed dwarf 3 + 1


def test_we6_weak_weapon_three_items():
    state, seat = expedition_state(1, 3)
    assert sorted(loot_ids(state)) == ["dog", "weapons_plus_1", "wood"]
    state = act(
        state,
        {"type": "loot", "item": "weapons_plus_1"},
        {"type": "loot", "item": "wood"},
        {"type": "loot", "item": "dog"},
    )
    p = state["players"][seat]
    assert (p["supply"]["wood"], p["animals"]["dog"]) == (1, 1)
    assert p["dwarfs"][0]["w"] == 3


def test_we7_adventure_forge_then_two_expeditions():
    state, seat = turn_state(3)
    add_space(state, "adventure")
    supply(state, seat, ore=5, gold=0)
    state = place(state, "adventure")
    state = act(state, {"type": "forge", "strength": 5})
    assert state["players"][seat]["supply"]["ore"] == 0
    state = act(state, {"type": "part", "index": 1})
    state = act(state, {"type": "loot", "item": "wild_boar"})
    assert state["players"][seat]["dwarfs"][0]["w"] == 6
    state = act(state, {"type": "part", "index": 1})
    assert "gold_2" in loot_ids(state)  # strength 6 now
    state = act(state, {"type": "loot", "item": "gold_2"})
    p = state["players"][seat]
    assert p["dwarfs"][0]["w"] == 7
    assert (p["animals"]["wild_boar"], p["supply"]["gold"]) == (1, 2)


def test_we8_weapon_cap_fourteen():
    state, seat = expedition_state(13, 1, others=(14,))
    state = act(state, {"type": "loot", "item": "weapons_plus_1"})
    weapons = sorted(d["w"] for d in state["players"][seat]["dwarfs"])
    assert weapons == [14, 14]


def test_each_item_once_per_expedition_and_up_to_the_level():
    state, seat = expedition_state(4, 2)
    state = act(state, {"type": "loot", "item": "wood"})
    assert "wood" not in loot_ids(state)
    assert {"type": "loot_done"} in legal(state)
    state = act(state, {"type": "loot", "item": "ore_2"})
    assert top(state)["t"] != "expedition"
    assert state["players"][seat]["dwarfs"][0]["w"] == 5


def test_loot_that_cannot_be_carried_out_is_not_offered():
    state, seat = expedition_state(14, 4)
    p = state["players"][seat]
    p["supply"].update(wood=0, stone=0)
    offered = set(loot_ids(state))
    assert "dwelling_2w_2s" not in offered  # no wood and stone
    assert "small_pasture_1_wood" not in offered  # no meadow
    assert {"cavern", "tunnel", "meadow", "field", "stable", "cattle"} <= offered


def test_loot_tiles_and_stable():
    state, seat = expedition_state(14, 4)
    state = act(state, {"type": "loot", "item": "field"})
    assert [a["at"] for a in legal(state)] == [[[2, 3]]]
    state = act(state, {"type": "tile", "tile": "field", "at": [[2, 3]]})
    state = act(state, {"type": "loot", "item": "stable"})
    stones = state["players"][seat]["supply"]["stone"]
    state = act(state, {"type": "build", "at": [[0, 0]]})
    p = state["players"][seat]
    assert p["supply"]["stone"] == stones and p["stables"] == 2  # the loot stable is free
    state = act(state, {"type": "loot", "item": "cavern"})
    state = act(state, {"type": "tile", "tile": "cavern", "at": [[4, 3]]})
    state = act(state, {"type": "loot", "item": "tunnel"})
    state = act(state, {"type": "tile", "tile": "tunnel", "at": [[4, 2]]})
    p = state["players"][seat]
    assert p["cells"][R.B.idx(2, 3)]["k"] == "field"
    assert p["cells"][R.B.idx(0, 0)]["st"]
    assert p["dwarfs"][0]["w"] == 14


def test_loot_dwelling_for_two_wood_two_stone():
    state, seat = expedition_state(11, 3)
    supply(state, seat, wood=2, stone=2)
    state = act(state, {"type": "loot", "item": "dwelling_2w_2s"})
    assert [a["tile"] for a in legal(state)] == ["dwelling"]
    state = act(state, {"type": "furnish", "tile": "dwelling"})
    p = state["players"][seat]
    assert (p["supply"]["wood"], p["supply"]["stone"]) == (0, 0)


def test_loot_breeding_of_two_types():
    state, seat = expedition_state(14, 4)
    p = state["players"][seat]
    p["animals"].update(sheep=2, donkey=2)
    for x, y in ((0, 0), (1, 0)):
        p["cells"][R.B.idx(x, y)].update(k="pasture", st=True)
    state = act(state, {"type": "loot", "item": "breed_2_types"})
    assert {"type": "breed", "types": ["sheep", "donkey"]} in legal(state)
    state = act(state, {"type": "breed", "types": ["sheep", "donkey"]})
    p = state["players"][seat]
    assert (p["animals"]["sheep"], p["animals"]["donkey"]) == (3, 3)


def test_loot_sow():
    state, seat = expedition_state(12, 1)
    p = state["players"][seat]
    p["cells"][R.B.idx(2, 3)].update(k="field", n=0, crop=None)
    supply(state, seat, grain=1)
    state = act(state, {"type": "loot", "item": "sow"})
    state = act(state, {"type": "sow", "crop": "grain", "at": [2, 3]})
    assert state["players"][seat]["cells"][R.B.idx(2, 3)]["n"] == 3


@pytest.mark.parametrize("ore", [1, 3, 8, 12])
def test_forge_strength_one_to_eight_limited_by_ore(ore):
    state, seat = turn_state(3)
    add_space(state, "blacksmithing")
    supply(state, seat, ore=ore)
    state = place(state, "blacksmithing")
    assert [a["strength"] for a in legal(state)] == list(range(1, min(8, ore) + 1))
