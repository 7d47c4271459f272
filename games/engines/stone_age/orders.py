"""Standing orders: routine Stone Age decisions a player may answer in advance.

`choose` sees only what the seat sees (its own view), the listed legal actions and the orders,
and returns one of those actions or None ("ask me"). It never builds an action of its own, so
an order can never play something illegal, and never reads the state, so it cannot use the
deck order or another tribe's face-down cards.
"""

from __future__ import annotations

from typing import Any

from games.engines.texts import text

from . import rules
from .bot import RESOLVE_ORDER
from .data import LOCATION_NAMES, RESOURCES, VALUE


def _paid_value(pay: dict[str, int]) -> tuple:
    """Least total value first; among equals keep the valuable kinds."""
    return (sum(VALUE[kind] * pay.get(kind, 0) for kind in RESOURCES),
            tuple(-pay.get(kind, 0) for kind in reversed(RESOURCES)))


def _feeding(order: str, decision: dict, me: dict, legal: list[dict]) -> dict | None:
    penalty = next((a for a in legal if a["type"] == "accept_penalty"), None)
    if order == "penalty":
        return penalty
    if order == "keep_gold":
        pays = [a for a in legal if a["type"] == "pay"]
        if not pays:
            return None
        # Resources already set aside count; the steps still open run up to gold.
        step = RESOURCES.index(pays[0]["resource"])
        chosen = decision.get("chosen") or {}
        without_gold = sum(chosen.get(kind, 0) for kind in RESOURCES[:step]) + sum(
            me["resources"][kind] for kind in RESOURCES[step:-1])
        if without_gold < decision["shortfall"]:
            return penalty if step == 0 else None  # a payment begun is the player's own
        return max(pays, key=lambda a: a["amount"])
    if order == "cheapest":
        # The steps run wood, clay, stone, gold: taking the most of each kind pays cheapest.
        pays = [a for a in legal if a["type"] == "pay"]
        return max(pays, key=lambda a: a["amount"]) if pays else None
    return None


def _tools(order: str, decision: dict, legal: list[dict]) -> dict | None:
    uses = [a for a in legal if a["type"] == "use_tools"]
    options = decision.get("options") or []
    if len(options) != len(uses) or not uses:
        return None
    pairs = list(zip(options, uses, strict=True))
    if any(option["tiles"] != action["tiles"] for option, action in pairs):
        return None  # the view and the listed actions disagree: leave it to the player
    if order == "never":
        return next((action for option, action in pairs if not option["bonus"]), None)
    if order == "next_resource":
        base = decision["yield_without_tools"]
        better = [(option, action) for option, action in pairs if option["yield"] > base]
        if not better:
            return next((action for option, action in pairs if not option["bonus"]), None)
        least = min(option["yield"] for option, _ in better)
        _option, action = min(((o, a) for o, a in better if o["yield"] == least),
                              key=lambda pair: (pair[0]["bonus"], len(pair[0]["one_use"])))
        return action
    return None


def _purchase(order: str, decision: dict, legal: list[dict]) -> dict | None:
    if order == "ask":
        return None
    decline = next((a for a in legal if a["type"] == "decline"), None)
    buys = [a for a in legal if a["type"] in ("buy_card", "buy_building")]
    steps = [a for a in legal if a["type"] == "pay"]
    if not buys and not steps:
        return decline  # only the two-resources card could pay: my resources do not cover it
    if order == "buy_cheapest" and buys:
        return min(buys, key=lambda a: _paid_value(a["pay"]))
    return None


def _resolve_next(legal: list[dict]) -> dict | None:
    resolves = {a["location"]: a for a in legal if a["type"] == "resolve"}
    return next((resolves[loc] for loc in RESOLVE_ORDER if loc in resolves), None)


def choose(view: dict[str, Any], legal: list[dict], orders: dict[str, str]) -> dict | None:
    """The action the orders play for the viewer's decision in `view`, or None."""
    decision = view.get("decision")
    viewer = view.get("viewer")
    if not decision or viewer is None or decision.get("seat") != viewer:
        return None
    kind = decision["kind"]
    if kind == "feeding":
        return _feeding(orders.get("feeding", "ask"), decision, view["players"][viewer], legal)
    if kind == "tools":
        return _tools(orders.get("tools", "ask"), decision, legal)
    if kind in ("buy_card", "buy_building"):
        return _purchase(orders.get("purchases", "ask"), decision, legal)
    if kind == "resolve" and orders.get("resolve_order") == "village_first":
        return _resolve_next(legal)
    return None


def queue_suggestions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The placements the seat could make were it its turn now (the board and its own people
    are public), for queuing its next placement while it waits."""
    if (state["phase"] != "placement" or not 0 <= seat < state["num_players"]
            or state["players"][seat]["unplaced"] <= 0 or seat in rules.active_seats(state)):
        return []
    out = []
    for action in rules.placement_actions(state, seat):
        people = "person" if action["count"] == 1 else "people"
        out.append({"action": action, "label": f"{action['count']} {people} on the "
                                               f"{LOCATION_NAMES[action['location']]}",
                    "text": text("sa.queue_place", count=action["count"],
                                 location=action["location"])})
    return out
