"""One test (at least) per furnishing tile: the reference's examples (RULES.md section 12, WE12,
WE15, WE17) and cases derived from the tile texts. Immediate effects are bought through the
Housework space; permanent ones are checked on a board that owns the tile."""

import pytest

from games.engines.caverna import effects, scoring
from games.engines.caverna import rules as R
from games.engines.caverna.board import family_limit, idx
from games.engines.caverna.data import TILES
from games.engines.caverna.engine import engine
from games.engines.caverna.texts import english
from games.engines.texts import text

from .helpers import act, actor, add_space, fresh, legal, place, top, turn_state
from .test_harvest import at_feeding

#: Free mountain spaces used to give a player tiles directly (never the pre-printed cavern).
SLOTS = [(5, 3), (5, 2), (4, 2), (5, 1), (4, 1), (5, 0)]


def own(state, seat, *tiles):
    """Give `seat` furnished caverns with these tiles (the test shortcut for having built them)."""
    cells = state["players"][seat]["cells"]
    used = sum(1 for x, y in SLOTS if cells[idx(x, y)]["k"] == "room")
    for tile, (x, y) in zip(tiles, SLOTS[used:], strict=False):
        cells[idx(x, y)].update(k="room", tile=tile)
        if TILES[tile]["unique"]:
            state["built"].append(tile)


def furnish(state, tile, **goods):
    """The acting seat takes Housework and furnishes `tile` (goods topped up first)."""
    seat = actor(state)
    state["players"][seat]["supply"].update(goods)
    state = place(state, "housework")
    state = act(state, {"type": "part", "index": 1}, {"type": "furnish", "tile": tile})
    if top(state)["t"] == "furnish_at":
        state = act(state, legal(state)[0])
    if top(state)["t"] == "frame" and top(state)["seat"] == seat:
        state = act(state, {"type": "done"})
    return state, seat


def furnish_offers(state, seat, scope="any_furnishing_tile"):
    return R.furnish_options(state, seat, scope, None)


def rows(player):
    return scoring.score_player(player)


def tile_trade(state, tile, option=0):
    return act(state, {"type": "tile_trade", "tile": tile, "option": option})


# ----- the supply board -----------------------------------------------------------------------


def test_48_tile_types_each_with_cost_points_and_effect_text():
    assert len(TILES) == 48
    assert [t for t, v in TILES.items() if not v["unique"]] == ["dwelling"]
    state, seat = turn_state(3, "supply")
    board = engine.view(state, seat)["furnishing_tiles"]
    assert len(board) == 48
    for entry in board:
        assert entry["effect"] and isinstance(entry["points"], int) and "cost" in entry


def test_unique_tiles_once_and_only_in_an_empty_cavern():
    state, seat = turn_state(3, "once")
    state["players"][seat]["supply"].update(wood=10, stone=10)
    assert "cuddle_room" in furnish_offers(state, seat)
    state, seat = furnish(state, "cuddle_room")
    assert "cuddle_room" in state["built"]
    for other in range(3):
        assert "cuddle_room" not in furnish_offers(state, other)
    # No empty cavern left for the buyer: nothing (not even a Dwelling) can be furnished.
    assert furnish_offers(state, seat) == []
    board = {t["id"]: t for t in engine.view(state, None)["furnishing_tiles"]}
    assert board["cuddle_room"]["available"] is False and board["dwelling"]["available"]


# ----- dwellings (orange) -------------------------------------------------------------------------


def test_dwelling_is_unlimited_and_gives_room():
    state, seat = turn_state(3, "dwelling")
    state, seat = furnish(state, "dwelling", wood=4, stone=3)
    p = state["players"][seat]
    assert family_limit(p["cells"]) == 3 and p["supply"]["wood"] == 0
    assert "dwelling" not in state["built"]
    p["cells"][idx(5, 3)]["k"] = "cavern"
    p["supply"].update(wood=4, stone=3)
    assert "dwelling" in furnish_offers(state, seat)


