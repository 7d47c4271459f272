"""What the board pictures draw: costs, effects and card symbols as rows of icons (symbols of
static/games/icons.svg), read from the engines' public component data by id, never from a state.

A drawing is a list of pieces, each {"symbol": id} with an optional count "n", a card
"colour" (the card symbol is painted in it) or a "joiner" drawn before it ("/" between
alternatives, "+" before a further item, "→" from a cause to what it gives). Words stay with
the page: the template labels each drawing with the engine's own sentence for it, so the
pictures need no texts of their own.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.engines.caverna import data as caverna
from games.engines.seven_wonders import data as seven_wonders
from games.engines.stone_age import data as stone_age

Piece = dict[str, Any]

#: Every symbol of static/games/icons.svg (a test checks the two agree).
SYMBOLS = frozenset({
    "wood", "clay", "stone", "ore", "gold", "glass", "loom", "papyrus", "food", "coin", "shield",
    "points", "compass", "gear", "tablet", "card", "stage", "chain", "trade", "special",
    "discard", "defeat", "victory", "person", "dwarf", "tool", "hut", "field", "dice", "any",
    "farmer", "toolmaker", "hut_builder", "shaman", "grain", "vegetable", "ruby",
    "sheep", "donkey", "wild_boar", "cattle", "dog", "stable", "weapon", "begging", "disc",
    *(f"culture_{symbol}" for symbol in stone_age.CULTURE_SYMBOLS),
})


def _repeated(amounts: dict[str, int]) -> list[Piece]:
    """Amounts as the cards print them: one icon per unit."""
    return [{"symbol": kind} for kind, amount in amounts.items() for _ in range(amount)]


def _either(kinds: list[str]) -> list[Piece]:
    return [{"symbol": kind, **({"joiner": "/"} if i else {})} for i, kind in enumerate(kinds)]


# ----- 7 Wonders --------------------------------------------------------------------------------


def _seven_wonders_effect(effect: dict[str, Any]) -> list[Piece]:
    pieces: list[Piece] = []
    if "produce" in effect:
        pieces += _repeated(effect["produce"])
    for group in effect.get("produce_choice", []):
        choice = _either(group)
        if pieces:
            choice[0]["joiner"] = "+"
        pieces += choice
    if effect.get("points"):
        pieces.append({"symbol": "points", "n": effect["points"]})
    if effect.get("coins"):
        pieces.append({"symbol": "coin", "n": effect["coins"]})
    if effect.get("shields"):
        pieces += [{"symbol": "shield"}] * effect["shields"]
    if "science" in effect:
        symbol = effect["science"]
        pieces += (_either(["compass", "gear", "tablet"]) if symbol == "any"
                   else [{"symbol": symbol}])
    if "trade_discount" in effect:
        discount = effect["trade_discount"]
        pieces.append({"symbol": "trade"})
        pieces += _either(discount["resources"])
        pieces.append({"symbol": "coin", "n": discount["price"]})
    for key, symbol in (("coins_per", "coin"), ("points_per", "points")):
        if key in effect:
            rule = effect[key]
            start = len(pieces)
            if rule["what"] == "card":
                pieces += [{"symbol": "card", "colour": colour} for colour in rule["colors"]]
            else:
                pieces.append({"symbol": "stage" if rule["what"] == "wonder_stage"
                               else "defeat"})
            if rule["whom"] != ["self"]:
                pieces.append({"symbol": "trade"})
            pieces.append({"symbol": symbol, "n": rule["amount"]})
            if start:
                pieces[start] = {**pieces[start], "joiner": "+"}
    if "special" in effect:
        pieces.append({"symbol": "special"})
    return pieces


def _seven_wonders_cost(coins: int, resources: dict[str, int]) -> list[Piece]:
    return ([{"symbol": "coin", "n": coins}] if coins else []) + _repeated(resources)


@cache
def seven_wonders_card(card_id: str) -> dict[str, Any]:
    """A 7 Wonders card drawn: its cost, its effect, and the ids of the later cards it makes
    free (its chains)."""
    card = seven_wonders.CARDS.get(card_id)
    if card is None:
        return {"cost": [], "effect": [], "chains_to": []}
    chains_to = sorted({other_id for other_id, other in seven_wonders.CARDS.items()
                        if card["name"] in other["chain_from"]})
    return {"cost": _seven_wonders_cost(card["coins"], card["cost"]),
            "effect": _seven_wonders_effect(card["effect"]), "chains_to": chains_to}


@cache
def seven_wonders_stage(wonder_id: str, side: str, number: int) -> dict[str, Any]:
    """One stage of a wonder board drawn: its cost and its effect."""
    wonder = seven_wonders.WONDERS.get(wonder_id, {})
    stages = wonder.get("sides", {}).get(side or "A", [])
    if not 1 <= number <= len(stages):
        return {"cost": [], "effect": []}
    stage = stages[number - 1]
    return {"cost": _seven_wonders_cost(0, stage["cost"]),
            "effect": _seven_wonders_effect(stage["effect"])}


def seven_wonders_option(action: dict[str, Any]) -> list[Piece]:
    """What a card in hand may become, drawn: built (the card in its colour, free by a chain
    or Olympia, or what it costs in coins to the bank and to the neighbours), a wonder stage
    (with what the neighbours are paid), or sold for 3 coins."""
    card = seven_wonders.CARDS.get(action.get("card", ""), {})
    kind = action.get("type")
    paid = [{"symbol": "trade"}, {"symbol": "coin", "n": n}] if (
        n := sum((action.get("pay") or {}).values())) else []
    if kind == "discard":
        return [{"symbol": "discard"}, {"symbol": "coin", "n": 3, "joiner": "→"}]
    if kind == "wonder":
        return [{"symbol": "stage"}, *paid]
    if kind != "build":
        return []
    built = [{"symbol": "card", "colour": card.get("color", "")}]
    if action.get("free") == "chain":
        return [*built, {"symbol": "chain"}]
    if action.get("free") == "olympia":
        return [*built, {"symbol": "special"}]
    bank = [{"symbol": "coin", "n": card["coins"]}] if card.get("coins") else []
    return [*built, *bank, *paid]


# ----- Stone Age --------------------------------------------------------------------------------

#: What each place of the Stone Age board gives (the picture on its tile).
STONE_AGE_PLACES = {
    "hunting_grounds": "food", "forest": "wood", "clay_pit": "clay", "quarry": "stone",
    "river": "gold", "tool_maker": "tool", "hut": "hut", "field": "field",
}


def _stone_age_top(top: dict[str, Any]) -> list[Piece]:
    kind = top["type"]
    if kind == "food":
        return [{"symbol": "food", "n": top["amount"]}]
    if kind == "resource":
        return [{"symbol": top["resource"], "n": top["amount"]}]
    if kind == "resource_by_dice":
        return [{"symbol": "dice", "n": top["dice"]}, {"symbol": top["resource"], "joiner": "→"}]
    if kind == "points":
        return [{"symbol": "points", "n": top["amount"]}]
    if kind in ("tool", "one_use_tool"):
        return [{"symbol": "tool", "n": top.get("amount") or top.get("value")}]
    if kind == "food_track":
        return [{"symbol": "field", "n": top["amount"]}]
    if kind == "any_two_resources":
        return [{"symbol": "any", "n": top["amount"]}]
    if kind == "dice_for_all":
        return [{"symbol": "dice"}, {"symbol": "person", "joiner": "→"}]
    return [{"symbol": "card"}]  # the extra card, seen at the end


@cache
def stone_age_card(card_id: str) -> dict[str, Any]:
    """A civilization card drawn: its top (what it gives now) and its bottom (a culture symbol
    on green, or a multiplier on sand with how many figures it counts)."""
    card = stone_age.CARDS.get(card_id)
    if card is None:
        return {"top": [], "bottom": [], "green": False}
    bottom = card["bottom"]
    green = "culture" in bottom
    return {"top": _stone_age_top(card["top"]), "green": green,
            "bottom": [{"symbol": f"culture_{bottom['culture']}"}] if green
            else [{"symbol": bottom["multiplier"], "n": bottom["count"]}]}


@cache
def stone_age_building(building_id: str) -> list[Piece]:
    """A hut's cost drawn: its resources, or "n of k kinds" as n question marks."""
    building = stone_age.BUILDINGS.get(building_id)
    if building is None:
        return []
    cost = building["cost"]
    if cost["type"] == "fixed":
        return [{"symbol": kind} for kind, amount in cost["resources"].items()
                for _ in range(amount)]
    if cost["type"] == "count_kinds":
        return [{"symbol": "any", "n": cost["count"]}]
    return [{"symbol": "any", "n": f"{cost['min']}–{cost['max']}"}]


