"""Stone Age rules: set-up, whose decision it is, the legal actions and their effects.

Everything here works on the plain-dict state described in docs/rules/stone_age.md. Functions
named `_do_*` change the copy of the state that `apply_action` owns; nothing touches its input.
"""

from __future__ import annotations

import marshal
from itertools import combinations
from typing import Any

from ..base import IllegalAction, SeededRandom, new_rng_state

from . import data
from .data import (
    BUILDING_STACKS,
    BUILDINGS,
    CARD_SLOTS,
    CARDS,
    GATHERING,
    RESOURCE_LOCATIONS,
    RESOURCES,
    VALUE,
    VILLAGE,
)

State = dict[str, Any]
Action = dict[str, Any]

#: The order in which locations are listed (and the board is drawn).
BOARD_ORDER = (
    "hunting_grounds", "forest", "clay_pit", "quarry", "river",
    "tool_maker", "hut", "field",
    *CARD_SLOTS, *BUILDING_STACKS,
)

#: Every way to take 2 resources with the two-resources card (same kind or two kinds).
TWO_RESOURCE_TAKES: list[dict[str, int]] = []
for _i, _first in enumerate(RESOURCES):
    for _second in RESOURCES[_i:]:
        _take = dict.fromkeys(RESOURCES, 0)
        _take[_first] += 1
        _take[_second] += 1
        TWO_RESOURCE_TAKES.append(_take)

LOG_KEEP = 20


def copy_state(state: State) -> State:
    """A deep copy of a plain JSON-like state (marshal is a fast, exact round trip for it)."""
    return marshal.loads(marshal.dumps(state))


def no_resources() -> dict[str, int]:
    return dict.fromkeys(RESOURCES, 0)


# ----- set-up ---------------------------------------------------------------------------------


def new_game(num_players: int, seed: str, options: dict[str, Any]) -> State:
    rng = SeededRandom(seed)
    deck = rng.shuffled(list(data.CARD_IDS))
    tiles = rng.shuffled(list(data.BUILDING_IDS))
    # Four stacks of seven; only one stack per player stays in the game, the rest go back to
    # the box unseen (they are simply not kept).
    stacks = [tiles[i * data.STACK_HEIGHT:(i + 1) * data.STACK_HEIGHT] for i in range(num_players)]
    display = [deck.pop(0) for _ in range(data.DISPLAY_SLOTS)]  # slot 1 (rightmost) first
    players = []
    for _seat in range(num_players):
        players.append({
            "people": data.START_PEOPLE,
            "unplaced": data.START_PEOPLE,
            "food": data.START_FOOD,
            "food_track": 0,
            "score": 0,
            "resources": no_resources(),
            "tools_gained": 0,
            "tools": [],
            "cards": [],
            "one_use": [],
            "two_resources": [],
            "buildings": [],
            "placed": {},
            "points": {"buildings": 0, "cards": 0, "penalties": 0},
        })
    state: State = {
        "rng": new_rng_state(seed),
        "num_players": num_players,
        "options": dict(options),
        "round": 1,
        "first_player": 0,
        "phase": "placement",
        "turn": 0,
        "pending": None,
        "action_queue": [],
        "feeding_queue": [],
        "deck": deck,
        "display": display,
        "stacks": stacks,
        "players": players,
        "last_stack_emptied": False,
        "ended_by": None,
        "log": [],
        "last": [],
    }
    rng.save(state)
    return state


# ----- small helpers --------------------------------------------------------------------------


def seat_name(seat: int) -> str:
    return f"Seat {seat}"


def pay_text(pay: dict[str, int]) -> str:
    parts = [f"{pay[kind]} {kind}" for kind in RESOURCES if pay.get(kind)]
    return " + ".join(parts) if parts else "nothing"


def event(state: State, seat: int | None, text: str, private: str | None = None) -> None:
    """Record what happened: `text` for everyone, `private` (if given) for `seat` only."""
    entry: dict[str, Any] = {"seat": seat, "text": text}
    if private is not None:
        entry["private"] = private
    state["last"].append(entry)
    log = state["log"]
    log.append(entry)
    if len(log) > LOG_KEEP:
        del log[: len(log) - LOG_KEEP]


def tool_total(player: dict) -> int:
    return sum(tile["value"] for tile in player["tools"])


def resource_total(player: dict) -> int:
    return sum(player["resources"].values())