@pytest.mark.parametrize(
    "tile,cost", [("simple_dwelling_4w2s", (4, 2)), ("simple_dwelling_3w3s", (3, 3))]
)
def test_simple_dwellings_cost_and_room(tile, cost):
    state, seat = turn_state(3, tile)
    state["players"][seat]["supply"].update(wood=cost[0], stone=cost[1] - 1)
    assert tile not in furnish_offers(state, seat)
    state, seat = furnish(state, tile, wood=cost[0], stone=cost[1])
    p = state["players"][seat]
    assert family_limit(p["cells"]) == 3 and TILES[tile]["points"] == 0
    assert (p["supply"]["wood"], p["supply"]["stone"]) == (0, 0)


def test_mixed_dwelling_room_and_two_animals_of_one_type():
    state, seat = turn_state(3, "mixed")
    own(state, seat, "mixed_dwelling")
    p = state["players"][seat]
    assert family_limit(p["cells"]) == 3
    assert R.animal_rules.fits(p["cells"], 2, {"cattle": 4})  # entry 2 + mixed 2
    assert not R.animal_rules.fits(p["cells"], 2, {"cattle": 3, "sheep": 2})


def test_couple_dwelling_room_for_two():
    state, seat = turn_state(3, "couple")
    own(state, seat, "couple_dwelling")
    assert family_limit(state["players"][seat]["cells"]) == 4


def test_additional_dwelling_only_for_the_sixth_dwarf():
    state, seat = turn_state(3, "additional")
    own(state, seat, "additional_dwelling")
    assert family_limit(state["players"][seat]["cells"]) == 2  # empty until there are 5
    own(state, seat, "couple_dwelling", "dwelling")
    assert family_limit(state["players"][seat]["cells"]) == 6


# ----- rooms (green) ------------------------------------------------------------------------------


def test_cuddle_room_sheep_up_to_the_dwarfs():
    state, seat = turn_state(3, "cuddle")
    own(state, seat, "cuddle_room")
    cells = state["players"][seat]["cells"]
    assert R.animal_rules.fits(cells, 4, {"sheep": 6})  # 4 in the room + 2 at the entry
    assert not R.animal_rules.fits(cells, 3, {"sheep": 6})


def test_breakfast_room_three_cattle():
    state, seat = turn_state(3, "breakfast")
    own(state, seat, "breakfast_room")
    cells = state["players"][seat]["cells"]
    assert R.animal_rules.fits(cells, 2, {"cattle": 5})
    assert not R.animal_rules.fits(cells, 2, {"cattle": 6})


def test_stubble_room_one_animal_per_empty_field():
    state, seat = turn_state(3, "stubble")
    own(state, seat, "stubble_room")
    cells = state["players"][seat]["cells"]
    cells[idx(2, 3)].update(k="field", n=0, crop=None)
    cells[idx(1, 3)].update(k="field", n=2, crop="vegetable")
    assert R.animal_rules.fits(cells, 2, {"donkey": 2, "wild_boar": 1})
    assert not R.animal_rules.fits(cells, 2, {"donkey": 2, "wild_boar": 2})


def test_work_room_furnishes_tunnels_and_deep_tunnels_not_mines():
    state, seat = turn_state(3, "work")
    p = state["players"][seat]
    p["cells"][idx(3, 2)].update(k="room", tile="dwelling")  # no empty cavern left
    p["cells"][idx(4, 3)]["k"] = "tunnel"
    p["cells"][idx(4, 2)]["k"] = "deep_tunnel"
    p["cells"][idx(5, 3)]["k"] = "ore_mine"
    p["supply"].update(wood=5, stone=5)
    assert furnish_offers(state, seat) == []
    own(state, seat, "work_room")
    assert sorted(effects.furnish_spots(p, "dwelling")) == [idx(4, 2), idx(4, 3)]
    state, seat = furnish(state, "cuddle_room")
    cells = state["players"][seat]["cells"]
    assert {cells[idx(4, 2)].get("tile"), cells[idx(4, 3)].get("tile")} >= {"cuddle_room"}


def test_guest_room_turns_either_or_into_and_or():
    state, seat = turn_state(3, "guest")
    add_space(state, "wish_for_children")
    p = state["players"][seat]
    p["cells"][idx(5, 3)]["k"] = "cavern"
    p["cells"][idx(4, 3)].update(k="room", tile="dwelling")  # room for a 3rd dwarf
    p["supply"].update(wood=4, stone=3)
    own(state, seat, "guest_room")
    state = place(state, "wish_for_children")
    state = act(state, {"type": "part", "index": 0})  # family growth ...
    assert {"type": "part", "index": 1} in legal(state)  # ... and then a dwelling as well
    state = act(state, {"type": "part", "index": 1}, {"type": "furnish", "tile": "dwelling"})
    p = state["players"][seat]
    assert len(p["dwarfs"]) == 3 and family_limit(p["cells"]) == 4


