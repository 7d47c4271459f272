"""What a seat (or a spectator) may see, and short sentences for actions.

Everything on the table is public in Caverna (supplies, boards, weapons). Hidden: the seed and
RNG counter, the order of round cards not yet revealed, and harvest markers still face down.
"""

from __future__ import annotations

from typing import Any

from . import animals as animal_rules
from . import board as B
from . import scoring
from .data import LOOT, ROUND_CARDS, SPACES, TILES
from .effects import TILE_TEXT, TILE_TRADES
from .rules import (
    MARKET_PRICES,
    TRADING_DECISIONS,
    food_needed,
)

LOOT_NAMES = {item["id"]: item["name"] for item in LOOT}
CELL_LABELS = {
    "forest": "Forest",
    "meadow": "Meadow",
    "field": "Field",
    "pasture": "Small pasture",
    "large_pasture": "Large pasture",
    "rock": "Mountain",
    "cavern": "Cavern",
    "tunnel": "Tunnel",
    "deep_tunnel": "Deep tunnel",
    "ore_mine": "Ore mine",
    "ruby_mine": "Ruby mine",
    "entry": "Entry-level dwelling",
    "room": "",
}
DECISION_TEXT = {
    "turn": "Place a dwarf on an action space",
    "frame": "Choose the next action of the space (or finish)",
    "tile": "Choose where the tile goes",
    "furnish": "Choose a furnishing tile",
    "furnish_at": "Choose the cavern for the tile",
    "sow": "Sow grain or vegetables on empty fields",
    "build": "Choose where to build",
    "forge": "Choose the weapon strength (ore to pay)",
    "expedition": "Choose expedition loot",
    "imitate": "Choose the action space to imitate",
    "exchange": "Choose how many times to trade",
    "market": "Buy goods at the Weekly market",
    "breed_pick": "Choose the animal types to breed",
    "breed_choice": "Not all newborns fit: choose which to keep",
    "breed_room": "Not all newborns fit: convert a lone animal to make room, or breed now",
    "overflow": "Your animals do not fit: convert or release one",
    "feed": "Feed your dwarfs (convert goods first if you like)",
    "harvest_choice": "Skip either the field phase or the breeding phase",
    "protect": "More than 6 goods on a space: pay 1 ruby to keep them?",
    "final_trades": "Last trades with your tiles before scoring (or finish)",
}


def space_name(sid: str) -> str:
    return SPACES[sid]["name"]


SHORT = {
    "forest": "",
    "meadow": "Meadow",
    "field": "Field",
    "pasture": "Pasture",
    "large_pasture": "L.pasture",
    "rock": "",
    "cavern": "Cavern",
    "tunnel": "Tunnel",
    "deep_tunnel": "Deep tun.",
    "ore_mine": "Ore mine",
    "ruby_mine": "Ruby mine",
    "entry": "Entry",
}
ANIMAL_ICONS = {"sheep": "🐑", "donkey": "🐴", "wild_boar": "🐗", "cattle": "🐄", "dog": "🐕"}


def cell_view(
    cell: dict[str, Any], animals_here: dict[str, int], index: int | None = None
) -> dict[str, Any]:
    kind = cell["k"]
    label = TILES[cell["tile"]]["name"] if kind == "room" else CELL_LABELS[kind]
    out = {
        "kind": kind,
        "label": label,
        "short": TILES[cell["tile"]]["name"] if kind == "room" else SHORT[kind],
        "forest": kind in B.FOREST_KINDS,
        "stable": cell["st"],
        "effect": TILE_TEXT[cell["tile"]] if kind == "room" else "",
        "covers": TILES[cell["under"]]["name"] if kind == "room" and cell.get("under") else "",
        "animals": animals_here,
        "animal_icons": [
            {"icon": ANIMAL_ICONS[a], "n": n, "name": a.replace("_", " ")}
            for a, n in animals_here.items()
            if n
        ],
    }
    if index is not None:
        out["x"], out["y"] = B.xy(index)
        bonus = B.BONUS.get(index)
        if bonus and kind in ("forest", "rock"):
            out["bonus"] = ", ".join(f"+{v} {g.replace('_', ' ')}" for g, v in bonus.items())
    if kind == "field":
        out["crop"] = cell.get("crop")
        out["crop_count"] = cell.get("n", 0)
    if kind == "room":
        out["tile"] = cell["tile"]
    return out