def gain_tool(player: dict) -> bool:
    """One step of the tool progression; False when already at 4/4/4."""
    if player["tools_gained"] >= data.MAX_TOOLS_GAINED:
        return False
    player["tools_gained"] += 1
    tiles = player["tools"]
    if len(tiles) < 3:
        tiles.append({"value": 1, "used": False})
    else:
        lowest = min(tile["value"] for tile in tiles)
        candidates = [tile for tile in tiles if tile["value"] == lowest]
        # Upgrade an unused tile when there is one: the player would always choose that.
        unused = [tile for tile in candidates if not tile["used"]]
        (unused or candidates)[0]["value"] += 1
    tiles.sort(key=lambda tile: (-tile["value"], tile["used"]))
    return True


def gain_food_track(player: dict) -> bool:
    if player["food_track"] >= data.MAX_FOOD_TRACK:
        return False
    player["food_track"] += 1
    return True


def gain_person(player: dict) -> bool:
    if player["people"] >= data.MAX_PEOPLE:
        return False
    player["people"] += 1
    return True


# ----- placement ------------------------------------------------------------------------------


def occupancy(state: State) -> dict[str, dict[int, int]]:
    """location -> {seat: people} for every location with people on it."""
    found: dict[str, dict[int, int]] = {}
    for seat, player in enumerate(state["players"]):
        for location, count in player["placed"].items():
            found.setdefault(location, {})[seat] = count
    return found


def occupants(state: State, location: str) -> dict[int, int]:
    return occupancy(state).get(location, {})


def location_status(state: State, location: str,
                    occupied: dict[str, dict[int, int]] | None = None
                    ) -> tuple[int | None, str | None]:
    """(free spaces or None for unlimited, reason it is closed to newcomers or None)."""
    if occupied is None:
        occupied = occupancy(state)
    num_players = state["num_players"]
    here = occupied.get(location, {})
    if location == "hunting_grounds":
        return None, None
    if location in RESOURCE_LOCATIONS:
        free = data.RESOURCE_CAPACITY - sum(here.values())
        if free <= 0:
            return 0, "full"
        if len(here) >= data.RESOURCE_COLOURS[num_players]:
            return free, f"closed: only {data.RESOURCE_COLOURS[num_players]} colour(s) allowed"
        return free, None
    capacity = 2 if location == "hut" else 1
    if here:
        return 0, "occupied"
    if location in VILLAGE and num_players < 4:
        used = sum(1 for other in VILLAGE if occupied.get(other))
        if used >= data.VILLAGE_USABLE[num_players]:
            return capacity, "closed: two village locations are already in use"
    if location in CARD_SLOTS and state["display"][CARD_SLOTS.index(location)] is None:
        return 0, "no card"
    if location in BUILDING_STACKS:
        index = BUILDING_STACKS.index(location)
        if index >= len(state["stacks"]) or not state["stacks"][index]:
            return 0, "no building left"
    return capacity, None


#: The locations in play per player count (one building stack per player).
ACTIVE_LOCATIONS = {
    num: tuple(loc for loc in BOARD_ORDER
               if loc not in BUILDING_STACKS or BUILDING_STACKS.index(loc) < num)
    for num in (2, 3, 4)
}


def active_locations(state: State) -> tuple[str, ...]:
    return ACTIVE_LOCATIONS[state["num_players"]]


def placement_counts(state: State, seat: int, location: str,
                     occupied: dict[str, dict[int, int]] | None = None) -> list[int]:
    """The legal numbers of figures `seat` may put on `location` now ([] if none)."""
    player = state["players"][seat]
    unplaced = player["unplaced"]
    if unplaced <= 0 or location in player["placed"]:
        return []
    free, closed = location_status(state, location, occupied)
    if closed:
        return []
    if location == "hunting_grounds":
        return list(range(1, unplaced + 1))
    if location in RESOURCE_LOCATIONS:
        return list(range(1, min(unplaced, free) + 1))
    if location == "hut":
        return [2] if unplaced >= 2 else []
    return [1]


def placement_actions(state: State, seat: int) -> list[Action]:
    occupied = occupancy(state)
    actions = []
    for location in active_locations(state):
        for count in placement_counts(state, seat, location, occupied):
            actions.append({"type": "place", "location": location, "count": count})
    return actions


def can_place(state: State, seat: int) -> bool:
    if state["players"][seat]["unplaced"] <= 0:
        return False
    occupied = occupancy(state)
    return any(placement_counts(state, seat, loc, occupied) for loc in active_locations(state))


# ----- payments -------------------------------------------------------------------------------


def card_payments(have: dict[str, int], cost: int) -> list[dict[str, int]]:
    """Every mix of resources (never food) adding up to exactly `cost`."""
    payments = []
    for wood in range(min(have["wood"], cost) + 1):
        for clay in range(min(have["clay"], cost - wood) + 1):
            for stone in range(min(have["stone"], cost - wood - clay) + 1):
                gold = cost - wood - clay - stone
                if gold <= have["gold"]:
                    payments.append({"wood": wood, "clay": clay, "stone": stone, "gold": gold})
    return payments


