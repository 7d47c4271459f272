"""Furnishing-tile effects (issue 6): every place where a tile changes the rules.

The state machine (rules.py) calls these hooks; each looks at the tiles the seat owns (the
furnishing tiles lying face up in its caverns, so a tile covered by the Trader/Spare part storage
overbuild has no effect) and returns what changes. Effects that trigger by themselves also write a
line to the game log. Tile texts for the supply board are in TILE_TEXT.
"""

from __future__ import annotations

from typing import Any

from . import board as B
from . import board_memo

State = dict[str, Any]
Player = dict[str, Any]

#: Conversions a tile allows at any time (RULES.md section 12): tile -> list of (pay, get).
TILE_TRADES: dict[str, list[tuple[dict[str, int], dict[str, int]]]] = {
    "trader": [({"gold": 2}, {"wood": 1, "stone": 1, "ore": 1})],
    "cooking_cave": [({"grain": 1, "vegetable": 1}, {"food": 5})],
    "hunting_parlor": [({"wild_boar": 2}, {"gold": 2, "food": 2})],
    "beer_parlor": [({"grain": 2}, {"gold": 3}), ({"grain": 2}, {"food": 4})],
    "blacksmithing_parlor": [({"ruby": 1, "ore": 1}, {"gold": 2, "food": 1})],
    "spare_part_storage": [({"wood": 1, "stone": 1, "ore": 1}, {"gold": 2})],
}
#: Tiles whose use is a choice the player makes at any time (a final chance before scoring).
CHOICE_TILES = (*TILE_TRADES, "peaceful_cave")
#: Suppliers: goods delivered at the start of each of the next N played rounds.
SUPPLIERS = {
    "wood_supplier": ("wood", 7),
    "stone_supplier": ("stone", 5),
    "ruby_supplier": ("ruby", 4),
}
#: Breeding cave: food per number of newborn farm animals in one breeding.
BREEDING_CAVE_FOOD = {0: 0, 1: 1, 2: 2, 3: 3, 4: 5}
#: The Trader and the Spare part storage are built on top of each other (the only overbuild).
OVERBUILD = {"trader": "spare_part_storage", "spare_part_storage": "trader"}
WORKING_CAVE_FEEDS = {"wood": {"wood": 1}, "stone": {"stone": 1}, "ore": {"ore": 2}}

