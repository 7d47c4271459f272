"""What a seat (or a spectator) may see, and short sentences for actions. Every word a player
reads is a text (games.engines.texts: a key with parameters, see texts.py), which the
presentation layer renders in the reader's language.

Everything on the table is public in Caverna (supplies, boards, weapons). Hidden: the seed and
RNG counter, the order of round cards not yet revealed, and harvest markers still face down.
"""

from __future__ import annotations

from typing import Any

from games.engines.texts import Text, text

from . import animals as animal_rules
from . import board as B
from . import scoring, texts
from .data import ROUND_CARDS, TILES
from .effects import either_or_is_and_or
from .rules import (
    MARKET_PRICES,
    TRADING_DECISIONS,
    food_needed,
    frame_candidates,
    node_at,
)
from .versions import is_legacy

#: Parts of an action space that only bring goods (they cost nothing and close no option).
GOODS_PARTS = ("take_accumulated", "gain", "gain_if", "gain_per")


def space_name(sid: str) -> Text:
    return text("cv.space_name", space=sid)


def tile_name(tile: str) -> Text:
    return text("cv.tile_name", furnishing=tile)


def good_name(good: str) -> Text:
    return text("cv.good_name", good=good)


ANIMAL_ICONS = {"sheep": "🐑", "donkey": "🐴", "wild_boar": "🐗", "cattle": "🐄", "dog": "🐕"}


def cell_view(
    cell: dict[str, Any],
    animals_here: dict[str, int],
    index: int | None = None,
    legacy: bool = False,
) -> dict[str, Any]:
    kind = cell["k"]
    room = kind == "room"
    short = text("cv.cell_short", short=kind) if kind in texts.CELL_SHORT else ""
    out = {
        "kind": kind,
        "label": tile_name(cell["tile"]) if room else text("cv.cell", cell=kind),
        "short": tile_name(cell["tile"]) if room else short,
        "forest": kind in B.FOREST_KINDS,
        "stable": cell["st"],
        "effect": texts.tile_effect_text(cell["tile"], legacy) if room else "",
        "covers": tile_name(cell["under"]) if room and cell.get("under") else "",
        "animals": animals_here,
        "animal_icons": [
            {"icon": ANIMAL_ICONS[a], "n": n, "name": good_name(a)}
            for a, n in animals_here.items()
            if n
        ],
    }
    if index is not None:
        out["x"], out["y"] = B.xy(index)
        bonus = B.BONUS.get(index)
        if bonus and kind in ("forest", "rock"):
            out["bonus"] = text("cv.goods", goods=[text("cv.plus_amount", n=v, good=g)
                                                   for g, v in bonus.items()])
    if kind == "field":
        out["crop"] = cell.get("crop")
        out["crop_count"] = cell.get("n", 0)
        if out["crop"]:
            out["crop_text"] = text("cv.amount", n=out["crop_count"], good=out["crop"])
    if kind == "room":
        out["tile"] = cell["tile"]
    return out


def player_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    p = state["players"][seat]
    arrangement = animal_rules.arrange(p["cells"], len(p["dwarfs"]), p["animals"])
    cells = [
        cell_view(c, arrangement["cells"].get(str(i), {}), i, is_legacy(state))
        for i, c in enumerate(p["cells"])
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
        "goods": [{"good": g, "n": n, "text": text("cv.amount", n=n, good=g)}
                  for g, n in p["supply"].items() if n],
        "animal_counts": [
            {"animal": good_name(a), "icon": ANIMAL_ICONS[a], "n": n}
            for a, n in p["animals"].items()
            if n
        ],
        "armed": sum(1 for d in p["dwarfs"] if d["w"]),
        # Goods still to come from supplier tiles, one per round start.
        "deliveries": [
            {"good": d["good"], "good_name": good_name(d["good"]), "rounds_left": d["left"]}
            for d in p.get("deliveries", [])
        ],
    }


def decision_view(state: dict[str, Any]) -> dict[str, Any] | None:
    if state["phase"] == "over" or not state["stack"]:
        return None
    task = state["stack"][-1]
    out = {
        "kind": task["t"],
        "seat": task.get("seat"),
        "text": texts.decision_text(task["t"]),
    }
    if task["t"] in ("frame", "imitate") or "src" in task:
        out["space"] = space_name(task["src"]) if task.get("src") else None
    if task["t"] == "expedition":
        out["level"] = task["level"]
        out["taken"] = [text("cv.loot_name", loot=i) for i in task["taken"]]
    if task["t"] == "feed":
        out["food_needed"] = food_needed(state, task["seat"], task["mode"])
    if task["t"] == "frame":
        node = node_at(state, task["src"], task["path"])
        op = node["op"]
        if op == "either_or" and either_or_is_and_or(state, task["seat"]):
            op = "and_or"
        out["op"] = op
        out["parts"] = [
            {"index": k, "goods_only": node["items"][k].get("act") in GOODS_PARTS}
            for k in frame_candidates(state, task)
        ]
    out["trading_allowed"] = task["t"] in TRADING_DECISIONS
    return out


def orders_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The part of `view(state, seat)` that standing orders read: the decision and the seat's own
    supply and animals (the home-board arrangement, the costly part, is left out)."""
    players: list[dict[str, Any] | None] = [None] * state["n"]
    if 0 <= seat < state["n"]:
        p = state["players"][seat]
        players[seat] = {"seat": seat, "supply": dict(p["supply"]),
                         "animals": dict(p["animals"])}
    return {"you": seat, "decision": decision_view(state), "players": players}


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    spaces = []
    for sid in state["order"]:
        s = state["spaces"][sid]
        spaces.append(
            {
                "id": sid,
                "name": space_name(sid),
                "goods": {g: v for g, v in s["goods"].items() if v},
                "goods_text": texts.goods_text({g: v for g, v in s["goods"].items() if v}),
                "occupant": s["occ"],
                "round_card": sid in state["cards"] or sid == "urgent_wish_for_children",
            }
        )
    played = state["rounds"]
    future_cards: dict[str, list[Text]] = {}
    for card in ROUND_CARDS:
        cid = card["id"]
        if state["n"] not in card["player_counts"] or cid in state["cards"]:
            continue
        if cid == "wish_for_children" and "urgent_wish_for_children" in state["spaces"]:
            continue
        future_cards.setdefault(str(card["stage"]), []).append(space_name(cid))
    built = set(state["built"])
    supply_board = [
        {
            "id": tid,
            "name": tile_name(tid),
            "cost": t["cost"],
            "cost_text": texts.goods_text(t["cost"]),
            "points": t["points"],
            "category": t["category"],
            "effect": texts.tile_effect_text(tid, is_legacy(state)),
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
        "recent": [texts.log_text(line) for line in state["log"][-8:]],
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
                {"row": texts.row_text(row), "points": points}
                for row, points in result["breakdown"][seat].items()
            ],
        }
        for seat in range(state["n"])
    ]


def describe(state: dict[str, Any], seat: int, action: Any) -> str:
    return texts.english(texts.describe_text(state, seat, action))