def _compositions(total: int, parts: int) -> list[list[int]]:
    """Ways to write `total` as `parts` positive integers, in order."""
    if parts == 1:
        return [[total]] if total >= 1 else []
    result = []
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            result.append([first, *rest])
    return result


def building_payments(have: dict[str, int], building_id: str) -> list[dict[str, int]]:
    """Every legal payment for a fixed or count-and-kinds building (the open ones go by steps)."""
    cost = BUILDINGS[building_id]["cost"]
    if cost["type"] == "fixed":
        pay = no_resources()
        pay.update(cost["resources"])
        return [pay] if all(have[k] >= pay[k] for k in RESOURCES) else []
    if cost["type"] == "count_kinds":
        payments = []
        for kinds in combinations(RESOURCES, cost["kinds"]):
            for split in _compositions(cost["count"], cost["kinds"]):
                if all(have[kind] >= amount for kind, amount in zip(kinds, split, strict=True)):
                    pay = no_resources()
                    pay.update(zip(kinds, split, strict=True))
                    payments.append(pay)
        return payments
    raise ValueError("open buildings are paid step by step")


def building_affordable(have: dict[str, int], building_id: str) -> bool:
    cost = BUILDINGS[building_id]["cost"]
    if cost["type"] == "any":
        return sum(have.values()) >= cost["min"]
    return bool(building_payments(have, building_id))


def with_take(have: dict[str, int], take: dict[str, int]) -> dict[str, int]:
    return {kind: have[kind] + take[kind] for kind in RESOURCES}


def affordable_with_card(player: dict, check) -> bool:
    """`check(have)` now, or after using an unused two-resources card."""
    have = player["resources"]
    if check(have):
        return True
    if player["two_resources"]:
        return any(check(with_take(have, take)) for take in TWO_RESOURCE_TAKES)
    return False


def step_amounts(have: dict[str, int], chosen: dict[str, int], step: int, low: int,
                 high: int) -> list[int]:
    """Amounts of RESOURCES[step] that keep a total between `low` and `high` reachable."""
    kind = RESOURCES[step]
    so_far = sum(chosen.values())
    rest = sum(have[k] for k in RESOURCES[step + 1:])
    amounts = []
    for amount in range(have[kind] + 1):
        total = so_far + amount
        if total > high:
            break
        if total + rest >= low:
            amounts.append(amount)
    return amounts


def payment_bounds(state: State, pending: dict) -> tuple[int, int]:
    if pending["kind"] == "feeding":
        return pending["shortfall"], pending["shortfall"]
    return 1, 7


def normalise_steps(state: State, pending: dict) -> None:
    """Skip the kinds whose amount is forced, so each step shown is a real choice."""
    have = state["players"][pending["seat"]]["resources"]
    low, high = payment_bounds(state, pending)
    while pending["step"] < len(RESOURCES) - 1:
        amounts = step_amounts(have, pending["chosen"], pending["step"], low, high)
        if len(amounts) != 1:
            return
        pending["chosen"][RESOURCES[pending["step"]]] = amounts[0]
        pending["step"] += 1


# ----- tools ----------------------------------------------------------------------------------


def _sub_multisets(values: list[int]) -> list[tuple[int, ...]]:
    found = set()
    for size in range(len(values) + 1):
        for combo in combinations(sorted(values, reverse=True), size):
            found.add(combo)
    return sorted(found, key=lambda combo: (len(combo), combo))