#: The supply board's effect line of each tile (texts.py makes them texts, translated in the
#: catalogs).
TILE_TEXT = {
    "dwelling": "Room for 1 dwarf.",
    "simple_dwelling_4w2s": "Room for 1 dwarf.",
    "simple_dwelling_3w3s": "Room for 1 dwarf.",
    "mixed_dwelling": "Room for 1 dwarf and 2 farm animals of one type.",
    "couple_dwelling": "Room for 2 dwarfs.",
    "additional_dwelling": "Room for a 6th dwarf only.",
    "cuddle_room": "Holds as many sheep as you have dwarfs.",
    "breakfast_room": "Holds up to 3 cattle.",
    "stubble_room": "Each empty field holds 1 farm animal.",
    "work_room": "You may furnish tunnels and deep tunnels (not mines).",
    "guest_room": '"Either ... or" spaces become "and/or" for you (on Extension once per game).',
    "office_room": "Twin tiles may overhang your board's edge with one half; +2 gold each time.",
    "carpenter": "1 wood less each time you furnish a cavern or build fences.",
    "stone_carver": "+2 stone at once; 1 stone less for each furnishing or stable.",
    "blacksmith": "+2 ore at once; forging a weapon costs 2 ore less (still at most strength 8).",
    "miner": "At the start of each round, +1 ore per ore mine holding a donkey.",
    "builder": "When furnishing, pay 1 ore instead of 1 wood and/or 1 ore instead of 1 stone.",
    "trader": "Any time: 2 gold for 1 wood, 1 stone and 1 ore.",
    "wood_supplier": "+1 wood at the start of each of the next 7 rounds.",
    "stone_supplier": "+1 stone at the start of each of the next 5 rounds.",
    "ruby_supplier": "+1 ruby at the start of each of the next 4 rounds.",
    "dog_school": "+1 wood for every new dog.",
    "quarry": "+1 stone for every newborn donkey.",
    "seam": "+1 ore for every stone you receive.",
    "slaughtering_cave": "+1 food for every farm animal you convert to food.",
    "cooking_cave": "Any time: 1 grain and 1 vegetable for 5 food.",
    "working_cave": "At each feeding, feed one dwarf with 1 wood, 1 stone or 2 ore instead.",
    "mining_cave": "Each feeding costs 1 food less per donkey in your mines.",
    "breeding_cave": "Per breeding: 1/2/3/4 newborn farm animals give 1/2/3/5 food.",
    "peaceful_cave": "Any time: give up a dwarf's weapon for food equal to its strength.",
    "weaving_parlor": "+1 food per sheep at once. Bonus: 1 point per 2 sheep.",
    "milking_parlor": "+1 food per cattle at once. Bonus: 1 point per cattle.",
    "state_parlor": "+2 food per adjacent dwelling at once. Bonus: 4 points per adjacent dwelling.",
    "hunting_parlor": "Any time: 2 wild boars for 2 gold and 2 food.",
    "beer_parlor": "Any time: 2 grain for 3 gold or for 4 food.",
    "blacksmithing_parlor": "Any time: 1 ruby and 1 ore for 2 gold and 1 food.",
    "stone_storage": "Bonus: 1 point per stone.",
    "ore_storage": "Bonus: 1 point per 2 ore.",
    "spare_part_storage": "Any time: 1 wood, 1 stone and 1 ore for 2 gold.",
    "main_storage": "Bonus: 2 points per yellow tile you own (itself included).",
    "weapon_storage": "Bonus: 3 points per armed dwarf.",
    "supplies_storage": "Bonus: 8 points if every dwarf has a weapon.",
    "broom_chamber": "Bonus: 5 points with 5 dwarfs, 10 with 6.",
    "treasure_chamber": "Bonus: 1 point per ruby.",
    "food_chamber": "Bonus: 2 points per grain + vegetable pair.",
    "prayer_chamber": "Bonus: 8 points if no dwarf has a weapon.",
    "writing_chamber": "Cancels up to 7 negative points.",
    "fodder_chamber": "Bonus: 1 point per 3 farm animals.",
}

#: The texts of tiles whose rule changed in rules version 4, as games before it play them.
LEGACY_TILE_TEXT = {
    "guest_room": '"Either ... or" spaces become "and/or" for you.',
    "weaving_parlor": "+1 food per sheep at once. Bonus: 1 point per sheep (seed).",
}


# ----- ownership --------------------------------------------------------------------------------


def owned(p: Player) -> frozenset[str]:
    """The furnishing tiles in effect for a player (covered tiles excluded)."""
    known = board_memo.facts(p["cells"])
    mine = known.get("owned")
    if mine is None:
        mine = known["owned"] = frozenset([c["tile"] for c in p["cells"] if c["k"] == "room"])
    return mine


def owns(p: Player, tile: str) -> bool:
    return tile in owned(p)


def log(state: State, text: str) -> None:
    # Replaced, never changed in place: a state made by apply_copy shares the previous log.
    entries = state["log"] = [*state["log"], text]
    if len(entries) > 40:
        del entries[0]


def donkeys_in(p: Player, kinds: tuple[str, ...]) -> int:
    """Donkeys standing in mines of these kinds. A mine holds only a donkey, so the arrangement
    that puts donkeys into mines first is always feasible; the engine assumes it."""
    mines = sum(1 for c in p["cells"] if c["k"] in kinds)
    return min(mines, p["animals"]["donkey"])


# ----- costs ------------------------------------------------------------------------------------


def tile_cost(
    state: State, seat: int, tile: str, base: dict[str, int], mine: set[str] | None = None
) -> dict[str, int]:
    """What `seat` pays for `tile` before any Builder substitution (Carpenter, Stone carver).
    `mine` is the seat's owned tiles when the caller already has them."""
    if mine is None:
        mine = owned(state["players"][seat])
    cost = dict(base)
    if cost.get("wood") and "carpenter" in mine:
        cost["wood"] -= 1
    if cost.get("stone") and "stone_carver" in mine:
        cost["stone"] -= 1
    return {g: v for g, v in cost.items() if v > 0}