# ----- Caverna ----------------------------------------------------------------------------------

#: Caverna's goods whose picture is another's: its gold is coins.
CAVERNA_SYMBOLS = {"gold": "coin", "donkey_pair": "donkey"}


def caverna_pieces(amounts: dict[str, int] | None) -> list[Piece]:
    """Goods or animals by id with their counts, drawn."""
    return [{"symbol": CAVERNA_SYMBOLS.get(good, good), "n": n}
            for good, n in (amounts or {}).items() if n]


def _caverna_goods(amounts: dict[str, int]) -> list[Piece]:
    return [{"symbol": CAVERNA_SYMBOLS.get(good, good), "n": n} for good, n in amounts.items()
            if CAVERNA_SYMBOLS.get(good, good) in SYMBOLS]


def _caverna_tile_effect(tile: dict[str, Any]) -> list[Piece]:
    """The few effects a picture says at a glance: room for dwarfs or animals, goods turned
    into others, goods gained, points per counted thing. The rest stay words (the cell's
    label and the tile's list say every effect)."""
    pieces: list[Piece] = []
    for effect in tile["effects"]:
        kind, start = effect["type"], len(pieces)
        if kind == "dwarf_capacity":
            pieces += [{"symbol": "dwarf"}] * effect["amount"]
        elif kind == "dwarf_capacity_sixth_only":
            pieces.append({"symbol": "dwarf", "n": 6})
        elif kind == "animal_capacity" and isinstance(effect["capacity"], int):
            animals = effect["animals"]
            pieces += _either(["sheep", "donkey", "wild_boar", "cattle"]
                              if animals == "farm_animals" else list(animals))
            pieces[-1] = {**pieces[-1], "n": effect["capacity"]}
        elif kind == "conversion":
            pieces += _caverna_goods(effect["pay"])
            receive = _caverna_goods(effect.get("receive", {}))
            for i, option in enumerate(effect.get("receive_one_of", [])):
                receive += [{**piece, "joiner": "/"} if i else piece
                            for piece in _caverna_goods(option)]
            if receive:
                receive[0] = {**receive[0], "joiner": "→"}
            pieces += receive
        elif kind in ("gain_on_build", "gain_at_start_of_next_rounds"):
            pieces += _caverna_goods(effect["goods"])
        if start and len(pieces) > start:
            pieces[start] = {**pieces[start], "joiner": "+"}
    bonus = tile.get("bonus") or {}
    counted = CAVERNA_SYMBOLS.get(bonus.get("counter", ""), bonus.get("counter", ""))
    if bonus.get("formula") == "per_count" and counted in SYMBOLS:
        # "1 point per 2 ore" as the tiles print it: the points, a slash, what is counted.
        pieces += [{"symbol": "points", "n": bonus["points"],
                    **({"joiner": "+"} if pieces else {})},
                   {"symbol": counted, "joiner": "/",
                    **({"n": bonus["divisor"]} if bonus["divisor"] > 1 else {})}]
    elif bonus:
        pieces.append({"symbol": "points", "n": "+", **({"joiner": "+"} if pieces else {})})
    return pieces


@cache
def caverna_tile(tile_id: str) -> dict[str, Any]:
    """A furnishing tile drawn on the home board: its colour (orange dwellings, green
    workshops and rooms, yellow tiles that score), its printed points and its effect."""
    tile = caverna.TILES.get(tile_id)
    if tile is None:
        return {"tag": "", "points": 0, "effect": []}
    return {"tag": tile["tag"], "points": tile["points"], "effect": _caverna_tile_effect(tile)}
