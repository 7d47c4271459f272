"""What each seat (or a spectator) may see, and log sentences redacted for the viewer.

Built explicitly from the state: never the seed or RNG counter, never the deck order or the
tiles below a stack's top, and other tribes' face-down civilization cards only as a count.
Every word a player reads is a text (a message key with parameters, games.engines.texts) that
the presentation layer renders in the reader's language.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction
from games.engines.texts import Text, sentences, text

from . import data, rules, scoring, texts
from .data import BUILDING_STACKS, BUILDINGS, CARD_SLOTS, CARDS, RESOURCES


def card_view(card_id: str) -> dict[str, Any]:
    return {"id": card_id, "name": text("sa.card_name", card=card_id),
            "top": texts.card_top(card_id), "bottom": texts.card_bottom(card_id)}


def building_view(building_id: str) -> dict[str, Any]:
    building = BUILDINGS[building_id]
    points = building["points"]
    return {"id": building_id, "cost": text("sa.building_name", building=building_id),
            "cost_type": building["cost"]["type"],
            "points": points if points is not None else text("sa.points_paid")}


def describe(state: dict, seat: int, action: dict, viewer: int | None = None) -> str:
    """What the action does, in words every viewer may read.

    The service shows these sentences both in the log and next to each choice *before* it is
    made, so they come from replaying the action on a copy, which is safe only because actions
    draw nothing at random (dice are separate chance steps, see `describe_resolution`) and the
    sentence never names a card drawn face down (its owner reads it in the view)."""
    return texts.english(describe_text(state, seat, action, viewer))


def describe_resolution(state: dict, viewer: int | None = None) -> str:
    """The dice roll that `resolve` makes now, with every die: rolls are public once rolled,
    and no player chooses a chance step, so nothing is revealed early."""
    return texts.english(resolution_text(state, viewer))


def _decision(state: dict, viewer: int | None) -> dict[str, Any] | None:
    """The decision at hand, in words (a text) and numbers the board template shows."""
    pending = state["pending"]
    if state["phase"] == "over":
        return None
    active = rules.active_seats(state)
    if pending is None:
        if state["phase"] == "placement":
            return {"kind": "placement", "seat": active[0],
                    "text": text("sa.decision_placement", seat=active[0])}
        return {"kind": "resolve", "seat": active[0],
                "text": text("sa.decision_resolve", seat=active[0])}
    kind = pending["kind"]
    if kind == "roll":
        return {"kind": "roll", "seat": pending["seat"], "count": pending["count"],
                "text": text("sa.decision_roll", count=pending["count"], seat=pending["seat"])}
    if kind == "tools":
        player = state["players"][pending["seat"]]
        total = sum(pending["dice"])
        options = rules.tool_options(player, total, pending["divisor"])
        return {
            "kind": "tools", "seat": pending["seat"], "dice": list(pending["dice"]),
            "total": total, "divisor": pending["divisor"], "good": pending["good"],
            "yield_without_tools": total // pending["divisor"],
            "options": [{"tiles": option["tiles"],
                         "one_use": [CARDS[c]["top"]["value"] for c in option["one_use"]],
                         "bonus": option["bonus"], "yield": option["yield"]}
                        for option in options],
            "text": text("sa.decision_tools", seat=pending["seat"], dice=list(pending["dice"]),
                         total=total, good=pending["good"], divisor=pending["divisor"]),
        }
    if kind == "dice_for_all":
        return {"kind": "dice_for_all", "seat": pending["order"][0], "buyer": pending["buyer"],
                "dice": list(pending["dice"]), "order": list(pending["order"]),
                "items": {str(face): texts.die_item(face) for face in pending["dice"]},
                "text": text("sa.decision_dice_for_all", seat=pending["order"][0],
                             dice=list(pending["dice"]))}
    if kind == "buy_card":
        return {"kind": "buy_card", "seat": pending["seat"], "card": card_view(pending["card"]),
                "cost": data.SLOT_COST[pending["location"]],
                "text": text("sa.decision_buy_card", seat=pending["seat"], card=pending["card"],
                             cost=data.SLOT_COST[pending["location"]])}
    if kind == "buy_building":
        return {"kind": "buy_building", "seat": pending["seat"],
                "building": building_view(pending["building"]),
                "chosen": dict(pending["chosen"]) if pending["step"] else None,
                "text": text("sa.decision_buy_building", seat=pending["seat"],
                             building=pending["building"])}
    return {"kind": "feeding", "seat": pending["seat"], "shortfall": pending["shortfall"],
            "chosen": dict(pending["chosen"]),
            "text": text("sa.decision_feeding", seat=pending["seat"],
                         shortfall=pending["shortfall"])}


def _player_view(state: dict, seat: int, viewer: int | None) -> dict[str, Any]:
    player = state["players"][seat]
    over = state["phase"] == "over"
    face_up = player["one_use"] + player["two_resources"]
    entry: dict[str, Any] = {
        "seat": seat,
        "is_viewer": seat == viewer,
        "is_first_player": seat == state["first_player"],
        "people": player["people"],
        "unplaced": player["unplaced"] if state["phase"] == "placement" else None,
        "food": player["food"],
        "food_track": player["food_track"],
        "score": player["score"],
        "resources": dict(player["resources"]),
        "resource_total": sum(player["resources"].values()),
        "tools": [dict(tile) for tile in player["tools"]],
        "tool_total": scoring.tool_value(player),
        "buildings": [{"id": b["id"], "cost": text("sa.building_name", building=b["id"]),
                       "points": b["points"]} for b in player["buildings"]],
        "building_count": len(player["buildings"]),
        "card_count": len(player["cards"]),
        "face_up_cards": [card_view(card_id) for card_id in face_up],
        "placed": [{"location": loc, "name": text("sa.location_name", location=loc),
                    "count": count}
                   for loc, count in player["placed"].items()],
        "feeding_penalties": player["points"]["penalties"],
    }
    if seat == viewer or over:
        entry["cards"] = [card_view(card_id) for card_id in player["cards"]]
        figures = scoring.multiplier_figures(player["cards"])
        entry["card_summary"] = {
            "green_points_now": scoring.green_points(player["cards"]),
            "multipliers": figures,
        }
    else:
        entry["cards"] = None
    return entry


def view(state: dict, viewer: int | None) -> dict[str, Any]:
    num = state["num_players"]
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < num):
        viewer = None
    locations = []
    occupied = rules.occupancy(state)
    for location in rules.active_locations(state):
        free, closed = rules.location_status(state, location, occupied)
        here = occupied.get(location, {})
        entry: dict[str, Any] = {
            "id": location,
            "name": text("sa.location_name", location=location),
            "people": [{"seat": seat, "count": count} for seat, count in here.items()],
            "free": free,
            "closed": (texts.closed_text(closed, num) if state["phase"] == "placement"
                       else None),
        }
        if location in data.GATHERING:
            entry["yields"], entry["divisor"] = data.GATHERING[location]
        if location in CARD_SLOTS:
            card = state["display"][CARD_SLOTS.index(location)]
            entry["cost"] = data.SLOT_COST[location]
            entry["card"] = card_view(card) if card else None
        if location in BUILDING_STACKS:
            stack = state["stacks"][BUILDING_STACKS.index(location)]
            entry["height"] = len(stack)
            entry["top"] = building_view(stack[0]) if stack else None
        locations.append(entry)
    result = scoring.result(state) if state["phase"] == "over" else None
    return {
        "game": "stone_age",
        "round": state["round"],
        "phase": state["phase"],
        "num_players": num,
        "first_player": state["first_player"],
        "viewer": viewer,
        "active_seats": rules.active_seats(state),
        "decision": _decision(state, viewer),
        "locations": locations,
        "display": [entry for entry in locations if entry["id"] in CARD_SLOTS],
        "building_stacks": [entry for entry in locations if entry["id"] in BUILDING_STACKS],
        "deck_size": len(state["deck"]),
        "last_round": state["last_stack_emptied"],
        "players": [_player_view(state, seat, viewer) for seat in range(num)],
        "log": [texts.entry_text(entry, viewer) for entry in state["log"]],
        "resources_order": list(RESOURCES),
        "ended_by": state["ended_by"],
        "result": result,
    }


def describe_text(state: dict, seat: int, action: dict, viewer: int | None = None) -> Text:
    """`describe` as a text (the same replay; see view.describe for why it is safe)."""
    try:
        after = rules.apply_action(state, seat, action)
    except IllegalAction:
        return text("sa.illegal", seat=seat)
    parts = [entry["text"] for entry in after["last"]]
    if action.get("type") == "use_tools":
        total = sum(state["pending"]["dice"])
        used: list[Any] = list(action["tiles"]) + [
            text("sa.one_use", value=CARDS[card]["top"]["value"]) for card in action["one_use"]]
        parts.insert(0, text("sa.adds_tools", seat=seat, tools=used, total=total) if used
                     else text("sa.adds_no_tools", seat=seat, total=total))
    elif action.get("type") == "pay" and after["pending"] is not None and (
            after["pending"].get("kind") == state["pending"]["kind"]
            and after["pending"].get("seat") == seat):
        parts.insert(0, text("sa.sets_aside", seat=seat, amount=action["amount"],
                             good=action["resource"]))
    if not parts:
        return text("sa.acts", seat=seat)
    return sentences(parts)


def resolution_text(state: dict, viewer: int | None = None) -> Text:
    """`describe_resolution` as a text: the dice rolled, each line as `viewer` may read it."""
    try:
        after = rules.resolve(state)
    except IllegalAction:
        return text("sa.nothing_resolved")
    parts = [texts.entry_text(entry, viewer) for entry in after["last"]]
    return sentences(parts) if parts else text("sa.dice_rolled")