def payments(
    state: State, seat: int, cost: dict[str, int], mine: set[str] | None = None
) -> list[tuple[list[str], dict]]:
    """Every way to pay a furnishing cost: (goods replaced by ore, payment). The Builder lets
    1 ore stand in for 1 wood and/or 1 ore for 1 stone."""
    out: list[tuple[list[str], dict[str, int]]] = [([], dict(cost))]
    if "builder" not in (owned(state["players"][seat]) if mine is None else mine):
        return out
    for subs in (["wood"], ["stone"], ["wood", "stone"]):
        if not all(cost.get(g) for g in subs):
            continue
        pay = dict(cost)
        for g in subs:
            pay[g] -= 1
            pay["ore"] = pay.get("ore", 0) + 1
        out.append((subs, {g: v for g, v in pay.items() if v > 0}))
    return out


def build_cost(state: State, seat: int, what: str, base: dict[str, int]) -> dict[str, int]:
    """Fences (Carpenter: 1 wood less, loot fences included) and stables (Stone carver)."""
    p = state["players"][seat]
    cost = dict(base)
    if what in ("small", "large") and cost.get("wood") and owns(p, "carpenter"):
        cost["wood"] -= 1
    if what == "stable" and cost.get("stone") and owns(p, "stone_carver"):
        cost["stone"] -= 1
    return {g: v for g, v in cost.items() if v > 0}


def forge_discount(state: State, seat: int) -> int:
    """Ore saved when forging (the Blacksmith: 2)."""
    return 2 if owns(state["players"][seat], "blacksmith") else 0


def either_or_is_and_or(state: State, seat: int) -> bool:
    """The Guest room turns "either ... or" into "and/or"."""
    return owns(state["players"][seat], "guest_room")


# ----- where tiles go ---------------------------------------------------------------------------


def furnish_spots(p: Player, tile: str, mine: set[str] | None = None) -> list[int]:
    """Cells that may receive `tile`: empty caverns; tunnels and deep tunnels with the Work
    room; for the Trader/Spare part storage owned by the same player, only the other one."""
    if mine is None:
        mine = owned(p)
    other = OVERBUILD.get(tile)
    if other and other in mine:
        for i, c in enumerate(p["cells"]):
            if c["k"] == "room" and c["tile"] == other:
                return [i]
    kinds = ("cavern", "tunnel", "deep_tunnel") if "work_room" in mine else ("cavern",)
    return [i for i, c in enumerate(p["cells"]) if c["k"] in kinds]


# ----- automatic effects ------------------------------------------------------------------------


def on_build(state: State, seat: int, tile: str, cell: int, gains: dict[str, int]) -> None:
    """Immediate effects when a tile is built (Stone carver, Blacksmith, parlours, suppliers)."""
    p = state["players"][seat]
    extra: dict[str, int] = {}
    if tile == "stone_carver":
        extra = {"stone": 2}
    elif tile == "blacksmith":
        extra = {"ore": 2}
    elif tile == "weaving_parlor":
        extra = {"food": p["animals"]["sheep"]}
    elif tile == "milking_parlor":
        extra = {"food": p["animals"]["cattle"]}
    elif tile == "state_parlor":
        extra = {"food": 2 * adjacent_dwellings(p["cells"], cell)}
    elif tile in SUPPLIERS:
        good, rounds = SUPPLIERS[tile]
        p.setdefault("deliveries", []).append({"good": good, "left": rounds})
    for g, v in extra.items():
        if v:
            gains[g] = gains.get(g, 0) + v
            log(state, f"Seat {seat} received {v} {g} from the {tile.replace('_', ' ')}.")


def adjacent_dwellings(cells: list[dict[str, Any]], index: int) -> int:
    count = 0
    for n in B.NEIGHBOURS[index]:
        c = cells[n]
        if c["k"] == "entry" or (c["k"] == "room" and c["tile"] in B.DWELLING_TILES):
            count += 1
    return count