def player_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    p = state["players"][seat]
    arrangement = animal_rules.arrange(p["cells"], len(p["dwarfs"]), p["animals"])
    cells = [
        cell_view(c, arrangement["cells"].get(str(i), {}), i) for i, c in enumerate(p["cells"])
    ]
    rows = [cells[y * B.WIDTH : (y + 1) * B.WIDTH] for y in range(B.HEIGHT)]
    return {
        "seat": seat,
        "supply": dict(p["supply"]),
        "animals": dict(p["animals"]),
        "dwarfs": [
            {
                "weapon": d["w"],
                "placed_on": space_name(d["at"]) if d["at"] not in (None, "-") else None,
                "newborn": d["new"],
            }
            for d in p["dwarfs"]
        ],
        "stables_left": p["stables"],
        "begging": p["begging"],
        "rows": rows,
        "animals_fit": arrangement["fits"],
        "family_limit": B.family_limit(p["cells"]),
        "starting_player": state["start"] == seat,
        "goods": [{"good": g, "n": n} for g, n in p["supply"].items() if n],
        "animal_counts": [
            {"animal": a.replace("_", " "), "icon": ANIMAL_ICONS[a], "n": n}
            for a, n in p["animals"].items()
            if n
        ],
        "armed": sum(1 for d in p["dwarfs"] if d["w"]),
        # Goods still to come from supplier tiles, one per round start.
        "deliveries": [
            {"good": d["good"], "rounds_left": d["left"]} for d in p.get("deliveries", [])
        ],
    }


def decision_view(state: dict[str, Any]) -> dict[str, Any] | None:
    if state["phase"] == "over" or not state["stack"]:
        return None
    task = state["stack"][-1]
    out = {
        "kind": task["t"],
        "seat": task.get("seat"),
        "text": DECISION_TEXT.get(task["t"], task["t"]),
    }
    if task["t"] in ("frame", "imitate") or "src" in task:
        out["space"] = space_name(task["src"]) if task.get("src") else None
    if task["t"] == "expedition":
        out["level"] = task["level"]
        out["taken"] = [LOOT_NAMES[i] for i in task["taken"]]
    if task["t"] == "feed":
        out["food_needed"] = food_needed(state, task["seat"], task["mode"])
    out["trading_allowed"] = task["t"] in TRADING_DECISIONS
    return out


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    spaces = []
    for sid in state["order"]:
        s = state["spaces"][sid]
        spaces.append(
            {
                "id": sid,
                "name": space_name(sid),
                "goods": {g: v for g, v in s["goods"].items() if v},
                "occupant": s["occ"],
                "round_card": sid in state["cards"] or sid == "urgent_wish_for_children",
            }
        )
    played = state["rounds"]
    future_cards: dict[str, list[str]] = {}
    for card in ROUND_CARDS:
        cid = card["id"]
        if state["n"] not in card["player_counts"] or cid in state["cards"]:
            continue
        if cid == "wish_for_children" and "urgent_wish_for_children" in state["spaces"]:
            continue
        future_cards.setdefault(str(card["stage"]), []).append(card["name"])
    built = set(state["built"])
    supply_board = [
        {
            "id": tid,
            "name": t["name"],
            "cost": t["cost"],
            "points": t["points"],
            "category": t["category"],
            "effect": TILE_TEXT[tid],
            "available": not t["unique"] or tid not in built,
        }
        for tid, t in TILES.items()
    ]
    players = [player_view(state, s) for s in range(state["n"])]
    first = seat if seat is not None and 0 <= seat < state["n"] else 0
    order = [(first + k) % state["n"] for k in range(state["n"])]
    return {
        "round": state["round"],
        "rounds": played,
        "last_round": played[-1],
        "phase": state["phase"],
        "starting_player": state["start"],
        "harvest_markers": {r: m for r, m in state["revealed"].items()},
        "harvest_kinds": dict(state["harvest"]),
        "hidden_markers": len(state["markers"]) - len(state["revealed"]),
        "spaces": spaces,
        "future_round_cards_by_stage": future_cards,
        "furnishing_tiles": supply_board,
        "market_prices": MARKET_PRICES,
        "players": players,
        # The same boards with the viewer's first, for a phone screen.
        "players_viewer_first": [players[s] for s in order],
        "you": seat,
        "decision": decision_view(state),
        "recent": list(state["log"][-8:]),
        "final_scores": final_scores(state),
    }


