"""Stone Age facts as data: resources, locations, the 36 civilization cards and 28 buildings.

Written from the project reference (shared/reference/stone_age, RULES.md sections 2, 6, 8, 20)
and checked against the seeds; the rules code reads only these tables.
"""

from __future__ import annotations

RESOURCES = ("wood", "clay", "stone", "gold")
VALUE = {"wood": 3, "clay": 4, "stone": 5, "gold": 6}

START_PEOPLE = 5
START_FOOD = 12
MAX_PEOPLE = 10
MAX_FOOD_TRACK = 10
MAX_TOOLS_GAINED = 12  # total tool value; 3 tiles of at most 4
FEEDING_PENALTY = 10
DISPLAY_SLOTS = 4
STACK_HEIGHT = 7

#: Gathering locations: good gained and dice divisor.
GATHERING = {
    "hunting_grounds": ("food", 2),
    "forest": ("wood", 3),
    "clay_pit": ("clay", 4),
    "quarry": ("stone", 5),
    "river": ("gold", 6),
}
RESOURCE_LOCATIONS = ("forest", "clay_pit", "quarry", "river")
RESOURCE_CAPACITY = 7
VILLAGE = ("tool_maker", "hut", "field")
CARD_SLOTS = ("civ_slot_1", "civ_slot_2", "civ_slot_3", "civ_slot_4")
SLOT_COST = {"civ_slot_1": 1, "civ_slot_2": 2, "civ_slot_3": 3, "civ_slot_4": 4}
BUILDING_STACKS = ("building_stack_1", "building_stack_2", "building_stack_3", "building_stack_4")

LOCATION_NAMES = {
    "hunting_grounds": "hunting grounds",
    "forest": "forest",
    "clay_pit": "clay pit",
    "quarry": "quarry",
    "river": "river",
    "tool_maker": "tool maker",
    "hut": "hut",
    "field": "field",
    "civ_slot_1": "card slot 1 (cost 1)",
    "civ_slot_2": "card slot 2 (cost 2)",
    "civ_slot_3": "card slot 3 (cost 3)",
    "civ_slot_4": "card slot 4 (cost 4)",
    "building_stack_1": "building stack 1",
    "building_stack_2": "building stack 2",
    "building_stack_3": "building stack 3",
    "building_stack_4": "building stack 4",
}

#: Per player count: how many different colours may stand on one resource location, and
#: how many of the three village locations may be occupied in one round.
RESOURCE_COLOURS = {2: 1, 3: 2, 4: 4}
VILLAGE_USABLE = {2: 2, 3: 2, 4: 3}

#: Tool tiles after n tools gained (RULES.md 8.1 / data.json tool_progression).
TOOL_TILES_AFTER = {
    0: [], 1: [1], 2: [1, 1], 3: [1, 1, 1], 4: [2, 1, 1], 5: [2, 2, 1], 6: [2, 2, 2],
    7: [3, 2, 2], 8: [3, 3, 2], 9: [3, 3, 3], 10: [4, 3, 3], 11: [4, 4, 3], 12: [4, 4, 4],
}

#: Dice-for-all table: die face -> item.
DICE_FOR_ALL = {
    1: ("resource", "wood"),
    2: ("resource", "clay"),
    3: ("resource", "stone"),
    4: ("resource", "gold"),
    5: ("tool", None),
    6: ("food_track", None),
}
DICE_FOR_ALL_TEXT = {1: "1 wood", 2: "1 clay", 3: "1 stone", 4: "1 gold", 5: "a tool",
                     6: "+1 food track"}

CULTURE_SYMBOLS = ("art", "medicine", "music", "pottery", "time", "transport", "weaving",
                   "writing")
MULTIPLIER_KINDS = ("farmer", "toolmaker", "hut_builder", "shaman")


def _green(symbol: str) -> dict:
    return {"culture": symbol}


def _sand(kind: str, count: int) -> dict:
    return {"multiplier": kind, "count": count}