def test_without_guest_room_either_or_stays_exclusive():
    state, seat = turn_state(3, "noguest")
    add_space(state, "wish_for_children")
    p = state["players"][seat]
    p["cells"][idx(4, 3)].update(k="room", tile="dwelling")
    p["supply"].update(wood=4, stone=3)
    state = place(state, "wish_for_children")
    state = act(state, {"type": "part", "index": 0})
    assert top(state)["seat"] != seat or top(state)["t"] != "frame"


def test_office_room_twin_overhangs_the_edge_for_two_gold():
    state, seat = turn_state(3, "office")
    own(state, seat, "office_room")
    p = state["players"][seat]
    p["cells"][idx(2, 3)]["k"] = "meadow"  # a forest tile exists: later ones must touch it
    add_space(state, "slash_and_burn")
    state["players"][seat]["supply"]["gold"] = 0
    state = place(state, "slash_and_burn")
    tiles = [a for a in legal(state) if a["type"] == "tile"]
    # (1,3) touches the meadow and lies on the bottom edge: the field may hang below the board.
    overhang = {"type": "tile", "tile": "meadow_field_twin", "at": [[1, 3], [1, 4]]}
    assert overhang in tiles
    assert {"type": "tile", "tile": "meadow_field_twin", "at": [[1, 4], [1, 3]]} in tiles
    assert not [a for a in tiles if [2, 4] in a["at"] or [3, -1] in a["at"]]
    state = act(state, overhang)
    p = state["players"][seat]
    assert p["cells"][idx(1, 3)]["k"] == "meadow"
    assert p["supply"]["gold"] == 2 and p["supply"]["food"] >= 1  # the river's food as well


def test_office_room_mountain_overhang_and_no_overhang_without_it():
    state, seat = turn_state(3, "office-m")
    p = state["players"][seat]
    assert all(
        len(s) == 2 and all(isinstance(i, int) for i in s)
        for s in R.tile_spots(p, "cavern_tunnel_twin")
    )
    own(state, seat, "office_room")
    spots = R.tile_spots(p, "cavern_tunnel_twin")
    # (4,3) touches the entry dwelling and lies on the bottom edge.
    assert [idx(4, 3), (4, 4)] in spots and [(4, 4), idx(4, 3)] in spots
    assert [idx(4, 3), (4, 4)] in R.tile_spots(p, "cavern_cavern_twin")
    assert [(4, 4), idx(4, 3)] not in R.tile_spots(p, "cavern_cavern_twin")
    assert not [s for s in R.tile_spots(p, "ore_mine_deep_tunnel_twin") if len(s) != 2]


# ----- building material tiles -------------------------------------------------------------------


def test_carpenter_one_wood_less_for_furnishing_and_fences():
    state, seat = turn_state(3, "carpenter")
    own(state, seat, "carpenter")
    assert effects.tile_cost(state, seat, "dwelling", {"wood": 4, "stone": 3}) == {
        "wood": 3,
        "stone": 3,
    }
    assert effects.build_cost(state, seat, "small", {"wood": 2}) == {"wood": 1}
    assert effects.build_cost(state, seat, "large", {"wood": 4}) == {"wood": 3}
    assert effects.build_cost(state, seat, "small", {"wood": 1}) == {}  # loot fence: free
    state, seat = furnish(state, "dwelling", wood=3, stone=3)
    assert state["players"][seat]["supply"]["wood"] == 0


def test_stone_carver_two_stone_then_one_stone_less():
    state, seat = turn_state(3, "carver")
    state, seat = furnish(state, "stone_carver", wood=1, stone=0)
    assert state["players"][seat]["supply"]["stone"] == 2
    assert effects.tile_cost(state, seat, "dwelling", {"wood": 4, "stone": 3}) == {
        "wood": 4,
        "stone": 2,
    }
    assert effects.build_cost(state, seat, "stable", {"stone": 1}) == {}


