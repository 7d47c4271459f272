"""A deterministic heuristic bot and the conservative time-out move.

The time-out move never spends anything it need not: it feeds without begging when goods can be
converted (cheapest first), converts rather than releases surplus animals, and otherwise takes
the first offered option or finishes the current step.
"""

from __future__ import annotations

from typing import Any

from . import rules as R

#: Cheapest food first (points lost per food): grain, vegetables, surplus animals, rubies, gold.
FEED_ORDER = ("grain", "vegetable", "wild_boar", "cattle", "sheep", "donkey", "ruby")

SPACE_PREFERENCE = {
    "wish_for_children": 40,
    "urgent_wish_for_children": 40,
    "family_life": 38,
    "growth": 30,
    "ore_mine_construction": 26,
    "ruby_mine_construction": 25,
    "blacksmithing": 24,
    "adventure": 23,
    "exploration": 24,
    "housework": 22,
    "sheep_farming": 20,
    "donkey_farming": 20,
    "ruby_delivery": 19,
    "ruby_mining": 18,
    "ore_delivery": 17,
    "starting_player_1_3": 12,
    "starting_player_4_7": 14,
    "weekly_market_5": 15,
    "weekly_market_6_7": 15,
}


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
    non_trade = [
        a for a in legal if a["type"] not in ("convert", "ruby_trade", "ruby_tile", "release")
    ]
    if t == "frame" and {"type": "done"} in non_trade and len(non_trade) > 1:
        return non_trade[0]
    return non_trade[0] if non_trade else legal[0]


def _score_place(state: dict[str, Any], seat: int, sid: str) -> float:
    space = state["spaces"][sid]
    value = sum(space["goods"].values()) * 3.0
    value += SPACE_PREFERENCE.get(sid, 8)
    p = state["players"][seat]
    growth = ("wish_for_children", "family_life", "growth", "urgent_wish_for_children")
    if sid in growth and not R.can_grow(p):
        value -= 25
    return value


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