def _card(number: int, name: str, top: dict, bottom: dict) -> dict:
    return {"id": f"civ_{number:02d}", "name": name, "top": top, "bottom": bottom}


_DICE = {"type": "dice_for_all"}


def _food(amount: int) -> dict:
    return {"type": "food", "amount": amount}


def _res(resource: str, amount: int) -> dict:
    return {"type": "resource", "resource": resource, "amount": amount}


def _roll(resource: str) -> dict:
    return {"type": "resource_by_dice", "resource": resource, "dice": 2,
            "divisor": VALUE[resource]}


CARDS_LIST = [
    _card(1, "Dice for all / Pottery", _DICE, _green("pottery")),
    _card(2, "Dice for all / Writing", _DICE, _green("writing")),
    _card(3, "Dice for all / Time", _DICE, _green("time")),
    _card(4, "Dice for all / Transport", _DICE, _green("transport")),
    _card(5, "Dice for all / 1 Hut builder", _DICE, _sand("hut_builder", 1)),
    _card(6, "Dice for all / 2 Hut builders", _DICE, _sand("hut_builder", 2)),
    _card(7, "Dice for all / 2 Toolmakers", _DICE, _sand("toolmaker", 2)),
    _card(8, "Dice for all / 2 Toolmakers", _DICE, _sand("toolmaker", 2)),
    _card(9, "Dice for all / 1 Farmer", _DICE, _sand("farmer", 1)),
    _card(10, "Dice for all / 2 Farmers", _DICE, _sand("farmer", 2)),
    _card(11, "7 food / Pottery", _food(7), _green("pottery")),
    _card(12, "5 food / Medicine", _food(5), _green("medicine")),
    _card(13, "3 food / Weaving", _food(3), _green("weaving")),
    _card(14, "1 food / Weaving", _food(1), _green("weaving")),
    _card(15, "4 food / 1 Hut builder", _food(4), _sand("hut_builder", 1)),
    _card(16, "2 food / 2 Hut builders", _food(2), _sand("hut_builder", 2)),
    _card(17, "3 food / 2 Farmers", _food(3), _sand("farmer", 2)),
    _card(18, "2 stone / Transport", _res("stone", 2), _green("transport")),
    _card(19, "1 stone / 1 Farmer", _res("stone", 1), _sand("farmer", 1)),
    _card(20, "1 stone / 1 Shaman", _res("stone", 1), _sand("shaman", 1)),
    _card(21, "1 gold / 1 Shaman", _res("gold", 1), _sand("shaman", 1)),
    _card(22, "1 clay / 2 Shamans", _res("clay", 1), _sand("shaman", 2)),
    _card(23, "Roll 2 dice for gold / Art", _roll("gold"), _green("art")),
    _card(24, "Roll 2 dice for wood / 2 Shamans", _roll("wood"), _sand("shaman", 2)),
    _card(25, "Roll 2 dice for stone / 1 Shaman", _roll("stone"), _sand("shaman", 1)),
    _card(26, "3 points / Music", {"type": "points", "amount": 3}, _green("music")),
    _card(27, "3 points / Music", {"type": "points", "amount": 3}, _green("music")),
    _card(28, "3 points / 3 Hut builders", {"type": "points", "amount": 3},
          _sand("hut_builder", 3)),
    _card(29, "+1 tool / Art", {"type": "tool", "amount": 1}, _green("art")),
    _card(30, "+1 food track / Time", {"type": "food_track", "amount": 1}, _green("time")),
    _card(31, "+1 food track / 1 Farmer", {"type": "food_track", "amount": 1},
          _sand("farmer", 1)),
    _card(32, "Extra card (scoring only) / Writing", {"type": "extra_card"}, _green("writing")),
    _card(33, "One-use tool 4 / 1 Toolmaker", {"type": "one_use_tool", "value": 4},
          _sand("toolmaker", 1)),
    _card(34, "One-use tool 3 / 1 Toolmaker", {"type": "one_use_tool", "value": 3},
          _sand("toolmaker", 1)),
    _card(35, "One-use tool 2 / 2 Toolmakers", {"type": "one_use_tool", "value": 2},
          _sand("toolmaker", 2)),
    _card(36, "2 resources of choice / Medicine", {"type": "any_two_resources", "amount": 2},
          _green("medicine")),
]
CARDS = {card["id"]: card for card in CARDS_LIST}
CARD_IDS = [card["id"] for card in CARDS_LIST]