def on_round_start(state: State, seat: int, gains: dict[str, int]) -> None:
    """Suppliers deliver, the Miner digs (after replenishing, before the work phase)."""
    p = state["players"][seat]
    for delivery in p.get("deliveries", []):
        if delivery["left"] > 0:
            delivery["left"] -= 1
            gains[delivery["good"]] = gains.get(delivery["good"], 0) + 1
            log(state, f"Seat {seat} received 1 {delivery['good']} from a supplier.")
    if "deliveries" in p:
        p["deliveries"] = [d for d in p["deliveries"] if d["left"] > 0]
    if owns(p, "miner"):
        ore = donkeys_in(p, ("ore_mine",))
        if ore:
            gains["ore"] = gains.get("ore", 0) + ore
            log(state, f"Seat {seat} received {ore} ore from the miner.")


def on_gain(state: State, seat: int, goods: dict[str, int]) -> dict[str, int]:
    """Extra goods for goods received: Dog school (wood per dog), Seam (ore per stone)."""
    dogs, stone = goods.get("dog", 0), goods.get("stone", 0)
    if dogs <= 0 and stone <= 0:
        return {}
    p = state["players"][seat]
    extra: dict[str, int] = {}
    if dogs > 0 and owns(p, "dog_school"):
        extra["wood"] = dogs
        log(state, f"Seat {seat} received {dogs} wood from the dog school.")
    if stone > 0 and owns(p, "seam"):
        extra["ore"] = stone
        log(state, f"Seat {seat} received {stone} ore from the seam.")
    return extra


def on_breed(state: State, seat: int, types: list[str]) -> dict[str, int]:
    """Quarry (stone per newborn donkey) and Breeding cave (food per breeding)."""
    if not types:
        return {}
    p = state["players"][seat]
    out: dict[str, int] = {}
    if "donkey" in types and owns(p, "quarry"):
        out["stone"] = 1
        log(state, f"Seat {seat} received 1 stone from the quarry.")
    if owns(p, "breeding_cave"):
        food = BREEDING_CAVE_FOOD[min(len(types), 4)]
        out["food"] = food
        log(state, f"Seat {seat} received {food} food from the breeding cave.")
    return out


def slaughter_bonus(p: Player, animals: int) -> int:
    """The Slaughtering cave: +1 food per farm animal converted."""
    return animals if owns(p, "slaughtering_cave") else 0


def feeding_reduction(state: State, seat: int) -> int:
    """Food saved at a feeding (Mining cave: 1 per donkey in a mine)."""
    p = state["players"][seat]
    if owns(p, "mining_cave"):
        return donkeys_in(p, ("ore_mine", "ruby_mine"))
    return 0


def working_cave_options(p: Player) -> list[str]:
    """What one dwarf may be fed with instead of food (Working cave)."""
    if not owns(p, "working_cave"):
        return []
    return [k for k, cost in WORKING_CAVE_FEEDS.items() if p["supply"][k] >= cost[k]]


# ----- conversions a player chooses -------------------------------------------------------------


def tile_trade_actions(p: Player, busy_dwarf: int | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    tiles = owned(p)
    if not tiles.intersection(CHOICE_TILES):
        return out
    for tile, options in TILE_TRADES.items():
        if tile not in tiles:
            continue
        for k, (pay, _get) in enumerate(options):
            if all(_have(p, g, v) for g, v in pay.items()):
                out.append({"type": "tile_trade", "tile": tile, "option": k})
    if "peaceful_cave" in tiles:
        for i, d in enumerate(p["dwarfs"]):
            if d["w"] > 0 and i != busy_dwarf:
                out.append({"type": "tile_trade", "tile": "peaceful_cave", "dwarf": i})
    return out


def _have(p: Player, good: str, amount: int) -> bool:
    if good in p["animals"]:
        return p["animals"][good] >= amount
    return p["supply"][good] >= amount


def apply_tile_trade(p: Player, action: dict[str, Any]) -> dict[str, int]:
    """Pay for a tile trade and return the goods received (the caller adds them)."""
    if action["tile"] == "peaceful_cave":
        dwarf = p["dwarfs"][action["dwarf"]]
        food, dwarf["w"] = dwarf["w"], 0
        return {"food": food}
    pay, get = TILE_TRADES[action["tile"]][action["option"]]
    for g, v in pay.items():
        if g in p["animals"]:
            p["animals"][g] -= v
        else:
            p["supply"][g] -= v
    return dict(get)


def has_choice_tiles(p: Player) -> bool:
    return bool(owned(p).intersection(CHOICE_TILES))