def test_blacksmith_two_ore_and_cheaper_forging():
    state, seat = turn_state(3, "blacksmith")
    state, seat = furnish(state, "blacksmith", wood=1, stone=2, ore=0)
    p = state["players"][seat]
    assert p["supply"]["ore"] == 2 and effects.forge_discount(state, seat) == 2
    state = R.fast_copy(state)
    p = state["players"][seat]
    p["supply"]["ore"] = 6
    task = {"t": "forge", "seat": seat, "d": 0}
    assert max(a["strength"] for a in R.decision_actions(state, task)) == 8  # 6 ore + 2
    p["supply"]["ore"] = 0
    assert [a["strength"] for a in R.decision_actions(state, task)] == [1, 2]


def test_miner_one_ore_per_ore_mine_with_a_donkey():
    state = fresh(3, "miner")
    p = state["players"][0]
    own(state, 0, "miner")
    p["cells"][idx(4, 3)]["k"] = "ore_mine"
    p["cells"][idx(4, 2)]["k"] = "ore_mine"
    p["animals"]["donkey"] = 1
    before = p["supply"]["ore"]
    R.replenish(state, {})
    assert state["players"][0]["supply"]["ore"] == before + 1
    state["players"][0]["animals"]["donkey"] = 3
    R.replenish(state, {})
    assert state["players"][0]["supply"]["ore"] == before + 3


def test_builder_pays_ore_for_wood_and_or_stone():
    state, seat = turn_state(3, "builder")
    own(state, seat, "builder")
    state["players"][seat]["supply"].update(wood=3, stone=2, ore=2)
    state = place(state, "housework")
    state = act(state, {"type": "part", "index": 1})
    dwelling = [a for a in legal(state) if a.get("tile") == "dwelling"]
    assert dwelling == [{"type": "furnish", "tile": "dwelling", "ore_for": ["wood", "stone"]}]
    state = act(state, dwelling[0])
    p = state["players"][seat]
    assert (p["supply"]["wood"], p["supply"]["stone"], p["supply"]["ore"]) == (0, 0, 0)


def test_trader_two_gold_for_wood_stone_ore():
    state, seat = turn_state(3, "trader")
    own(state, seat, "trader")
    state["players"][seat]["supply"].update(gold=3, wood=0, stone=0, ore=0)
    state = tile_trade(state, "trader")
    s = state["players"][seat]["supply"]
    assert (s["gold"], s["wood"], s["stone"], s["ore"]) == (1, 1, 1, 1)
    assert not [a for a in legal(state) if a.get("tile") == "trader"]


@pytest.mark.parametrize(
    "tile,good,rounds",
    [("wood_supplier", "wood", 7), ("stone_supplier", "stone", 5), ("ruby_supplier", "ruby", 4)],
)
def test_suppliers_deliver_for_the_next_rounds(tile, good, rounds):
    state, seat = turn_state(3, tile)
    cost = TILES[tile]["cost"]
    state, seat = furnish(state, tile, **{g: v for g, v in cost.items()})
    state["players"][seat]["supply"][good] = 0
    for _ in range(rounds + 2):
        R.replenish(state, {})
    assert state["players"][seat]["supply"][good] == rounds
    assert state["players"][seat]["deliveries"] == []


def test_supplier_deliveries_are_shown_on_the_board():
    from .test_view_and_template import render

    state, seat = turn_state(3, "supplier-view")
    state, seat = furnish(state, "wood_supplier", stone=1)
    view = engine.view(state, None)
    assert view["players"][seat]["deliveries"] == [
        {"good": "wood", "good_name": text("cv.good_name", good="wood"), "rounds_left": 7}]
    assert "supplier: 1 wood for 7 more rounds" in render(view, None)


def test_supplier_skips_the_missing_round_nine_with_two_players():
    """Goods go on played rounds only: with 2 players round 9 is passed over, not swallowed."""
    state = fresh(2, "supplier-2p")
    own(state, 0, "wood_supplier")
    state["players"][0]["deliveries"] = [{"good": "wood", "left": 8}]  # rounds 2-8 and 10
    state = play_to_round(state, 8)
    assert state["players"][0]["deliveries"] == [{"good": "wood", "left": 1}]
    state = play_to_round(state, 10)
    assert state["round"] == 10 and state["players"][0]["deliveries"] == []