def final_scores(state: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The scoring pad of every seat once the game is over (None before)."""
    if state["phase"] != "over" or state["stack"]:
        return None
    result = scoring.result(state)
    return [
        {
            "seat": seat,
            "total": result["scores"][seat],
            "winner": seat in result["winners"],
            "rows": [
                {"row": _row_name(row), "points": points}
                for row, points in result["breakdown"][seat].items()
            ],
        }
        for seat in range(state["n"])
    ]


def _row_name(row: str) -> str:
    if row.startswith(scoring.BONUS_PREFIX):
        return "Bonus: " + TILES[row[len(scoring.BONUS_PREFIX) :]]["name"]
    return row.replace("_", " ").capitalize()


def describe(state: dict[str, Any], seat: int, action: Any) -> str:
    who = f"Seat {seat}"
    if not isinstance(action, dict):
        return f"{who} did something unrecognised."
    kind = action.get("type")
    at = action.get("at")
    where = ""
    if isinstance(at, list) and at:
        spots = at if isinstance(at[0], list) else [at]
        where = " at " + " and ".join(
            f"({s[0]},{s[1]})" for s in spots if isinstance(s, list) and len(s) == 2
        )
    try:
        if kind == "place":
            return f"{who} placed a dwarf on {space_name(action['space'])}."
        if kind == "pass":
            return f"{who} had no usable action space and kept a dwarf home."
        if kind == "reorder":
            return f"{who} paid 1 ruby to play a dwarf out of weapon order."
        if kind == "part":
            task = state["stack"][-1]
            node = SPACES[task["src"]]["actions"]
            for k in [*task["path"], action["index"]]:
                node = node["items"][k]
            return f"{who} chose: {_node_text(node)}."
        if kind == "done":
            return f"{who} finished the action space."
        if kind == "tile":
            return f"{who} placed a {action['tile'].replace('_', ' ')}{where}."
        if kind == "furnish":
            subs = action.get("ore_for")
            paid = f", paying ore for {' and '.join(subs)} (Builder)" if subs else ""
            return f"{who} furnished {TILES[action['tile']]['name']}{paid}."
        if kind == "furnish_at":
            return f"{who} placed the furnishing tile{where}."
        if kind == "sow":
            return f"{who} sowed {action['crop']}{where}."
        if kind == "sow_done":
            return f"{who} finished sowing."
        if kind == "build":
            task = state["stack"][-1]
            what = {"small": "a small pasture", "large": "a large pasture", "stable": "a stable"}[
                task["what"]
            ]
            return f"{who} built {what}{where}."
        if kind == "forge":
            return f"{who} forged a weapon of strength {action['strength']}."
        if kind == "loot":
            return f"{who} took expedition loot: {LOOT_NAMES[action['item']]}."
        if kind == "loot_done":
            return f"{who} ended the expedition."
        if kind == "imitate":
            return f"{who} imitated {space_name(action['space'])}."
        if kind == "exchange":
            return f"{who} traded ore {action['times']} time(s)."
        if kind == "buy":
            return f"{who} bought 1 {action['good'].replace('_', ' ')}."
        if kind == "market_done":
            return f"{who} left the market."
        if kind == "breed":
            return f"{who} bred {', '.join(action['types']) or 'nothing'}."
        if kind == "feed":
            if action.get("with"):
                return f"{who} fed their dwarfs, one of them with {action['with']} (Working cave)."
            return f"{who} fed their dwarfs."
        if kind == "breed_now":
            return f"{who} went on to breeding."
        if kind == "finish":
            return f"{who} finished their last trades before scoring."
        if kind == "tile_trade":
            tile = action["tile"]
            if tile == "peaceful_cave":
                w = state["players"][seat]["dwarfs"][action["dwarf"]]["w"]
                return f"{who} gave up a strength-{w} weapon for {w} food (Peaceful cave)."
            pay, get = TILE_TRADES[tile][action["option"]]
            return f"{who} used the {TILES[tile]['name']}: {_goods(pay)} for {_goods(get)}."
        if kind == "skip":
            return f"{who} skipped the {action['phase']} phase."
        if kind == "convert":
            src = action["from"]
            if src == "gold":
                return f"{who} converted {action['amount']} gold into {action['amount'] - 1} food."
            if src == "donkey_pair":
                return f"{who} converted 2 donkeys into 3 food."
            return f"{who} converted 1 {src.replace('_', ' ')} into food."
        if kind == "ruby_trade":
            return f"{who} traded a ruby for 1 {action['to'].replace('_', ' ')}."
        if kind == "ruby_tile":
            return f"{who} bought a {action['tile']} tile with rubies{where}."
        if kind == "release":
            return f"{who} released 1 {action['animal'].replace('_', ' ')}."
        if kind == "protect":
            return f"{who} paid 1 ruby to keep the goods on {space_name(action['space'])}."
        if kind == "let_go":
            return f"{who} let the goods on {space_name(action['space'])} go back to the supply."
    except (KeyError, IndexError, TypeError, ValueError):
        pass
    return f"{who} made a move."


def _goods(goods: dict[str, int]) -> str:
    return ", ".join(f"{v} {g.replace('_', ' ')}" for g, v in goods.items())


def _node_text(node: dict[str, Any]) -> str:
    if "op" in node:
        return " + ".join(_node_text(i) for i in node["items"])
    act = node["act"]
    if act in ("gain", "gain_if", "gain_per", "pay"):
        goods = ", ".join(f"{v} {g.replace('_', ' ')}" for g, v in node["goods"].items())
        return {
            "gain": "take",
            "gain_if": "take (if allowed)",
            "gain_per": "take per ore mine",
            "pay": "pay",
        }[act] + f" {goods}"
    if act == "place_tile":
        return "place " + " or ".join(t.replace("_", " ") for t in node["tiles"])
    if act == "expedition":
        return f"level-{node['level']} expedition"
    return {
        "take_accumulated": "take the goods on the space",
        "furnish": "furnish a cavern"
        if node.get("scope") != "dwelling_tiles"
        else "furnish a dwelling",
        "family_growth": "family growth",
        "sow": "sow",
        "build_small_pasture": "build a small pasture",
        "build_large_pasture": "build a large pasture",
        "build_stable": "build a stable",
        "forge_weapon": "forge a weapon",
        "become_starting_player": "become starting player",
        "imitate": "imitate",
        "exchange": "trade ore",
        "weekly_market_buy": "buy goods",
    }.get(act, act.replace("_", " "))
