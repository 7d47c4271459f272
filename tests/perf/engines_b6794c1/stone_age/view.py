"""What each seat (or a spectator) may see, and log sentences redacted for the viewer.

Built explicitly from the state: never the seed or RNG counter, never the deck order or the
tiles below a stack's top, and other tribes' face-down civilization cards only as a count.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction

from . import data, rules, scoring
from .data import BUILDING_STACKS, BUILDINGS, CARD_SLOTS, CARDS, RESOURCES


def card_view(card_id: str) -> dict[str, Any]:
    card = CARDS[card_id]
    return {"id": card_id, "name": card["name"], "top": data.card_text(card_id),
            "bottom": data.bottom_text(card_id)}


def building_view(building_id: str) -> dict[str, Any]:
    building = BUILDINGS[building_id]
    points = building["points"]
    return {"id": building_id, "cost": building["name"], "cost_type": building["cost"]["type"],
            "points": points if points is not None else "value of the resources paid"}


def _entry_text(entry: dict, viewer: int | None) -> str:
    if viewer is not None and entry.get("seat") == viewer and "private" in entry:
        return entry["private"]
    return entry["text"]


def describe(state: dict, seat: int, action: dict, viewer: int | None = None) -> str:
    """What the action does, in words every viewer may read.

    The service shows these sentences both in the log and next to each choice *before* it is
    made, so they come from replaying the action on a copy, which is safe only because actions
    draw nothing at random (dice are separate chance steps, see `describe_resolution`) and the
    sentence never names a card drawn face down (its owner reads it in the view)."""
    try:
        after = rules.apply_action(state, seat, action)
    except IllegalAction:
        return f"{rules.seat_name(seat)} tried an action that is not legal."
    texts = [entry["text"] for entry in after["last"]]
    if action.get("type") == "use_tools":
        pending = state["pending"]
        used = list(map(str, action["tiles"])) + [
            f"one-use {CARDS[c]['top']['value']}" for c in action["one_use"]]
        lead = (f"{rules.seat_name(seat)} adds tools {' + '.join(used)} to the roll of "
                f"{sum(pending['dice'])}." if used
                else f"{rules.seat_name(seat)} adds no tools to the roll of "
                     f"{sum(pending['dice'])}.")
        texts.insert(0, lead)
    elif action.get("type") == "pay" and after["pending"] is not None and (
            after["pending"].get("kind") == state["pending"]["kind"]
            and after["pending"].get("seat") == seat):
        texts.insert(0, f"{rules.seat_name(seat)} sets aside {action['amount']} "
                        f"{action['resource']} for the payment.")
    if not texts:
        return f"{rules.seat_name(seat)} acts."
    return " ".join(texts)


def describe_resolution(state: dict, viewer: int | None = None) -> str:
    """The dice roll that `resolve` makes now, with every die: rolls are public once rolled,
    and no player chooses a chance step, so nothing is revealed early."""
    try:
        after = rules.resolve(state)
    except IllegalAction:
        return "Nothing was resolved."
    return " ".join(_entry_text(entry, viewer) for entry in after["last"]) or "Dice rolled."


def _decision(state: dict, viewer: int | None) -> dict[str, Any] | None:
    """The decision at hand, in words and numbers the board template shows."""
    pending = state["pending"]
    if state["phase"] == "over":
        return None
    active = rules.active_seats(state)
    if pending is None:
        if state["phase"] == "placement":
            return {"kind": "placement", "seat": active[0],
                    "text": f"{rules.seat_name(active[0])} places people."}
        return {"kind": "resolve", "seat": active[0],
                "text": f"{rules.seat_name(active[0])} chooses the next location to resolve."}
    kind = pending["kind"]
    if kind == "roll":
        return {"kind": "roll", "seat": pending["seat"], "count": pending["count"],
                "text": f"Rolling {pending['count']} dice for {rules.seat_name(pending['seat'])}…"}
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
            "text": (f"{rules.seat_name(pending['seat'])} rolled "
                     f"{', '.join(map(str, pending['dice']))} = {total} for {pending['good']} "
                     f"(÷{pending['divisor']}) and chooses tools."),
        }
    if kind == "dice_for_all":
        return {"kind": "dice_for_all", "seat": pending["order"][0], "buyer": pending["buyer"],
                "dice": list(pending["dice"]), "order": list(pending["order"]),
                "items": {str(face): data.DICE_FOR_ALL_TEXT[face] for face in pending["dice"]},
                "text": (f"{rules.seat_name(pending['order'][0])} picks one of the dice "
                         f"{', '.join(map(str, pending['dice']))}.")}
    if kind == "buy_card":
        return {"kind": "buy_card", "seat": pending["seat"], "card": card_view(pending["card"]),
                "cost": data.SLOT_COST[pending["location"]],
                "text": (f"{rules.seat_name(pending['seat'])} may buy "
                         f"{CARDS[pending['card']]['name']} for "
                         f"{data.SLOT_COST[pending['location']]} resource(s).")}
    if kind == "buy_building":
        return {"kind": "buy_building", "seat": pending["seat"],
                "building": building_view(pending["building"]),
                "chosen": dict(pending["chosen"]) if pending["step"] else None,
                "text": (f"{rules.seat_name(pending['seat'])} may buy the building "
                         f"({BUILDINGS[pending['building']]['name']}).")}
    return {"kind": "feeding", "seat": pending["seat"], "shortfall": pending["shortfall"],
            "chosen": dict(pending["chosen"]),
            "text": (f"{rules.seat_name(pending['seat'])} is {pending['shortfall']} food short: "
                     "pay with resources or lose 10 points.")}


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
        "buildings": [{"id": b["id"], "cost": BUILDINGS[b["id"]]["name"], "points": b["points"]}
                      for b in player["buildings"]],
        "building_count": len(player["buildings"]),
        "card_count": len(player["cards"]),
        "face_up_cards": [card_view(card_id) for card_id in face_up],
        "placed": [{"location": loc, "name": data.LOCATION_NAMES[loc], "count": count}
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
            "name": data.LOCATION_NAMES[location],
            "people": [{"seat": seat, "count": count} for seat, count in here.items()],
            "free": free,
            "closed": closed if state["phase"] == "placement" else None,
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
        "log": [_entry_text(entry, viewer) for entry in state["log"]],
        "resources_order": list(RESOURCES),
        "ended_by": state["ended_by"],
        "result": result,
    }