def play_to_round(state, rnd):
    while not engine.is_over(state) and state["round"] < rnd:
        seat = actor(state)
        state = engine.apply(state, seat, engine.timeout_action(state, seat))
    return state


def test_dog_school_one_wood_per_new_dog():
    state, seat = turn_state(3, "dogschool")
    own(state, seat, "dog_school")
    state["players"][seat]["supply"]["wood"] = 0
    state["players"][seat]["supply"].update(stone=0, ore=0)
    state = place(state, "housework")  # nothing to furnish: the dog is taken at once
    p = state["players"][seat]
    assert p["animals"]["dog"] == 1 and p["supply"]["wood"] == 1


def test_quarry_one_stone_per_newborn_donkey():
    state = fresh(3, "quarry")
    own(state, 0, "quarry")
    p = state["players"][0]
    p["animals"].update(donkey=2, sheep=0)
    p["cells"][idx(4, 3)]["k"] = "ore_mine"
    p["cells"][idx(4, 2)]["k"] = "ruby_mine"
    p["supply"]["stone"] = 0
    R.breed_auto(state, {"seat": 0})
    assert p["animals"]["donkey"] == 3 and p["supply"]["stone"] == 1


def test_seam_one_ore_for_every_stone_received():
    state, seat = turn_state(3, "seam")
    own(state, seat, "seam")
    state["players"][seat]["supply"].update(stone=0, ore=0)
    R.gain(state, seat, {"stone": 3})
    assert state["players"][seat]["supply"]["ore"] == 3
    state["players"][seat]["supply"]["ruby"] = 1
    state = act(state, {"type": "ruby_trade", "to": "stone"})
    assert state["players"][seat]["supply"]["ore"] == 4
    assert state["log"][-1] == f"Seat {seat} received 1 ore from the seam."


# ----- food tiles -------------------------------------------------------------------------------


def test_we15_slaughtering_cave():
    state, seat = turn_state(3, "slaughter")
    own(state, seat, "slaughtering_cave")
    state["players"][seat]["animals"].update(donkey=2, cattle=1)
    state["players"][seat]["supply"]["food"] = 0
    state = act(state, {"type": "convert", "from": "donkey_pair"})
    assert state["players"][seat]["supply"]["food"] == 5
    state = act(state, {"type": "convert", "from": "cattle"})
    assert state["players"][seat]["supply"]["food"] == 9
    assert "slaughtering cave" in state["log"][-1]  # automatic effects are logged


def test_cooking_cave_grain_and_vegetable_for_five_food():
    state, seat = turn_state(3, "cooking")
    own(state, seat, "cooking_cave")
    state["players"][seat]["supply"].update(grain=1, vegetable=1, food=0)
    state = tile_trade(state, "cooking_cave")
    s = state["players"][seat]["supply"]
    assert (s["grain"], s["vegetable"], s["food"]) == (0, 0, 5)


def test_working_cave_feeds_one_dwarf_with_wood_stone_or_two_ore():
    state, seat = at_feeding()
    own(state, seat, "working_cave")
    p = state["players"][seat]
    p["supply"].update(food=2, wood=1, stone=0, ore=2)
    feeds = [a for a in legal(state) if a["type"] == "feed"]
    assert feeds == [
        {"type": "feed"},
        {"type": "feed", "with": "wood"},
        {"type": "feed", "with": "ore"},
    ]
    state = act(state, {"type": "feed", "with": "wood"})
    p = state["players"][seat]
    assert (p["supply"]["food"], p["supply"]["wood"], p["begging"]) == (0, 0, 0)


def test_mining_cave_one_food_less_per_donkey_in_a_mine():
    state, seat = at_feeding()
    own(state, seat, "mining_cave")
    p = state["players"][seat]
    p["cells"][idx(4, 3)]["k"] = "ore_mine"
    p["cells"][idx(4, 2)]["k"] = "ruby_mine"
    p["animals"]["donkey"] = 1
    assert R.food_needed(state, seat, "normal") == 3
    p["animals"]["donkey"] = 5
    assert R.food_needed(state, seat, "normal") == 2


