"""A deterministic heuristic bot and the conservative time-out move.

The bot places each dwarf on the space with the highest static value: the goods lying there,
what its parts would give (family growth, a dwelling when there is no room, mines, fields, sowing,
expeditions, tiles it can afford), food weighted up when the family is short of it.

The time-out move never spends anything it need not: it feeds without begging when goods can be
converted (cheapest first), converts rather than releases surplus animals, and otherwise takes
the first offered option or finishes the current step.
"""

from __future__ import annotations

from typing import Any

from . import board_memo
from . import rules as R

#: Cheapest food first (points lost per food): grain, vegetables, surplus animals, rubies, gold.
FEED_ORDER = ("grain", "vegetable", "wild_boar", "cattle", "sheep", "donkey", "ruby")


def _feed_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    task = state["stack"][-1]
    p = state["players"][seat]
    need = R.food_needed(state, seat, task["mode"])
    if p["supply"]["food"] < need:
        working = [a for a in legal if a["type"] == "feed" and "with" in a]
        saving = 2 if task["mode"] == "normal" else 1
        if working and p["supply"]["food"] >= need - saving:
            return working[0]  # a wood, stone or 2 ore feed a dwarf (Working cave)
        cooking = {"type": "tile_trade", "tile": "cooking_cave", "option": 0}
        if cooking in legal:
            return cooking  # 1 grain + 1 vegetable: 5 food instead of 3
        for good in FEED_ORDER:
            if good in R.FARM and p["animals"][good] <= 1:
                continue  # keep one of each type (a missing type costs 2 points)
            action = {"type": "convert", "from": good}
            if action in legal:
                return action
        golds = [a for a in legal if a.get("from") == "gold"]
        if golds:
            short = need - p["supply"]["food"]
            return min(golds, key=lambda a: abs(a["amount"] - 1 - short))
        working = [a for a in legal if a["type"] == "feed" and "with" in a]
        if working:
            return working[0]
    return {"type": "feed"}


@board_memo.scoped
def timeout_action(state: dict[str, Any], seat: int) -> dict[str, Any]:
    legal = R.legal_actions(state, seat)
    task = state["stack"][-1]
    t = task["t"]
    if t == "feed":
        return _feed_move(state, seat, legal)
    if t == "overflow":
        p = state["players"][seat]
        converts = [a for a in legal if a["type"] == "convert"]
        converts.sort(key=lambda a: -p["animals"].get(a["from"], 0))
        return converts[0] if converts else legal[0]
    if t == "market":
        return {"type": "market_done"}
    if t in ("sow",) and {"type": "sow_done"} in legal:
        return {"type": "sow_done"}
    if t == "protect":
        return legal[-1]
    if t == "breed_room":
        return {"type": "breed_now"}  # converting a lone animal costs more than a newborn gains
    non_trade = [
        a for a in legal if a["type"] not in ("convert", "ruby_trade", "ruby_tile", "release")
    ]
    if t == "frame" and {"type": "done"} in non_trade and len(non_trade) > 1:
        return non_trade[0]
    return non_trade[0] if non_trade else legal[0]


#: What the bot thinks one unit is worth when it lies on a space (food counts more when hungry).
GOOD_VALUE = {
    "food": 1.0,
    "wood": 1.3,
    "stone": 1.3,
    "ore": 0.8,
    "ruby": 2.5,
    "gold": 1.0,
    "grain": 1.5,
    "vegetable": 2.0,
    "sheep": 1.6,
    "donkey": 1.6,
    "wild_boar": 2.2,
    "cattle": 3.2,
    "dog": 1.2,
}


#: Small gains the bot values alike (a fence, a stable, the starting player token).
FARMING_ACTS = (
    "build_small_pasture",
    "build_large_pasture",
    "build_stable",
    "become_starting_player",
)


def _leaves(node: dict[str, Any]) -> list[dict[str, Any]]:
    if "act" in node:
        return [node]
    return [leaf for item in node["items"] for leaf in _leaves(item)]


def _food_short(state: dict[str, Any], seat: int) -> bool:
    p = state["players"][seat]
    reserve = p["supply"]["food"] + p["supply"]["grain"] + 2 * p["supply"]["vegetable"]
    return reserve < 2 * len(p["dwarfs"])