def _fixed(number: int, **resources: int) -> dict:
    name = " + ".join(f"{amount} {kind}" for kind, amount in resources.items())
    points = sum(VALUE[kind] * amount for kind, amount in resources.items())
    return {"id": f"bld_{number:02d}", "name": name,
            "cost": {"type": "fixed", "resources": dict(resources)}, "points": points}


def _count_kinds(number: int, count: int, kinds: int) -> dict:
    plural = "kind" if kinds == 1 else "kinds"
    return {"id": f"bld_{number:02d}", "name": f"{count} resources of {kinds} {plural}",
            "cost": {"type": "count_kinds", "count": count, "kinds": kinds}, "points": None}


def _any(number: int) -> dict:
    return {"id": f"bld_{number:02d}", "name": "1 to 7 resources of any kinds",
            "cost": {"type": "any", "min": 1, "max": 7}, "points": None}


BUILDINGS_LIST = [
    _fixed(1, wood=2, clay=1),
    _fixed(2, wood=2, stone=1),
    _fixed(3, wood=1, clay=2),
    _fixed(4, wood=2, gold=1),
    _fixed(5, wood=1, stone=2),
    _fixed(6, clay=2, stone=1),
    _fixed(7, clay=2, gold=1),
    _fixed(8, clay=1, stone=2),
    _fixed(9, stone=2, gold=1),
    _fixed(10, wood=1, clay=1, stone=1),
    _fixed(11, wood=1, clay=1, stone=1),
    _fixed(12, wood=1, clay=1, gold=1),
    _fixed(13, wood=1, clay=1, gold=1),
    _fixed(14, wood=1, stone=1, gold=1),
    _fixed(15, wood=1, stone=1, gold=1),
    _fixed(16, clay=1, stone=1, gold=1),
    _fixed(17, clay=1, stone=1, gold=1),
    _count_kinds(18, 4, 1),
    _count_kinds(19, 4, 2),
    _count_kinds(20, 4, 3),
    _count_kinds(21, 4, 4),
    _count_kinds(22, 5, 1),
    _count_kinds(23, 5, 2),
    _count_kinds(24, 5, 3),
    _count_kinds(25, 5, 4),
    _any(26),
    _any(27),
    _any(28),
]
BUILDINGS = {building["id"]: building for building in BUILDINGS_LIST}
BUILDING_IDS = [building["id"] for building in BUILDINGS_LIST]


def card_text(card_id: str) -> str:
    """The card's top effect in a few words, for views and the log."""
    top = CARDS[card_id]["top"]
    kind = top["type"]
    if kind == "dice_for_all":
        return "dice for all (each player takes one die's item)"
    if kind == "food":
        return f"{top['amount']} food"
    if kind == "resource":
        return f"{top['amount']} {top['resource']}"
    if kind == "resource_by_dice":
        return f"roll 2 dice ÷{top['divisor']} for {top['resource']} (tools allowed)"
    if kind == "points":
        return f"{top['amount']} points"
    if kind == "tool":
        return "+1 tool"
    if kind == "food_track":
        return "+1 food track"
    if kind == "extra_card":
        return "draw a face-down card (scores only at the end)"
    if kind == "one_use_tool":
        return f"one-use tool worth {top['value']}"
    return "2 resources of your choice, once, any time"


def bottom_text(card_id: str) -> str:
    bottom = CARDS[card_id]["bottom"]
    if "culture" in bottom:
        return f"green: {bottom['culture']}"
    kind = bottom["multiplier"].replace("_", " ")
    return f"sand: {bottom['count']} × {kind}"


def building_cost_text(building_id: str) -> str:
    return BUILDINGS[building_id]["name"]