def test_we12_breeding_cave_food_per_breeding():
    state = fresh(3, "breedingcave")
    own(state, 0, "breeding_cave", "quarry")  # WE12: +2 food; the Quarry gives no stone
    p = state["players"][0]
    p["animals"].update(sheep=2, wild_boar=3, cattle=1, donkey=2)
    p["cells"][idx(2, 3)].update(k="pasture", st=True)  # 4 sheep
    p["cells"][idx(1, 3)].update(k="pasture", st=True)  # 4 wild boars
    p["cells"][idx(4, 3)]["k"] = "ore_mine"  # the 2 donkeys, one per mine
    p["cells"][idx(4, 2)]["k"] = "ruby_mine"
    # The entry dwelling keeps the cattle; nowhere for a third donkey.
    p["supply"]["food"] = 0
    assert R.breed_sets(p, 4) == [["sheep", "wild_boar"]]
    R.breed_auto(state, {"seat": 0, "asked": True})  # the lone cow is kept
    assert (p["animals"]["sheep"], p["animals"]["wild_boar"], p["supply"]["food"]) == (3, 4, 2)
    assert (p["animals"]["donkey"], p["animals"]["cattle"], p["supply"]["stone"]) == (2, 1, 0)


def test_peaceful_cave_weapon_for_food():
    state, seat = turn_state(3, "peaceful")
    own(state, seat, "peaceful_cave")
    p = state["players"][seat]
    p["dwarfs"][1]["w"] = 6
    p["supply"]["food"] = 0
    state = act(state, {"type": "tile_trade", "tile": "peaceful_cave", "dwarf": 1})
    p = state["players"][seat]
    assert p["dwarfs"][1]["w"] == 0 and p["supply"]["food"] == 6


# ----- parlours ---------------------------------------------------------------------------------


def test_weaving_parlor_food_per_sheep_and_bonus():
    state, seat = turn_state(3, "weaving")
    state["players"][seat]["animals"]["sheep"] = 2
    state, seat = furnish(state, "weaving_parlor", wood=2, stone=1, food=0)
    p = state["players"][seat]
    assert p["supply"]["food"] == 2
    assert rows(p)["bonus_weaving_parlor"] == 1  # 1 point per 2 sheep, as printed


def test_milking_parlor_food_per_cattle_and_bonus():
    state, seat = turn_state(3, "milking")
    state["players"][seat]["animals"]["cattle"] = 2
    state, seat = furnish(state, "milking_parlor", wood=2, stone=2, food=0)
    p = state["players"][seat]
    assert p["supply"]["food"] == 2 and rows(p)["bonus_milking_parlor"] == 2


def test_state_parlor_food_and_points_per_adjacent_dwelling():
    state, seat = turn_state(3, "stateparlor")
    p = state["players"][seat]
    p["cells"][idx(4, 2)].update(k="room", tile="dwelling")
    state, seat = furnish(state, "state_parlor", gold=5, stone=3, food=0)
    p = state["players"][seat]
    # (3,2) touches the entry dwelling (3,3) and the Dwelling at (4,2).
    assert p["supply"]["food"] == 4 and rows(p)["bonus_state_parlor"] == 8


def test_hunting_parlor_two_boars_for_gold_and_food_without_slaughter_bonus():
    state, seat = turn_state(3, "hunting")
    own(state, seat, "hunting_parlor", "slaughtering_cave")
    p = state["players"][seat]
    p["animals"]["wild_boar"] = 2
    p["supply"].update(gold=0, food=0)
    state = tile_trade(state, "hunting_parlor")
    p = state["players"][seat]
    assert (p["animals"]["wild_boar"], p["supply"]["gold"], p["supply"]["food"]) == (0, 2, 2)


@pytest.mark.parametrize("option,gold,food", [(0, 3, 0), (1, 0, 4)])
def test_beer_parlor_two_grain_for_three_gold_or_four_food(option, gold, food):
    state, seat = turn_state(3, "beer")
    own(state, seat, "beer_parlor")
    state["players"][seat]["supply"].update(grain=2, gold=0, food=0)
    state = tile_trade(state, "beer_parlor", option)
    s = state["players"][seat]["supply"]
    assert (s["grain"], s["gold"], s["food"]) == (0, gold, food)


