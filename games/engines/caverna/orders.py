"""Standing orders: routine Caverna decisions a player may answer in advance.

`choose` sees only the seat's own view (everything on the table is public in Caverna; the view
leaves out future round cards and face-down harvest markers), the listed legal actions and the
orders, and returns one of those actions or None ("ask me"). It never builds an action of its
own, so an order cannot play something illegal.
"""

from __future__ import annotations

from typing import Any

from games.engines.texts import text

from . import rules
from .data import SPACES

ASK = {"value": "ask", "label": "Ask me"}

#: Food per unit converted (the food table), and animals from least to most valuable.
FOOD = {"grain": 1, "vegetable": 2, "sheep": 1, "donkey": 1, "wild_boar": 2, "cattle": 3,
        "ruby": 2}
FARM_BY_VALUE = ("sheep", "donkey", "wild_boar", "cattle")
#: What each feeding order converts, in order, before it begs for the rest.
FEEDING_GOODS = {
    "crops_animals": ("grain", "vegetable", *FARM_BY_VALUE),
    "crops_only": ("grain", "vegetable"),
    "everything": ("grain", "vegetable", *FARM_BY_VALUE, "gold", "ruby"),
}

ORDERS: list[dict[str, Any]] = [
    {
        "name": "feeding",
        "label": "Feeding and begging",
        "help": "What to convert to food at a feeding, in order; begging markers only for "
                "what is still missing.",
        "default": "crops_animals",
        "choices": [
            {"value": "crops_animals", "label": "Grain, then vegetables, then spare animals "
                                                "(never the last of a kind); then beg"},
            {"value": "crops_only", "label": "Grain and vegetables only; beg rather than give "
                                             "up animals"},
            {"value": "everything", "label": "Grain, vegetables, spare animals, gold, then "
                                             "rubies; beg only when nothing is left"},
            ASK,
        ],
    },
    {
        "name": "breeding",
        "label": "When not every newborn fits",
        "help": "Whether to convert a lone animal to make room before breeding, and which "
                "newborns to keep.",
        "default": "keep_valuable",
        "choices": [
            {"value": "keep_valuable", "label": "Breed at once and keep the most (and most "
                                                "valuable) newborns"},
            ASK,
        ],
    },
    {
        "name": "action_parts",
        "label": "Goods on an action space",
        "help": "On a space with several parts, take the parts that only bring goods first "
                "(they cost nothing); the rest is still my choice.",
        "default": "goods_first",
        "choices": [
            {"value": "goods_first", "label": "Take the goods first, then ask"},
            ASK,
        ],
    },
    {
        "name": "overflow",
        "label": "When my animals do not fit",
        "help": "Which animal to give up (it is converted to food, never released for "
                "nothing).",
        "default": "largest_herd",
        "choices": [
            {"value": "largest_herd", "label": "Convert one from my largest herd"},
            {"value": "least_valuable", "label": "Convert the least valuable "
                                                 "(sheep, donkey, wild boar, cattle)"},
            ASK,
        ],
    },
]


def _listed(legal: list[dict], wanted: dict) -> dict | None:
    """The listed action that is `wanted` (the listed object itself, never a copy)."""
    return next((action for action in legal if action == wanted), None)


def _feeding(order: str, me: dict, decision: dict, legal: list[dict]) -> dict | None:
    goods = FEEDING_GOODS.get(order)
    if goods is None:
        return None
    plain_feed = _listed(legal, {"type": "feed"})
    if plain_feed is None:
        return None
    missing = decision.get("food_needed", 0) - me["supply"].get("food", 0)
    if missing <= 0:
        return plain_feed
    for good in goods:
        if good == "gold":
            golds = [a for a in legal if a["type"] == "convert" and a.get("from") == "gold"]
            if golds:
                return min(golds, key=lambda a: (abs(a["amount"] - 1 - missing), a["amount"]))
            continue
        if good in FARM_BY_VALUE and me["animals"].get(good, 0) <= 1:
            continue  # the last of a kind costs more points than its food is worth
        action = _listed(legal, {"type": "convert", "from": good})
        if action is not None:
            return action
    return plain_feed  # begging markers for the rest


def _breed_value(types: list[str]) -> tuple:
    return (len(types), sum(FOOD.get(t, 0) for t in types), sorted(types))


def _breeding(order: str, kind: str, legal: list[dict]) -> dict | None:
    if order != "keep_valuable":
        return None
    if kind == "breed_room":
        return next((a for a in legal if a["type"] == "breed_now"), None)
    breeds = [a for a in legal if a["type"] == "breed"]
    return max(breeds, key=lambda a: _breed_value(a["types"])) if breeds else None


def _overflow(order: str, me: dict, legal: list[dict]) -> dict | None:
    converts = [a for a in legal if a["type"] == "convert" and a.get("from") in FARM_BY_VALUE]
    if not converts:
        return None
    if order == "largest_herd":
        return max(converts, key=lambda a: (me["animals"][a["from"]],
                                            -FARM_BY_VALUE.index(a["from"])))
    if order == "least_valuable":
        return min(converts, key=lambda a: FARM_BY_VALUE.index(a["from"]))
    return None


def _goods_part(order: str, decision: dict, legal: list[dict]) -> dict | None:
    """The first part that only brings goods, when taking it first closes no other part: any
    part of an "and/or" space, else only the earliest part still open."""
    if order != "goods_first":
        return None
    parts = decision.get("parts") or []
    op = decision.get("op")
    if op == "and_or":
        wanted = next((part for part in parts if part["goods_only"]), None)
    elif op in ("and_then_or", "and_then") and parts and parts[0]["goods_only"]:
        wanted = parts[0]
    else:
        return None
    if wanted is None:
        return None
    return _listed(legal, {"type": "part", "index": wanted["index"]})


def choose(view: dict[str, Any], legal: list[dict], orders: dict[str, str]) -> dict | None:
    """The action the orders play for the viewer's decision in `view`, or None."""
    decision = view.get("decision")
    viewer = view.get("you")
    if not decision or viewer is None or decision.get("seat") != viewer:
        return None
    me = view["players"][viewer]
    kind = decision["kind"]
    if kind == "feed":
        return _feeding(orders.get("feeding", "ask"), me, decision, legal)
    if kind in ("breed_room", "breed_choice"):
        return _breeding(orders.get("breeding", "ask"), kind, legal)
    if kind == "overflow":
        return _overflow(orders.get("overflow", "ask"), me, legal)
    if kind == "frame":
        return _goods_part(orders.get("action_parts", "ask"), decision, legal)
    return None


def queue_suggestions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The action spaces the seat's next dwarf could go to were it its turn now (boards and
    supplies are public), for queuing its next placement while it waits."""
    if state["phase"] != "work" or not 0 <= seat < state["n"]:
        return []
    if state["stack"] and state["stack"][-1].get("seat") == seat:
        return []  # its decision is at hand
    player = state["players"][seat]
    dwarf = rules.default_dwarf(player)
    if dwarf is None:
        return []
    return [{"action": {"type": "place", "space": sid},
             "label": f"A dwarf on {SPACES[sid]['name']}",
             "text": text("cv.queue_place", space=sid)}
            for sid in rules.placements(state, seat, dwarf)]
