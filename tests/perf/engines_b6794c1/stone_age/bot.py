"""Time-out defaults (legal and conservative) and a deterministic heuristic bot.

Both only ever pick from `rules.legal_actions`, so they are legal by construction.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction

from . import data, rules
from .data import BUILDING_STACKS, BUILDINGS, CARD_SLOTS, CARDS, RESOURCES, VALUE

#: Resolution order: tools first (they help later rolls), then the village, then gathering
#: (resources pay for what follows), then cards and buildings.
RESOLVE_ORDER = ("tool_maker", "field", "hut", "hunting_grounds", "forest", "clay_pit", "quarry",
                 "river", *CARD_SLOTS, *BUILDING_STACKS)


def _cheapest_first(payment: dict[str, int]) -> tuple:
    """Sort key: least total value, then keep the valuable kinds."""
    return (sum(VALUE[k] * payment[k] for k in RESOURCES),
            tuple(-payment[k] for k in RESOURCES))


def _useful_face(state: dict, seat: int, face: int) -> bool:
    player = state["players"][seat]
    if face == 6:
        return player["food_track"] < data.MAX_FOOD_TRACK
    if face == 5:
        return player["tools_gained"] < data.MAX_TOOLS_GAINED
    return True


def _pick_die(state: dict, seat: int, legal: list[dict]) -> dict:
    faces = [action["face"] for action in legal]
    useful = [face for face in faces if _useful_face(state, seat, face)] or faces
    return {"type": "pick_die", "face": max(useful)}


def _other_rolls_left(state: dict, seat: int) -> bool:
    return any(loc in data.GATHERING for loc in state["players"][seat]["placed"])


def _tool_choice(state: dict, seat: int, legal: list[dict], *, allow_one_use: bool) -> dict:
    """The best yield for the least tool value; keep tiles when other rolls still follow and
    the gain is small; one-use cards only when `allow_one_use`."""
    pending = state["pending"]
    player = state["players"][seat]
    options = rules.tool_options(player, sum(pending["dice"]), pending["divisor"])
    candidates = [option for option in options if allow_one_use or not option["one_use"]]
    best = max(candidates, key=lambda option: (option["yield"], -option["bonus"],
                                               -len(option["one_use"])))
    if best["bonus"] and _other_rolls_left(state, seat):
        # Spend tiles on this roll only when they buy at least one good per 2 points of tools.
        gain = best["yield"] - options[0]["yield"]
        if gain * 2 < best["bonus"] and pending["good"] == "food":
            best = options[0]
    return {"type": "use_tools", "tiles": best["tiles"], "one_use": best["one_use"]}


def _timeout_placement(state: dict, seat: int, legal: list[dict]) -> dict:
    hunting = [a for a in legal if a["location"] == "hunting_grounds"]
    if hunting:
        return max(hunting, key=lambda a: a["count"])

    def room(action):
        free, _closed = rules.location_status(state, action["location"])
        return (free if free is not None else 99, action["count"])

    return max(legal, key=room)


def _feeding_step(state: dict, seat: int, legal: list[dict]) -> dict:
    pays = [a for a in legal if a["type"] == "pay"]
    if not pays:
        return {"type": "accept_penalty"}
    # Lowest-value resources first: the steps go wood, clay, stone, gold, so take the most.
    return max(pays, key=lambda a: a["amount"])


def timeout_action(state: dict, seat: int) -> dict[str, Any]:
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise IllegalAction(f"Seat {seat} has nothing to decide now.")
    pending = state["pending"]
    if pending is None:
        if state["phase"] == "placement":
            return _timeout_placement(state, seat, legal)
        placed = state["players"][seat]["placed"]
        location = next(loc for loc in RESOLVE_ORDER if loc in placed)
        return {"type": "resolve", "location": location}
    kind = pending["kind"]
    if kind == "tools":
        return _tool_choice(state, seat, legal, allow_one_use=False)
    if kind == "dice_for_all":
        return _pick_die(state, seat, legal)
    if kind in ("buy_card", "buy_building"):
        return {"type": "decline"}
    return _feeding_step(state, seat, legal)


# ----- the bot --------------------------------------------------------------------------------


def _food_need(player: dict) -> int:
    return player["people"] - player["food_track"] - player["food"]


def _placement_score(state: dict, seat: int, action: dict) -> float:
    player = state["players"][seat]
    location = action["location"]
    count = action["count"]
    unplaced = player["unplaced"]
    round_no = state["round"]
    have = player["resources"]
    total_res = sum(have.values())
    if location == "hut":
        if player["people"] >= data.MAX_PEOPLE:
            return -1
        return 30 - 2 * round_no if player["food_track"] + 3 >= player["people"] else 12
    if location == "field":
        return 28 if player["food_track"] < data.MAX_FOOD_TRACK else -1
    if location == "tool_maker":
        return 20 if player["tools_gained"] < 6 else (8 if player["tools_gained"] < 12 else -1)
    if location in CARD_SLOTS:
        cost = data.SLOT_COST[location]
        if total_res < cost:
            return 1
        card = state["display"][CARD_SLOTS.index(location)]
        bonus = 6 if "culture" in CARDS[card]["bottom"] else 4
        return 26 - 4 * cost + bonus
    if location in BUILDING_STACKS:
        stack = state["stacks"][BUILDING_STACKS.index(location)]
        building = stack[0]
        if not rules.building_affordable(have, building):
            return 0.5
        cost = BUILDINGS[building]["cost"]
        points = BUILDINGS[building]["points"] or (
            min(7, total_res) * 4 if cost["type"] == "any" else cost["count"] * 4)
        return 10 + points
    good, divisor = data.GATHERING[location]
    expected = 3.5 * count / divisor
    if good == "food":
        hungry = _food_need(player) > 0
        share = count / max(unplaced, 1)
        return (18 if hungry else 6) + expected - (3 if share < 0.5 and hungry else 0)
    value = VALUE[good]
    # Prefer placing most remaining people on one resource site.
    return 8 + expected * value / 3 + count * 0.5


def _bot_placement(state: dict, seat: int, legal: list[dict]) -> dict:
    def key(action):
        return (_placement_score(state, seat, action), action["count"],
                -rules.BOARD_ORDER.index(action["location"]))

    return max(legal, key=key)


def _bot_buy_building(state: dict, seat: int, legal: list[dict]) -> dict:
    buys = [a for a in legal if a["type"] == "buy_building"]
    if buys:
        return max(buys, key=lambda a: sum(VALUE[k] * a["pay"][k] for k in RESOURCES))
    pays = [a for a in legal if a["type"] == "pay"]
    if pays:
        player = state["players"][seat]
        # Aim at the most valuable resources up to 7, keeping enough to cover a food shortfall.
        budget = min(7, max(1, sum(player["resources"].values()) - max(0, _food_need(player))))
        target = dict.fromkeys(RESOURCES, 0)
        for kind in reversed(RESOURCES):
            target[kind] = min(player["resources"][kind], budget)
            budget -= target[kind]
        kind = pays[0]["resource"]
        best = min(pays, key=lambda a: abs(a["amount"] - target[kind]))
        return best
    return _bot_two_resources(state, seat, legal) or {"type": "decline"}


def _bot_two_resources(state: dict, seat: int, legal: list[dict]) -> dict | None:
    """Use the two-resources card when it turns an unpayable price into a payable one."""
    uses = [a for a in legal if a["type"] == "use_two_resources"]
    if not uses:
        return None
    for action in sorted(uses, key=lambda a: [-a["take"][k] for k in reversed(RESOURCES)]):
        after = rules.apply_action(state, seat, action)
        if any(a["type"] in ("buy_card", "buy_building", "pay")
               for a in rules.legal_actions(after, seat)):
            return action
    return None


def bot_action(state: dict, seat: int) -> dict[str, Any]:
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise IllegalAction(f"Seat {seat} has nothing to decide now.")
    pending = state["pending"]
    if pending is None:
        if state["phase"] == "placement":
            return _bot_placement(state, seat, legal)
        placed = state["players"][seat]["placed"]
        location = next(loc for loc in RESOLVE_ORDER if loc in placed)
        return {"type": "resolve", "location": location}
    kind = pending["kind"]
    if kind == "tools":
        return _tool_choice(state, seat, legal, allow_one_use=True)
    if kind == "dice_for_all":
        return _pick_die(state, seat, legal)
    if kind == "buy_card":
        buys = [a for a in legal if a["type"] == "buy_card"]
        if buys:
            return min(buys, key=lambda a: _cheapest_first(a["pay"]))
        return _bot_two_resources(state, seat, legal) or {"type": "decline"}
    if kind == "buy_building":
        return _bot_buy_building(state, seat, legal)
    pays = [a for a in legal if a["type"] == "pay"]
    if not pays:
        return _bot_two_resources(state, seat, legal) or {"type": "accept_penalty"}
    return _feeding_step(state, seat, legal)