def test_blacksmithing_parlor_ruby_and_ore_for_gold_and_food():
    state, seat = turn_state(3, "bsparlor")
    own(state, seat, "blacksmithing_parlor")
    state["players"][seat]["supply"].update(ruby=1, ore=1, gold=0, food=0)
    state = tile_trade(state, "blacksmithing_parlor")
    s = state["players"][seat]["supply"]
    assert (s["ruby"], s["ore"], s["gold"], s["food"]) == (0, 0, 2, 1)


# ----- storages ---------------------------------------------------------------------------------


def board_with(tile, **changes):
    state = fresh(3, f"bonus-{tile}")
    own(state, 0, tile)
    p = state["players"][0]
    for key, value in changes.items():
        if key in p["supply"]:
            p["supply"][key] = value
        elif key in p["animals"]:
            p["animals"][key] = value
    return p


def test_stone_storage_one_per_stone():
    assert rows(board_with("stone_storage", stone=7))["bonus_stone_storage"] == 7


def test_ore_storage_one_per_two_ore():
    assert rows(board_with("ore_storage", ore=7))["bonus_ore_storage"] == 3


def test_spare_part_storage_trade_and_overbuild_with_the_trader():
    state, seat = turn_state(3, "spare")
    own(state, seat, "spare_part_storage")
    state["players"][seat]["supply"].update(wood=1, stone=1, ore=1, gold=0)
    state = tile_trade(state, "spare_part_storage")
    assert state["players"][seat]["supply"]["gold"] == 2
    # Building the Trader goes on top of the Spare part storage, which then counts for nothing.
    p = state["players"][seat]
    p["cells"][idx(3, 2)].update(k="room", tile="dwelling")  # no empty cavern at all
    p["supply"]["wood"] = 1
    assert "trader" in furnish_offers(state, seat)
    state = R.fast_copy(state)
    task = {"t": "furnish_at", "seat": seat, "tile": "trader"}
    assert R.decision_actions(state, task) == [{"type": "furnish_at", "at": [5, 3]}]
    R.build_tile(state, seat, "trader", idx(5, 3))
    cell = state["players"][seat]["cells"][idx(5, 3)]
    assert (cell["tile"], cell["under"]) == ("trader", "spare_part_storage")
    assert not effects.owns(state["players"][seat], "spare_part_storage")


def test_main_storage_two_per_yellow_tile_itself_included():
    p = board_with("main_storage")
    p["cells"][idx(5, 2)].update(k="room", tile="prayer_chamber")
    p["cells"][idx(4, 2)].update(k="room", tile="cuddle_room")
    assert rows(p)["bonus_main_storage"] == 4


def test_weapon_storage_three_per_armed_dwarf():
    p = board_with("weapon_storage")
    p["dwarfs"][0]["w"] = 3
    assert rows(p)["bonus_weapon_storage"] == 3


def test_supplies_storage_eight_if_every_dwarf_is_armed():
    p = board_with("supplies_storage")
    p["dwarfs"][0]["w"] = 3
    assert rows(p)["bonus_supplies_storage"] == 0
    p["dwarfs"][1]["w"] = 1
    assert rows(p)["bonus_supplies_storage"] == 8


# ----- chambers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dwarfs,points", [(4, 0), (5, 5), (6, 10)])
def test_broom_chamber(dwarfs, points):
    p = board_with("broom_chamber")
    p["dwarfs"] = [{"w": 0, "at": None, "new": False} for _ in range(dwarfs)]
    assert rows(p)["bonus_broom_chamber"] == points


def test_treasure_chamber_one_per_ruby():
    assert rows(board_with("treasure_chamber", ruby=4))["bonus_treasure_chamber"] == 4


def test_food_chamber_two_per_grain_vegetable_pair_fields_included():
    p = board_with("food_chamber", grain=1, vegetable=3)
    p["cells"][idx(2, 3)].update(k="field", crop="grain", n=2)
    assert rows(p)["bonus_food_chamber"] == 6


def test_prayer_chamber_eight_without_weapons_after_a_peaceful_trade():
    state, seat = turn_state(3, "prayer")
    own(state, seat, "prayer_chamber", "peaceful_cave")
    state["players"][seat]["dwarfs"][1]["w"] = 2
    assert rows(state["players"][seat])["bonus_prayer_chamber"] == 0
    state = act(state, {"type": "tile_trade", "tile": "peaceful_cave", "dwarf": 1})
    assert rows(state["players"][seat])["bonus_prayer_chamber"] == 8