def _score_place(state: dict[str, Any], seat: int, sid: str) -> float:
    """A static guess of how much a space is worth to `seat` now (no look-ahead)."""
    p = state["players"][seat]
    dwarf = R.default_dwarf(p)
    hungry = _food_short(state, seat)
    value = 0.0
    for good, n in state["spaces"][sid]["goods"].items():
        weight = GOOD_VALUE.get(good, 1.0) * (2.2 if hungry and good in ("food", "grain") else 1)
        value += weight * n
    late = state["round"] >= 11
    for leaf in _leaves(R.space_actions(state, sid)):
        act = leaf["act"]
        if act == "take_accumulated" or not R.feasible(state, seat, dwarf, sid, leaf, False):
            continue
        if act in ("gain", "gain_if"):
            for good, n in leaf["goods"].items():
                value += GOOD_VALUE.get(good, 1.0) * n * (2.2 if hungry and good == "food" else 1)
        elif act == "gain_per":
            value += 1.6 * R.ore_mines(p)
        elif act == "family_growth":
            value += 12 if late else 40
        elif act == "furnish":
            dwellings = R.furnish_options(state, seat, leaf["scope"], leaf.get("cost"))
            if (
                not R.can_grow(p)
                and len(p["dwarfs"]) < 5
                and (set(dwellings) & set(R.B.DWELLING_TILES))
            ):
                value += 28
            elif dwellings:
                value += 8 + max(R.TILES[t]["points"] for t in dwellings)
        elif act == "place_tile":
            tiles = leaf["tiles"]
            if "ore_mine_deep_tunnel_twin" in tiles:
                value += 16
            elif "ruby_mine" in tiles:
                value += 13
            elif "meadow_field_twin" in tiles:
                value += 7 if R.B.count_kind(p["cells"], "field") < 3 else 3
            else:
                value += 8 if not R.B.empty_caverns(p["cells"]) else 4
        elif act == "sow":
            value += 9 if p["supply"]["grain"] or p["supply"]["vegetable"] else 2
        elif act == "expedition":
            value += 3 * leaf["level"] + p["dwarfs"][dwarf]["w"] / 2
        elif act == "forge_weapon":
            value += 8 if p["supply"]["ore"] >= 4 else 2
        elif act in FARMING_ACTS:
            value += 3
        elif act == "exchange":
            value += 3 * min(3, p["supply"]["ore"] // 2)
        elif act == "weekly_market_buy":
            value += 3
        elif act == "imitate":
            value += 4
        elif act == "pay":
            value -= 1.5 * leaf["goods"].get("food", 0)
    return value


@board_memo.scoped
def bot_action(state: dict[str, Any], seat: int) -> dict[str, Any]:
    legal = R.legal_actions(state, seat)
    task = state["stack"][-1]
    t = task["t"]
    if t == "turn":
        places = [a for a in legal if a["type"] == "place"]
        if places:
            return max(places, key=lambda a: (_score_place(state, seat, a["space"]), a["space"]))
        return timeout_action(state, seat)
    if t == "frame":
        parts = [a for a in legal if a["type"] == "part"]
        return parts[0] if parts else {"type": "done"}
    if t == "expedition":
        loot = [a for a in legal if a["type"] == "loot"]
        if loot:
            strength = {item["id"]: item["min_strength"] for item in R.LOOT}
            return max(loot, key=lambda a: (strength[a["item"]], a["item"]))
        return {"type": "loot_done"}
    if t == "forge":
        return max(legal, key=lambda a: a["strength"])
    if t == "furnish":
        points = {a["tile"]: R.TILES[a["tile"]]["points"] for a in legal}
        dwell = [
            a
            for a in legal
            if a["tile"] in R.B.DWELLING_TILES and a["tile"] != "additional_dwelling"
        ]
        if dwell and R.can_grow(state["players"][seat]) is False:
            return max(dwell, key=lambda a: (points[a["tile"]], a["tile"]))
        return max(legal, key=lambda a: (points[a["tile"]], a["tile"]))
    if t == "sow":
        sows = [a for a in legal if a["type"] == "sow"]
        grain = [a for a in sows if a["crop"] == "grain"]
        return (grain or sows or legal)[0]
    if t == "exchange":
        return legal[-1]
    if t == "final_trades":
        # Before scoring, trades that turn low-value goods into gold gain points.
        for action in legal:
            if action["type"] == "tile_trade" and (action["tile"], action.get("option")) in (
                ("beer_parlor", 0),
                ("spare_part_storage", 0),
                ("blacksmithing_parlor", 0),
            ):
                return action
        return {"type": "finish"}
    if t == "market":
        buys = [a for a in legal if a["type"] == "buy"]
        p = state["players"][seat]
        for animal in ("cattle", "wild_boar", "donkey", "sheep"):
            if p["animals"][animal] == 0 and {"type": "buy", "good": animal} in buys:
                return {"type": "buy", "good": animal}
        return {"type": "market_done"}
    return timeout_action(state, seat)