def tool_options(player: dict, total: int, divisor: int) -> list[dict]:
    """The tool choices worth offering after a roll of `total`: using nothing, plus every
    combination of unused tiles and one-use cards that raises the yield and from which no
    single tool could be dropped without losing yield. Each: {tiles, one_use, bonus, yield}."""
    tiles = [tile["value"] for tile in player["tools"] if not tile["used"]]
    cards = sorted(player["one_use"])
    base = total // divisor
    options = [{"tiles": [], "one_use": [], "bonus": 0, "yield": base}]
    card_sets = [list(combo) for size in range(len(cards) + 1)
                 for combo in combinations(cards, size)]
    for tile_combo in _sub_multisets(tiles):
        for card_combo in card_sets:
            values = list(tile_combo) + [CARDS[c]["top"]["value"] for c in card_combo]
            bonus = sum(values)
            got = (total + bonus) // divisor
            if got <= base:
                continue
            if any((total + bonus - v) // divisor == got for v in values):
                continue  # some tool adds nothing: not a sensible choice
            options.append({"tiles": list(tile_combo), "one_use": card_combo, "bonus": bonus,
                            "yield": got})
    return options


def use_tools(player: dict, tiles: list[int], one_use: list[str]) -> None:
    for value in tiles:
        for tile in player["tools"]:
            if tile["value"] == value and not tile["used"]:
                tile["used"] = True
                break
    for card_id in one_use:
        player["one_use"].remove(card_id)


# ----- legal actions --------------------------------------------------------------------------


def active_seats(state: State) -> list[int]:
    if state["phase"] == "over":
        return []
    pending = state["pending"]
    if pending is not None:
        if pending["kind"] == "dice_for_all":
            return [pending["order"][0]]
        if pending["kind"] == "roll":
            return []  # a chance step: see ready_to_resolve
        return [pending["seat"]]
    return [state["turn"]]


def two_resource_actions(player: dict) -> list[Action]:
    if not player["two_resources"]:
        return []
    return [{"type": "use_two_resources", "take": dict(take)} for take in TWO_RESOURCE_TAKES]


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in active_seats(state):
        return []
    player = state["players"][seat]
    pending = state["pending"]
    if pending is None:
        if state["phase"] == "placement":
            return placement_actions(state, seat)
        # Action phase: choose the next location to resolve.
        actions: list[Action] = [{"type": "resolve", "location": loc}
                                 for loc in BOARD_ORDER if loc in player["placed"]]
        return actions + two_resource_actions(player)
    kind = pending["kind"]
    if kind == "tools":
        return [{"type": "use_tools", "tiles": option["tiles"], "one_use": option["one_use"]}
                for option in tool_options(player, sum(pending["dice"]), pending["divisor"])]
    if kind == "dice_for_all":
        return [{"type": "pick_die", "face": face} for face in sorted(set(pending["dice"]))]
    if kind == "buy_card":
        cost = data.SLOT_COST[pending["location"]]
        actions = [{"type": "buy_card", "pay": pay}
                   for pay in card_payments(player["resources"], cost)]
        return [*actions, {"type": "decline"}, *two_resource_actions(player)]
    if kind == "buy_building":
        building_id = pending["building"]
        if BUILDINGS[building_id]["cost"]["type"] == "any":
            actions = step_actions(state, pending)
        else:
            actions = [{"type": "buy_building", "pay": pay}
                       for pay in building_payments(player["resources"], building_id)]
        return [*actions, {"type": "decline"}, *two_resource_actions(player)]
    if kind == "feeding":
        return [*step_actions(state, pending), {"type": "accept_penalty"},
                *two_resource_actions(player)]
    raise AssertionError(f"unknown pending decision {kind}")


def step_actions(state: State, pending: dict) -> list[Action]:
    have = state["players"][pending["seat"]]["resources"]
    low, high = payment_bounds(state, pending)
    step = pending["step"]
    return [{"type": "pay", "resource": RESOURCES[step], "amount": amount}
            for amount in step_amounts(have, pending["chosen"], step, low, high)]


# ----- apply ----------------------------------------------------------------------------------


def illegal_reason(state: State, seat: int, action: Any) -> str:
    """A reason a player can read for an action that is not among the legal ones."""
    if state["phase"] == "over":
        return "The game is over."
    if not isinstance(action, dict):
        return "An action must be a JSON object."
    if ready_to_resolve(state):
        return "Nobody may act while the dice are being rolled."
    if seat not in active_seats(state):
        return f"It is not {seat_name(seat)}'s turn to act."
    kind = action.get("type")
    pending = state["pending"]
    if kind == "place" and state["phase"] == "placement" and pending is None:
        location = action.get("location")
        if location not in data.LOCATION_NAMES:
            return "There is no such location."
        player = state["players"][seat]
        if location in player["placed"]:
            return f"You already placed people on the {data.LOCATION_NAMES[location]} this round."
        _free, closed = location_status(state, location)
        if closed:
            return f"The {data.LOCATION_NAMES[location]} is {closed}."
        counts = placement_counts(state, seat, location)
        return (f"You may place {', '.join(map(str, counts)) or 'no'} people on the "
                f"{data.LOCATION_NAMES[location]} now.")
    if kind == "use_two_resources" and not state["players"][seat]["two_resources"]:
        return "You have no unused two-resources card."
    if kind in ("buy_card", "buy_building"):
        return ("That payment is not accepted: pay exactly the price with resources you have "
                "(food is never accepted).")
    expected = {
        None: "place people" if state["phase"] == "placement" else "choose a location to resolve",
        "tools": "choose which tools to add to the roll",
        "dice_for_all": "pick one of the rolled dice",
        "buy_card": "pay for the card or decline",
        "buy_building": "pay for the building or decline",
        "feeding": "pay the missing food with resources or accept the 10-point loss",
    }[pending["kind"] if pending else None]
    return f"That action is not legal now: you must {expected}."


def apply_action(state: State, seat: int, action: Action) -> State:
    legal = legal_actions(state, seat)
    if not isinstance(action, dict) or action not in legal:
        raise IllegalAction(illegal_reason(state, seat, action))
    new = copy_state(state)
    new["last"] = []
    kind = action["type"]
    if kind == "place":
        _do_place(new, seat, action["location"], action["count"])
    elif kind == "resolve":
        _do_resolve(new, seat, action["location"])
    elif kind == "use_tools":
        _do_use_tools(new, seat, action["tiles"], action["one_use"])
    elif kind == "pick_die":
        _do_pick_die(new, seat, action["face"])
    elif kind == "buy_card":
        _do_buy_card(new, seat, action["pay"])
    elif kind == "buy_building":
        _finish_building(new, seat, action["pay"])
    elif kind == "pay":
        _do_pay_step(new, seat, action["amount"])
    elif kind == "decline":
        _do_decline(new, seat)
    elif kind == "accept_penalty":
        _do_penalty(new, seat)
    elif kind == "use_two_resources":
        _do_two_resources(new, seat, action["take"])
    else:  # pragma: no cover - every listed action type is handled above
        raise AssertionError(kind)
    _advance(new)
    return new


def ready_to_resolve(state: State) -> bool:
    """A dice roll is due: a chance step of its own, so that no sentence describing a player's
    choice can know (and leak) the dice before they are rolled."""
    pending = state["pending"]
    return state["phase"] != "over" and pending is not None and pending["kind"] == "roll"


def resolve(state: State) -> State:
    if not ready_to_resolve(state):
        raise IllegalAction("Nothing is waiting to be resolved.")
    new = copy_state(state)
    new["last"] = []
    rng = SeededRandom.from_state(new)
    pending = new["pending"]
    seat = pending["seat"]
    dice = [rng.randint(1, 6) for _ in range(pending["count"])]
    rng.save(new)
    new["pending"] = None
    who = seat_name(seat)
    if pending["good"] is None:
        num = new["num_players"]
        dice.sort()
        event(new, seat, f"{who} rolls {', '.join(map(str, dice))} for everyone "
                         f"({CARDS[pending['source']]['name']}).")
        new["pending"] = {"kind": "dice_for_all", "buyer": seat, "dice": dice,
                          "order": [(seat + i) % num for i in range(num)]}
        _settle_dice(new)
    else:
        where = (f"the {data.LOCATION_NAMES[pending['source']]}"
                 if pending["source"] in data.LOCATION_NAMES
                 else CARDS[pending["source"]]["name"])
        event(new, seat, f"{who} rolls {', '.join(map(str, dice))} = {sum(dice)} for "
                         f"{pending['good']} ({where}, ÷{pending['divisor']}).")
        _start_roll(new, seat, pending["source"], pending["good"], pending["divisor"], dice)
    _advance(new)
    return new


def _do_place(state: State, seat: int, location: str, count: int) -> None:
    player = state["players"][seat]
    player["placed"][location] = count
    player["unplaced"] -= count
    what = data.LOCATION_NAMES[location]
    if location in CARD_SLOTS:
        card = state["display"][CARD_SLOTS.index(location)]
        what += f" ({CARDS[card]['name']})"
    elif location in BUILDING_STACKS:
        top = state["stacks"][BUILDING_STACKS.index(location)][0]
        what += f" ({BUILDINGS[top]['name']})"
    people = "person" if count == 1 else "people"
    event(state, seat, f"{seat_name(seat)} places {count} {people} on the {what}.")
    # Next seat clockwise that can still place; the phase ends when nobody can.
    num = state["num_players"]
    for offset in range(1, num + 1):
        candidate = (seat + offset) % num
        if can_place(state, candidate):
            state["turn"] = candidate
            return
    _start_actions(state)


def _start_actions(state: State) -> None:
    num = state["num_players"]
    first = state["first_player"]
    state["phase"] = "actions"
    state["action_queue"] = [(first + i) % num for i in range(num)]
    state["turn"] = state["action_queue"][0]
    event(state, None, "All people are placed; actions begin.")


def _ask_roll(state: State, seat: int, source: str, count: int, good: str | None,
              divisor: int | None) -> None:
    state["pending"] = {"kind": "roll", "seat": seat, "source": source, "count": count,
                        "good": good, "divisor": divisor}


def _do_resolve(state: State, seat: int, location: str) -> None:
    player = state["players"][seat]
    count = player["placed"].pop(location)
    name = data.LOCATION_NAMES[location]
    who = seat_name(seat)
    if location in GATHERING:
        good, divisor = GATHERING[location]
        people = "person" if count == 1 else "people"
        event(state, seat, f"{who} works the {name} with {count} {people}.")
        _ask_roll(state, seat, location, count, good, divisor)
    elif location == "tool_maker":
        if gain_tool(player):
            event(state, seat, f"{who} makes a tool (tools now {_tiles_text(player)}).")
        else:
            event(state, seat, f"{who} visits the tool maker but already has 4/4/4 tools.")
    elif location == "hut":
        if gain_person(player):
            event(state, seat, f"{who} gains a person in the hut ({player['people']} people).")
        else:
            event(state, seat, f"{who} visits the hut but already has 10 people.")
    elif location == "field":
        if gain_food_track(player):
            event(state, seat, f"{who} raises the food track to {player['food_track']}.")
        else:
            event(state, seat, f"{who} works the field but the food track is already at 10.")
    elif location in CARD_SLOTS:
        card = state["display"][CARD_SLOTS.index(location)]
        cost = data.SLOT_COST[location]
        if affordable_with_card(player, lambda have: sum(have.values()) >= cost):
            state["pending"] = {"kind": "buy_card", "seat": seat, "location": location,
                                "card": card}
        else:
            event(state, seat, f"{who} cannot pay {cost} resource(s) for "
                               f"{CARDS[card]['name']}; the card stays.")
    elif location in BUILDING_STACKS:
        building = state["stacks"][BUILDING_STACKS.index(location)][0]
        if affordable_with_card(player, lambda have: building_affordable(have, building)):
            state["pending"] = {"kind": "buy_building", "seat": seat, "location": location,
                                "building": building, "step": 0, "chosen": no_resources()}
            if BUILDINGS[building]["cost"]["type"] == "any":
                normalise_steps(state, state["pending"])
        else:
            event(state, seat, f"{who} cannot pay for the building "
                               f"({BUILDINGS[building]['name']}); it stays.")
    else:  # pragma: no cover
        raise AssertionError(location)


def _tiles_text(player: dict) -> str:
    return "/".join(str(tile["value"]) for tile in player["tools"]) or "none"


def _start_roll(state: State, seat: int, source: str, good: str, divisor: int,
                dice: list[int]) -> None:
    """After a gathering or card roll: ask about tools if any choice matters, else gain."""
    player = state["players"][seat]
    if len(tool_options(player, sum(dice), divisor)) > 1:
        state["pending"] = {"kind": "tools", "seat": seat, "source": source, "good": good,
                            "divisor": divisor, "dice": dice}
    else:
        _gain_yield(state, seat, good, sum(dice) // divisor, sum(dice), 0)


def _gain_yield(state: State, seat: int, good: str, amount: int, total: int, bonus: int) -> None:
    player = state["players"][seat]
    if good == "food":
        player["food"] += amount
    else:
        player["resources"][good] += amount
    with_tools = f" + {bonus} from tools = {total + bonus}" if bonus else ""
    event(state, seat, f"{seat_name(seat)} gets {amount} {good} ({total}{with_tools}).")


def _do_use_tools(state: State, seat: int, tiles: list[int],
                  one_use: list[str]) -> None:
    pending = state["pending"]
    player = state["players"][seat]
    bonus = sum(tiles) + sum(CARDS[c]["top"]["value"] for c in one_use)
    use_tools(player, tiles, one_use)
    state["pending"] = None
    total = sum(pending["dice"])
    _gain_yield(state, seat, pending["good"], (total + bonus) // pending["divisor"], total, bonus)


def _do_pick_die(state: State, seat: int, face: int) -> None:
    pending = state["pending"]
    _take_die(state, pending, seat, face)
    _settle_dice(state)


def _take_die(state: State, pending: dict, seat: int, face: int) -> None:
    pending["dice"].remove(face)
    pending["order"].pop(0)
    player = state["players"][seat]
    kind, resource = data.DICE_FOR_ALL[face]
    text = data.DICE_FOR_ALL_TEXT[face]
    if kind == "resource":
        player["resources"][resource] += 1
    elif kind == "tool":
        if not gain_tool(player):
            text += " (but tools are already 4/4/4)"
    elif not gain_food_track(player):
        text += " (but the food track is already at 10)"
    event(state, seat, f"{seat_name(seat)} takes the {face}: {text}.")


def _settle_dice(state: State) -> None:
    """Hand out dice while the choice is forced (one die left, or all alike)."""
    pending = state["pending"]
    while pending["order"] and len(set(pending["dice"])) == 1:
        _take_die(state, pending, pending["order"][0], pending["dice"][0])
    if not pending["order"]:
        state["pending"] = None


def _pay(player: dict, pay: dict[str, int]) -> None:
    for kind in RESOURCES:
        player["resources"][kind] -= pay.get(kind, 0)


def _do_buy_card(state: State, seat: int, pay: dict[str, int]) -> None:
    pending = state["pending"]
    player = state["players"][seat]
    _pay(player, pay)
    card_id = pending["card"]
    state["display"][CARD_SLOTS.index(pending["location"])] = None
    player["cards"].append(card_id)
    state["pending"] = None
    who = seat_name(seat)
    event(state, seat, f"{who} pays {pay_text(pay)} for {CARDS[card_id]['name']}.")
    top = CARDS[card_id]["top"]
    kind = top["type"]
    if kind == "dice_for_all":
        _ask_roll(state, seat, card_id, state["num_players"], None, None)
    elif kind == "food":
        player["food"] += top["amount"]
        event(state, seat, f"{who} takes {top['amount']} food.")
    elif kind == "resource":
        player["resources"][top["resource"]] += top["amount"]
        event(state, seat, f"{who} takes {top['amount']} {top['resource']}.")
    elif kind == "resource_by_dice":
        _ask_roll(state, seat, card_id, top["dice"], top["resource"], top["divisor"])
    elif kind == "points":
        player["score"] += top["amount"]
        player["points"]["cards"] += top["amount"]
        event(state, seat, f"{who} scores {top['amount']} points.")
    elif kind == "tool":
        if gain_tool(player):
            event(state, seat, f"{who} gains a tool (tools now {_tiles_text(player)}).")
        else:
            event(state, seat, f"{who} already has 4/4/4 tools.")
    elif kind == "food_track":
        if gain_food_track(player):
            event(state, seat, f"{who} raises the food track to {player['food_track']}.")
        else:
            event(state, seat, f"{who}'s food track is already at 10.")
    elif kind == "extra_card":
        if state["deck"]:
            extra = state["deck"].pop(0)
            player["cards"].append(extra)
            event(state, seat, f"{who} draws a face-down card from the deck.",
                  private=f"{who} draws {CARDS[extra]['name']} face down (scores only at "
                          "the end).")
        else:
            event(state, seat, f"{who} would draw a card but the deck is empty.")
    elif kind == "one_use_tool":
        player["one_use"].append(card_id)
        event(state, seat, f"{who} keeps a one-use tool worth {top['value']}.")
    elif kind == "any_two_resources":
        player["two_resources"].append(card_id)
        event(state, seat, f"{who} keeps the card for 2 resources of choice.")
    else:  # pragma: no cover
        raise AssertionError(kind)


def _finish_building(state: State, seat: int, pay: dict[str, int]) -> None:
    pending = state["pending"]
    player = state["players"][seat]
    _pay(player, pay)
    building_id = pending["building"]
    stack = state["stacks"][BUILDING_STACKS.index(pending["location"])]
    stack.pop(0)
    points = BUILDINGS[building_id]["points"]
    if points is None:
        points = sum(VALUE[kind] * pay.get(kind, 0) for kind in RESOURCES)
    player["buildings"].append({"id": building_id, "points": points})
    player["score"] += points
    player["points"]["buildings"] += points
    state["pending"] = None
    event(state, seat, f"{seat_name(seat)} pays {pay_text(pay)} for the building "
                       f"({BUILDINGS[building_id]['name']}) and scores {points} points.")
    if not stack:
        state["last_stack_emptied"] = True
        event(state, None, "A building stack is empty: this is the last round.")


def _do_pay_step(state: State, seat: int, amount: int) -> None:
    pending = state["pending"]
    pending["chosen"][RESOURCES[pending["step"]]] = amount
    if pending["step"] < len(RESOURCES) - 1:
        pending["step"] += 1
        normalise_steps(state, pending)
        amounts = step_actions(state, pending)
        if pending["step"] == len(RESOURCES) - 1 and len(amounts) == 1:
            # The seat has already chosen to pay; the rest is forced, so finish it.
            _do_pay_step(state, seat, amounts[0]["amount"])
        return
    pay = dict(pending["chosen"])
    if pending["kind"] == "feeding":
        player = state["players"][seat]
        _pay(player, pay)
        state["pending"] = None
        event(state, seat, f"{seat_name(seat)} feeds the missing {pending['shortfall']} with "
                           f"{pay_text(pay)}.")
    else:
        _finish_building(state, seat, pay)


def _do_decline(state: State, seat: int) -> None:
    pending = state["pending"]
    if pending["kind"] == "buy_card":
        what = CARDS[pending["card"]]["name"]
    else:
        what = f"the building ({BUILDINGS[pending['building']]['name']})"
    state["pending"] = None
    event(state, seat, f"{seat_name(seat)} declines {what}.")


def _do_penalty(state: State, seat: int) -> None:
    player = state["players"][seat]
    player["score"] -= data.FEEDING_PENALTY
    player["points"]["penalties"] += 1
    shortfall = state["pending"]["shortfall"]
    state["pending"] = None
    event(state, seat, f"{seat_name(seat)} is {shortfall} food short and loses 10 points.")


def _do_two_resources(state: State, seat: int, take: dict[str, int]) -> None:
    player = state["players"][seat]
    card_id = player["two_resources"].pop(0)
    for kind in RESOURCES:
        player["resources"][kind] += take[kind]
    event(state, seat, f"{seat_name(seat)} uses {CARDS[card_id]['name']} to take "
                       f"{pay_text(take)}.")
    pending = state["pending"]
    if pending is not None and "step" in pending:
        # Holdings changed: start the payment over so every kind can be chosen again.
        pending["step"] = 0
        pending["chosen"] = no_resources()
        if pending["kind"] == "feeding" or (
                BUILDINGS[pending["building"]]["cost"]["type"] == "any"):
            normalise_steps(state, pending)


# ----- the flow between decisions -------------------------------------------------------------


def _advance(state: State) -> None:
    """Run everything that needs no decision until a seat must decide or the game ends."""
    while state["phase"] != "over" and state["pending"] is None:
        phase = state["phase"]
        if phase == "placement":
            return
        if phase == "actions":
            seat = state["turn"]
            placed = state["players"][seat]["placed"]
            if len(placed) > 1:
                return
            if len(placed) == 1:
                # Only one location left: there is no order to choose.
                _do_resolve(state, seat, next(iter(placed)))
                continue
            state["action_queue"].pop(0)
            if state["action_queue"]:
                state["turn"] = state["action_queue"][0]
            else:
                _start_feeding(state)
            continue
        if phase == "feeding":
            if not state["feeding_queue"]:
                _end_round(state)
                continue
            seat = state["feeding_queue"].pop(0)
            state["turn"] = seat
            _feed(state, seat)
            continue
        raise AssertionError(phase)  # pragma: no cover


def _start_feeding(state: State) -> None:
    num = state["num_players"]
    first = state["first_player"]
    state["phase"] = "feeding"
    state["feeding_queue"] = [(first + i) % num for i in range(num)]
    event(state, None, "Feeding.")


def _feed(state: State, seat: int) -> None:
    player = state["players"][seat]
    player["food"] += player["food_track"]
    need = player["people"]
    who = seat_name(seat)
    if player["food"] >= need:
        player["food"] -= need
        event(state, seat, f"{who} feeds {need} people ({player['food']} food left).")
        return
    shortfall = need - player["food"]
    player["food"] = 0
    can_pay = resource_total(player) + (2 if player["two_resources"] else 0) >= shortfall
    if not can_pay:
        player["score"] -= data.FEEDING_PENALTY
        player["points"]["penalties"] += 1
        event(state, seat, f"{who} is {shortfall} food short, cannot pay it with resources "
                           "and loses 10 points.")
        return
    pending = {"kind": "feeding", "seat": seat, "shortfall": shortfall, "step": 0,
               "chosen": no_resources()}
    state["pending"] = pending
    normalise_steps(state, pending)
    event(state, seat, f"{who} is {shortfall} food short.")


def _end_round(state: State) -> None:
    num = state["num_players"]
    if state["last_stack_emptied"]:
        _game_over(state, "buildings")
        return
    state["first_player"] = (state["first_player"] + 1) % num
    remaining = [card for card in state["display"] if card is not None]
    empty = data.DISPLAY_SLOTS - len(remaining)
    if len(state["deck"]) < empty:
        state["display"] = remaining + [None] * empty
        _game_over(state, "cards")
        return
    state["display"] = remaining + [state["deck"].pop(0) for _ in range(empty)]
    for player in state["players"]:
        for tile in player["tools"]:
            tile["used"] = False
        player["placed"] = {}
        player["unplaced"] = player["people"]
    state["round"] += 1
    state["phase"] = "placement"
    state["turn"] = state["first_player"]
    state["action_queue"] = []
    event(state, None, f"Round {state['round']} begins; {seat_name(state['first_player'])} "
                       "is the start player.")


def _game_over(state: State, reason: str) -> None:
    state["phase"] = "over"
    state["ended_by"] = reason
    state["turn"] = None
    if reason == "buildings":
        event(state, None, "A building stack ran out: the game ends after this round.")
    else:
        event(state, None, "Not enough civilization cards to refill the display: the game ends.")