def test_we17_writing_chamber_caps_the_shield_at_seven():
    p = board_with("writing_chamber")
    p["begging"] = 5  # -15, plus -8 missing types and unused spaces: only 7 cancelled
    without = dict(p, cells=[dict(c) for c in p["cells"]])
    without["cells"][idx(5, 3)] = {"k": "rock", "st": False}
    r_with, r_without = rows(p), rows(without)
    assert sum(r_with.values()) - sum(r_without.values()) == 7 + 1  # shield + the used space


def test_fodder_chamber_one_per_three_farm_animals():
    p = board_with("fodder_chamber", sheep=4, cattle=3, dog=5)
    assert rows(p)["bonus_fodder_chamber"] == 2


# ----- "any time before scoring": the last trades ------------------------------------------------


def test_last_trades_before_scoring_only_for_seats_with_such_tiles_under_version_3():
    state = fresh(3, "final", version=3)
    own(state, 1, "beer_parlor")
    state["players"][1]["supply"]["grain"] = 2
    state["round"] = state["rounds"][-1]
    state["phase"] = "harvest"
    state["stack"] = [{"t": "round_end"}]
    R.run(state)
    assert engine.active_seats(state) == [1] and top(state)["t"] == "final_trades"
    assert {"type": "tile_trade", "tile": "beer_parlor", "option": 0} in legal(state)
    assert engine.bot_action(state, 1) == {"type": "tile_trade", "tile": "beer_parlor", "option": 0}
    state = act(state, {"type": "tile_trade", "tile": "beer_parlor", "option": 0})
    assert engine.timeout_action(state, 1) == {"type": "finish"}
    state = act(state, {"type": "finish"})
    assert engine.is_over(state)
    assert engine.result(state)["breakdown"][1]["gold_and_begging"] == 3


def test_phone_board_shows_the_supply_board_with_effects_in_words():
    from .test_view_and_template import render

    state, seat = turn_state(3, "template")
    state, seat = furnish(state, "cuddle_room", wood=1)
    html = render(engine.view(state, seat), seat)
    assert "Furnishing tiles (supply board)" in html
    for tile, effect in effects.TILE_TEXT.items():
        assert TILES[tile]["name"] in html
        assert effect.replace('"', "&quot;").replace("'", "&#x27;") in html, tile
    assert "cv-built" in html and ">built</span>" in html
    # The tile on the home board carries its effect too (a long press on a phone shows it).
    assert f"Cuddle room: {effects.TILE_TEXT['cuddle_room']}" in html


def test_timeout_feeds_with_the_working_cave_rather_than_begging():
    state, seat = at_feeding()
    own(state, seat, "working_cave")
    p = state["players"][seat]
    p["supply"].update(food=2, wood=1, grain=0, vegetable=0, ruby=0, gold=0)
    p["animals"].update(sheep=0, donkey=0, wild_boar=0, cattle=0)
    assert engine.timeout_action(state, seat) == {"type": "feed", "with": "wood"}


def test_random_players_buy_tiles_with_effects_and_games_still_finish():
    import random

    built: set[str] = set()
    final_trades = 0
    for index in range(6):
        chooser = random.Random(index)
        state = engine.new_game(4, f"tiles-{index}")
        while not engine.is_over(state):
            seat = engine.active_seats(state)[0]
            legal_now = engine.legal_actions(state, seat)
            furnishes = [a for a in legal_now if a["type"] == "furnish"]
            action = chooser.choice(furnishes or legal_now)  # prefer buying tiles
            final_trades += top(state)["t"] == "final_trades"
            state = engine.apply(state, seat, action)
        built.update(state["built"])
        assert len(engine.result(state)["scores"]) == 4
    assert len(built) >= 15, built
    assert final_trades > 0


def test_final_scores_name_each_bonus_tile():
    state = fresh(3, "final-names")
    own(state, 0, "fodder_chamber")
    state["players"][0]["animals"].update(sheep=3, cattle=3)
    state["phase"], state["stack"] = "over", []
    rows = engine.view(state, None)["final_scores"][0]["rows"]
    assert {"row": text("cv.bonus_row", furnishing="fodder_chamber"), "points": 2} in rows
    assert english(text("cv.bonus_row", furnishing="fodder_chamber")) == "Bonus: Fodder chamber"
