"""Stone Age rules: set-up, whose decision it is, the legal actions and their effects.

Everything here works on the plain-dict state described in docs/rules/stone_age.md. Functions
named `_do_*` change the copy of the state that `apply_action` owns; nothing touches its input.
"""

from __future__ import annotations

import marshal
from functools import lru_cache, partial
from itertools import combinations
from typing import Any

from games.engines.base import (
    GAME_OVER,
    IllegalAction,
    SeededRandom,
    match_legal,
    new_rng_state,
    not_an_object,
)
from games.engines.texts import Text, text

from . import data, texts
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


#: Parts of the state whose entries are never changed once written (`event` makes a new one each
#: time): a copy needs new lists of them, not new entries. The log is a third of the state.
APPEND_ONLY = ("log", "last")
#: A player's fields by what a copy must renew: the flat dicts changed in place at almost every
#: step (resources, people placed); the other containers change seldom and are never changed in
#: place, only replaced by new ones (see _add_points, gain_tool, use_tools, ...), so a copy
#: shares them; numbers.
PLAYER_DICTS = ("resources", "placed")
PLAYER_REPLACED = ("points", "cards", "one_use", "two_resources", "buildings", "tools")
PLAYER_FIELDS = frozenset((*PLAYER_DICTS, *PLAYER_REPLACED, "people", "unplaced", "food",
                           "food_track", "score", "tools_gained"))
#: The copies below tell the shape they know by the number of fields (a field added to or left
#: out of the state is a field more or less), which costs nothing; comparing the keys with
#: PLAYER_FIELDS and STATE_FIELDS cost a tenth of a step.
_PLAYER_SIZE = len(PLAYER_FIELDS)


def _copy_player(player: dict) -> dict:
    if len(player) != _PLAYER_SIZE:  # not the shape this copy knows: copy it all
        return marshal.loads(marshal.dumps(player))
    new = dict(player)
    new["resources"] = dict(player["resources"])
    new["placed"] = dict(player["placed"])
    return new


#: The state's fields by what a copy must renew (see copy_state): those below are never changed
#: in place, only replaced by new ones (the deck by its rest after a draw, the RNG entry by
#: SeededRandom.save, ...), or never changed at all (the options), so a copy shares them; the
#: pending decision and the players are copied as far as they are changed in place; numbers
#: and texts are shared.
STATE_SHARED = ("action_queue", "feeding_queue", "deck", "display", "stacks", "rng", "options")
STATE_FIELDS = frozenset((*STATE_SHARED, *APPEND_ONLY, "pending", "players", "num_players",
                          "round", "first_player", "phase", "turn", "last_stack_emptied",
                          "ended_by"))
#: The pending decision's values that are containers, each a flat list or dict of numbers
#: (the dice, the order of picks, the resources chosen so far); its other values are
#: numbers, texts or None.
PENDING_CONTAINERS = ("dice", "order", "chosen")
_STATE_SIZE = len(STATE_FIELDS)


def _copy_pending(pending: dict) -> dict:
    new = dict(pending)
    for key in PENDING_CONTAINERS:
        if key in pending:
            new[key] = pending[key].copy()
    return new


def copy_state(state: State, only_seat: int | None = None) -> State:
    """A copy of a plain JSON-like state that apply and resolve may change freely: what they
    change in place is new, the rest is shared. Several times cheaper than a deep copy, which
    spends most of its time making the players' many small dicts and the log's entries.
    With `only_seat`, the other players are shared too (for a step that changes no one else;
    see copy_other_players). The copy's `last` (the events of the step) starts empty."""
    if len(state) != _STATE_SIZE:  # not the shape this copy knows: copy it all
        new = marshal.loads(marshal.dumps(state))
        new["last"] = []
        return new
    new = dict(state)
    if state["pending"] is not None:
        new["pending"] = _copy_pending(state["pending"])
    new["log"] = list(state["log"])
    new["last"] = []
    if only_seat is None:
        new["players"] = [_copy_player(player) for player in state["players"]]
    else:
        players = new["players"] = list(state["players"])
        players[only_seat] = _copy_player(players[only_seat])
    return new


def copy_other_players(state: State, seat: int) -> None:
    """Completes a copy made with only_seat=seat before anything may change the others."""
    players = state["players"]
    for other, player in enumerate(players):
        if other != seat:
            players[other] = _copy_player(player)


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


def pay_text(pay: dict[str, int]) -> list[Text] | Text:
    """Resources paid or taken, as a text parameter: "2 wood + 1 gold", or "nothing"."""
    parts = [text("sa.amount", amount=pay[kind], good=kind) for kind in RESOURCES if pay.get(kind)]
    return parts or text("sa.nothing")


def event(state: State, seat: int | None, message: Text, private: Text | None = None) -> None:
    """Record what happened, as texts (games.engines.texts): `message` for everyone, `private`
    (if given) for `seat` only. Texts are never changed once written (see APPEND_ONLY)."""
    entry: dict[str, Any] = {"seat": seat, "text": message}
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
    tiles = player["tools"] = [dict(tile) for tile in player["tools"]]  # never changed in place
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


def _add_points(player: dict, category: str, amount: int) -> None:
    """Adds to a row of the player's points (a new dict: see PLAYER_REPLACED)."""
    points = player["points"] = dict(player["points"])
    points[category] += amount


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
    """(free spaces or None for unlimited, why it is closed to newcomers (a reason code,
    worded by texts' sa.closed_<code>) or None). Without `occupied` (the occupancy), only the
    people on this location (and on the village, if it is one) are looked up."""
    if location == "hunting_grounds":
        return None, None
    num_players = state["num_players"]
    if occupied is None:
        here = {seat: player["placed"][location] for seat, player in enumerate(state["players"])
                if location in player["placed"]}
    else:
        here = occupied.get(location, {})
    if location in RESOURCE_LOCATIONS:
        free = data.RESOURCE_CAPACITY - sum(here.values())
        if free <= 0:
            return 0, "full"
        if len(here) >= data.RESOURCE_COLOURS[num_players]:
            return free, "colours"
        return free, None
    capacity = 2 if location == "hut" else 1
    if here:
        return 0, "occupied"
    if location in VILLAGE and num_players < 4:
        if occupied is None:
            used = sum(1 for other in VILLAGE
                       if any(other in player["placed"] for player in state["players"]))
        else:
            used = sum(1 for other in VILLAGE if occupied.get(other))
        if used >= data.VILLAGE_USABLE[num_players]:
            return capacity, "village"
    if location in CARD_SLOTS and state["display"][CARD_SLOTS.index(location)] is None:
        return 0, "no_card"
    if location in BUILDING_STACKS:
        index = BUILDING_STACKS.index(location)
        if index >= len(state["stacks"]) or not state["stacks"][index]:
            return 0, "no_building"
    return capacity, None


#: The locations in play per player count (one building stack per player).
ACTIVE_LOCATIONS = {
    num: tuple(loc for loc in BOARD_ORDER
               if loc not in BUILDING_STACKS or BUILDING_STACKS.index(loc) < num)
    for num in (2, 3, 4)
}


ACTIVE_LOCATION_SET = {num: frozenset(locations) for num, locations in ACTIVE_LOCATIONS.items()}


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


#: location -> the placements of 1, 2, ... people on it, as patterns the listings copy (with
#: dict.copy, in C: several times quicker than building each dict) and never hand out.
_PLACEMENTS = {location: tuple({"type": "place", "location": location, "count": count}
                               for count in range(1, data.MAX_PEOPLE + 1))
               for location in BOARD_ORDER}


def placement_actions(state: State, seat: int) -> list[Action]:
    """Every placement of `seat`: placement_counts for each location in play, in board order,
    with the occupancy worked out once (people per location, seats per location) and no dicts
    of seats."""
    players = state["players"]
    player = players[seat]
    unplaced = player["unplaced"]
    if unplaced <= 0:
        return []
    people: dict[str, int] = {}  # location -> people on it
    colours: dict[str, int] = {}  # location -> seats on it
    for other in players:
        for location, count in other["placed"].items():
            if location in people:
                people[location] += count
                colours[location] += 1
            else:
                people[location] = count
                colours[location] = 1
    placed = player["placed"]
    num_players = state["num_players"]
    actions: list[Action] = []
    add = actions.extend
    copy = dict.copy
    if "hunting_grounds" not in placed:
        add(map(copy, _PLACEMENTS["hunting_grounds"][:unplaced]))
    colour_limit = data.RESOURCE_COLOURS[num_players]
    for location in RESOURCE_LOCATIONS:
        if location in people:
            if location in placed or colours[location] >= colour_limit:
                continue
            most = data.RESOURCE_CAPACITY - people[location]
            if most <= 0:
                continue
            if most > unplaced:
                most = unplaced
        else:
            most = unplaced if unplaced < data.RESOURCE_CAPACITY else data.RESOURCE_CAPACITY
        add(map(copy, _PLACEMENTS[location][:most]))
    if num_players == 4 or sum(
            1 for other in VILLAGE if other in people) < data.VILLAGE_USABLE[num_players]:
        for location in VILLAGE:
            if location in people:  # (the seat's own places among them)
                continue
            if location != "hut":
                actions.append(copy(_PLACEMENTS[location][0]))
            elif unplaced >= 2:
                actions.append(copy(_PLACEMENTS[location][1]))
    for location, card in zip(CARD_SLOTS, state["display"], strict=False):
        if card is not None and location not in people:
            actions.append(copy(_PLACEMENTS[location][0]))
    for location, stack in zip(BUILDING_STACKS[:num_players], state["stacks"], strict=False):
        if stack and location not in people:
            actions.append(copy(_PLACEMENTS[location][0]))
    return actions


def can_place(state: State, seat: int) -> bool:
    player = state["players"][seat]
    if player["unplaced"] <= 0:
        return False
    if "hunting_grounds" not in player["placed"]:
        return True  # never closed, and room for any number of people
    return bool(placement_actions(state, seat))


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
    return [{"tiles": list(tiles), "one_use": list(cards), "bonus": bonus, "yield": got}
            for tiles, cards, bonus, got in _tool_choices(*_tool_key(player), total, divisor)]


def has_tool_choice(player: dict, total: int, divisor: int) -> bool:
    """Whether tool_options offers more than using nothing: whether all the unused tools
    together raise the yield (then some smallest set of them that does is an option, as no
    tool of it can be dropped without losing yield), with no list of the options."""
    bonus = sum(tile["value"] for tile in player["tools"] if not tile["used"])
    for card_id in player["one_use"]:
        bonus += ONE_USE_VALUE[card_id]
    return (total + bonus) // divisor > total // divisor


#: The value of each one-use tool card.
ONE_USE_VALUE = {card_id: card["top"]["value"] for card_id, card in CARDS.items()
                 if card["top"]["type"] == "one_use_tool"}


def _tool_key(player: dict) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The player's unused tile values and one-use cards, as the choices depend on them."""
    return (tuple(sorted(tile["value"] for tile in player["tools"] if not tile["used"])),
            tuple(sorted(player["one_use"])))


@lru_cache(maxsize=4096)
def _tool_choices(tiles: tuple[int, ...], cards: tuple[str, ...], total: int, divisor: int
                  ) -> tuple[tuple[tuple[int, ...], tuple[str, ...], int, int], ...]:
    """tool_options as (tiles, one-use cards, bonus, yield), worked out once per situation: a
    roll asks it up to three times (is there a choice, the legal actions, the check of one)."""
    base = total // divisor
    options = [((), (), 0, base)]
    card_sets = [combo for size in range(len(cards) + 1) for combo in combinations(cards, size)]
    for tile_combo in _sub_multisets(list(tiles)):
        for card_combo in card_sets:
            values = list(tile_combo) + [CARDS[c]["top"]["value"] for c in card_combo]
            bonus = sum(values)
            got = (total + bonus) // divisor
            if got <= base:
                continue
            if any((total + bonus - v) // divisor == got for v in values):
                continue  # some tool adds nothing: not a sensible choice
            options.append((tile_combo, card_combo, bonus, got))
    return tuple(options)


def use_tools(player: dict, tiles: list[int], one_use: list[str]) -> None:
    # New lists and tiles: the player's are never changed in place (see PLAYER_REPLACED).
    tools = player["tools"] = [dict(tile) for tile in player["tools"]]
    for value in tiles:
        for tile in tools:
            if tile["value"] == value and not tile["used"]:
                tile["used"] = True
                break
    if one_use:
        left = player["one_use"] = list(player["one_use"])
        for card_id in one_use:
            left.remove(card_id)


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
    pending = state["pending"]
    phase = state["phase"]
    if pending is None:  # (the seat whose turn it is decides: see active_seats)
        if phase == "over" or state["turn"] != seat:
            return []
        if phase == "placement":
            return placement_actions(state, seat)
        # Action phase: choose the next location to resolve.
        player = state["players"][seat]
        actions: list[Action] = [{"type": "resolve", "location": loc}
                                 for loc in BOARD_ORDER if loc in player["placed"]]
        return actions + two_resource_actions(player)
    if phase == "over" or seat not in active_seats(state):
        return []
    player = state["players"][seat]
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


def illegal_reason(state: State, seat: int, action: Any) -> IllegalAction:
    """The refusal, with a reason a player can read, of an action that is not among the legal
    ones."""
    refusal = texts.refusal
    if state["phase"] == "over":
        return IllegalAction(GAME_OVER, text("refuse_game_over"))
    if not isinstance(action, dict):
        return not_an_object()
    if ready_to_resolve(state):
        return refusal("sa.refuse_rolling")
    if seat not in active_seats(state):
        return refusal("sa.refuse_not_turn", seat=seat)
    kind = action.get("type")
    pending = state["pending"]
    if kind == "place" and state["phase"] == "placement" and pending is None:
        location = action.get("location")
        if not isinstance(location, str) or location not in data.LOCATION_NAMES:
            return refusal("sa.refuse_no_location")
        player = state["players"][seat]
        if location in player["placed"]:
            return refusal("sa.refuse_placed_here", location=location)
        _free, closed = location_status(state, location)
        if closed:
            return refusal("sa.refuse_closed", location=location,
                           reason=texts.closed_text(closed, state["num_players"]))
        counts = placement_counts(state, seat, location)
        if not counts:
            return refusal("sa.refuse_no_counts", location=location)
        return refusal("sa.refuse_counts", counts=list(counts), location=location)
    if kind == "use_two_resources" and not state["players"][seat]["two_resources"]:
        return refusal("sa.refuse_no_two_resources")
    if kind in ("buy_card", "buy_building"):
        return refusal("sa.refuse_payment")
    return refusal({
        None: "sa.refuse_must_place" if state["phase"] == "placement" else "sa.refuse_must_resolve",
        "tools": "sa.refuse_must_tools",
        "dice_for_all": "sa.refuse_must_die",
        "buy_card": "sa.refuse_must_buy_card",
        "buy_building": "sa.refuse_must_buy_building",
        "feeding": "sa.refuse_must_feed",
    }[pending["kind"] if pending else None])


def apply_action(state: State, seat: int, action: Action) -> State:
    if state["phase"] == "over":
        raise IllegalAction(GAME_OVER, text("refuse_game_over"))
    # From here on only the listed action is used: a sent 1.0 or true never reaches the state.
    listed = _listed_at_once(state, seat, action)
    if listed is None:
        why_not = partial(illegal_reason, state, seat, action)
        listed = match_legal(action, legal_actions(state, seat), why_not)
    action = listed
    kind = action["type"]
    # Every action but a die pick (which may hand the dice left to others) changes its own
    # player only: the others are copied only once _advance goes on to change them.
    only_seat = None if kind == "pick_die" else seat
    new = copy_state(state, only_seat=only_seat)
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
    _advance(new, only_seat)
    return new


def _listed_at_once(state: State, seat: int, action: Any) -> Action | None:
    """For a placement, or a location chosen to resolve next, sent exactly as listed (the same
    JSON, types included: what match_legal accepts at once), the listed action, found without
    listing the others; None for anything else, for the full list and match_legal to decide."""
    if (type(action) is not dict or state["pending"] is not None
            or state["turn"] != seat):  # (the seat that decides now: see active_seats)
        return None
    kind = action.get("type")
    location = action.get("location")
    if type(kind) is not str or type(location) is not str:
        return None
    phase = state["phase"]
    if kind == "place" and phase == "placement" and len(action) == 3:
        count = action.get("count")
        if type(count) is int and _placement_fits(state, seat, location, count):
            return {"type": "place", "location": location, "count": count}
    elif (kind == "resolve" and phase == "actions" and len(action) == 2
          and location in state["players"][seat]["placed"] and location in _ON_BOARD):
        return {"type": "resolve", "location": location}
    return None


_ON_BOARD = frozenset(BOARD_ORDER)


def _placement_fits(state: State, seat: int, location: str, count: int) -> bool:
    """Whether `count` is among placement_counts(state, seat, location), looking only at the
    people on that location (and on the village, for a village location)."""
    num_players = state["num_players"]
    if location not in ACTIVE_LOCATION_SET[num_players]:
        return False
    players = state["players"]
    player = players[seat]
    if count < 1 or count > player["unplaced"] or location in player["placed"]:
        return False
    if location == "hunting_grounds":
        return True
    if location in RESOURCE_LOCATIONS:
        people = seats = 0
        for other in players:
            here = other["placed"].get(location)
            if here:
                people += here
                seats += 1
        return (people + count <= data.RESOURCE_CAPACITY
                and seats < data.RESOURCE_COLOURS[num_players])
    if count != (2 if location == "hut" else 1):
        return False
    for other in players:
        if location in other["placed"]:
            return False
    if location in VILLAGE:
        return num_players == 4 or sum(
            1 for other in VILLAGE if any(other in someone["placed"] for someone in players)
        ) < data.VILLAGE_USABLE[num_players]
    if location in CARD_SLOTS:
        return state["display"][CARD_SLOTS.index(location)] is not None
    index = BUILDING_STACKS.index(location)
    return index < len(state["stacks"]) and bool(state["stacks"][index])


def ready_to_resolve(state: State) -> bool:
    """A dice roll is due: a chance step of its own, so that no sentence describing a player's
    choice can know (and leak) the dice before they are rolled."""
    pending = state["pending"]
    return pending is not None and pending["kind"] == "roll" and state["phase"] != "over"


def is_over(state: State) -> bool:
    return state["phase"] == "over"


def resolve(state: State) -> State:
    if not ready_to_resolve(state):
        raise IllegalAction("Nothing is waiting to be resolved.", text("refuse_nothing_to_resolve"))
    # A roll for one good changes the roller only (until _advance goes on); the dice for all
    # may be handed out to everyone at once.
    only_seat = None if state["pending"]["good"] is None else state["pending"]["seat"]
    new = copy_state(state, only_seat=only_seat)
    rng = SeededRandom.from_state(new)
    pending = new["pending"]
    seat = pending["seat"]
    dice = [rng.randint(1, 6) for _ in range(pending["count"])]
    rng.save(new)
    new["pending"] = None
    if pending["good"] is None:
        num = new["num_players"]
        dice.sort()
        event(new, seat, text("sa.roll_for_all", seat=seat, dice=list(dice),
                              card=pending["source"]))
        new["pending"] = {"kind": "dice_for_all", "buyer": seat, "dice": dice,
                          "order": [(seat + i) % num for i in range(num)]}
        _settle_dice(new)
    else:
        source = pending["source"]
        at_location = source in data.LOCATION_NAMES
        event(new, seat, text("sa.roll_at" if at_location else "sa.roll_card", seat=seat,
                              dice=list(dice), total=sum(dice), good=pending["good"],
                              location=source if at_location else None,
                              card=None if at_location else source,
                              divisor=pending["divisor"]))
        _start_roll(new, seat, pending["source"], pending["good"], pending["divisor"], dice)
    _advance(new, only_seat)
    return new


def _do_place(state: State, seat: int, location: str, count: int) -> None:
    player = state["players"][seat]
    player["placed"][location] = count
    player["unplaced"] -= count
    if location in CARD_SLOTS:
        event(state, seat, text("sa.place_card", seat=seat, count=count, location=location,
                                card=state["display"][CARD_SLOTS.index(location)]))
    elif location in BUILDING_STACKS:
        event(state, seat, text("sa.place_building", seat=seat, count=count, location=location,
                                building=state["stacks"][BUILDING_STACKS.index(location)][0]))
    else:
        event(state, seat, text("sa.place", seat=seat, count=count, location=location))
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
    event(state, None, text("sa.placed"))


def _ask_roll(state: State, seat: int, source: str, count: int, good: str | None,
              divisor: int | None) -> None:
    state["pending"] = {"kind": "roll", "seat": seat, "source": source, "count": count,
                        "good": good, "divisor": divisor}


def _do_resolve(state: State, seat: int, location: str) -> None:
    player = state["players"][seat]
    count = player["placed"].pop(location)
    if location in GATHERING:
        good, divisor = GATHERING[location]
        event(state, seat, text("sa.work", seat=seat, location=location, count=count))
        _ask_roll(state, seat, location, count, good, divisor)
    elif location == "tool_maker":
        if gain_tool(player):
            event(state, seat, text("sa.make_tool", seat=seat, tiles=_tiles_text(player)))
        else:
            event(state, seat, text("sa.tool_maker_full", seat=seat))
    elif location == "hut":
        if gain_person(player):
            event(state, seat, text("sa.hut", seat=seat, people=player["people"]))
        else:
            event(state, seat, text("sa.hut_full", seat=seat))
    elif location == "field":
        if gain_food_track(player):
            event(state, seat, text("sa.food_track", seat=seat, level=player["food_track"]))
        else:
            event(state, seat, text("sa.field_full", seat=seat))
    elif location in CARD_SLOTS:
        card = state["display"][CARD_SLOTS.index(location)]
        cost = data.SLOT_COST[location]
        if affordable_with_card(player, lambda have: sum(have.values()) >= cost):
            state["pending"] = {"kind": "buy_card", "seat": seat, "location": location,
                                "card": card}
        else:
            event(state, seat, text("sa.card_unpaid", seat=seat, cost=cost, card=card))
    elif location in BUILDING_STACKS:
        building = state["stacks"][BUILDING_STACKS.index(location)][0]
        if affordable_with_card(player, lambda have: building_affordable(have, building)):
            state["pending"] = {"kind": "buy_building", "seat": seat, "location": location,
                                "building": building, "step": 0, "chosen": no_resources()}
            if BUILDINGS[building]["cost"]["type"] == "any":
                normalise_steps(state, state["pending"])
        else:
            event(state, seat, text("sa.building_unpaid", seat=seat, building=building))
    else:  # pragma: no cover
        raise AssertionError(location)


def _tiles_text(player: dict) -> list[int] | Text:
    """The tool tiles' values as a text parameter: "3/2/2", or "none"."""
    return [tile["value"] for tile in player["tools"]] or text("sa.none")


def _start_roll(state: State, seat: int, source: str, good: str, divisor: int,
                dice: list[int]) -> None:
    """After a gathering or card roll: ask about tools if any choice matters, else gain."""
    player = state["players"][seat]
    if has_tool_choice(player, sum(dice), divisor):
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
    if bonus:
        event(state, seat, text("sa.gets_with_tools", seat=seat, amount=amount, good=good,
                                total=total, bonus=bonus, sum=total + bonus))
    else:
        event(state, seat, text("sa.gets", seat=seat, amount=amount, good=good, total=total))


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
    if kind == "resource":
        player["resources"][resource] += 1
        event(state, seat, text("sa.die_resource", seat=seat, face=face, good=resource))
    elif kind == "tool":
        key = "sa.die_tool" if gain_tool(player) else "sa.die_tool_full"
        event(state, seat, text(key, seat=seat, face=face))
    else:
        key = "sa.die_food_track" if gain_food_track(player) else "sa.die_food_track_full"
        event(state, seat, text(key, seat=seat, face=face))


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
    display = state["display"] = list(state["display"])  # (never changed in place)
    display[CARD_SLOTS.index(pending["location"])] = None
    player["cards"] = [*player["cards"], card_id]
    state["pending"] = None
    event(state, seat, text("sa.pays_for_card", seat=seat, pay=pay_text(pay), card=card_id))
    top = CARDS[card_id]["top"]
    kind = top["type"]
    if kind == "dice_for_all":
        _ask_roll(state, seat, card_id, state["num_players"], None, None)
    elif kind == "food":
        player["food"] += top["amount"]
        event(state, seat, text("sa.takes", seat=seat, amount=top["amount"], good="food"))
    elif kind == "resource":
        player["resources"][top["resource"]] += top["amount"]
        event(state, seat, text("sa.takes", seat=seat, amount=top["amount"],
                                good=top["resource"]))
    elif kind == "resource_by_dice":
        _ask_roll(state, seat, card_id, top["dice"], top["resource"], top["divisor"])
    elif kind == "points":
        player["score"] += top["amount"]
        _add_points(player, "cards", top["amount"])
        event(state, seat, text("sa.scores", seat=seat, amount=top["amount"]))
    elif kind == "tool":
        if gain_tool(player):
            event(state, seat, text("sa.gains_tool", seat=seat, tiles=_tiles_text(player)))
        else:
            event(state, seat, text("sa.tools_full", seat=seat))
    elif kind == "food_track":
        if gain_food_track(player):
            event(state, seat, text("sa.food_track", seat=seat, level=player["food_track"]))
        else:
            event(state, seat, text("sa.food_track_full", seat=seat))
    elif kind == "extra_card":
        if state["deck"]:
            extra = state["deck"][0]
            state["deck"] = state["deck"][1:]
            player["cards"] = [*player["cards"], extra]
            event(state, seat, text("sa.draws_hidden", seat=seat),
                  private=text("sa.draws_card", seat=seat, card=extra))
        else:
            event(state, seat, text("sa.deck_empty", seat=seat))
    elif kind == "one_use_tool":
        player["one_use"] = [*player["one_use"], card_id]
        event(state, seat, text("sa.keeps_one_use", seat=seat, value=top["value"]))
    elif kind == "any_two_resources":
        player["two_resources"] = [*player["two_resources"], card_id]
        event(state, seat, text("sa.keeps_two_resources", seat=seat))
    else:  # pragma: no cover
        raise AssertionError(kind)


def _finish_building(state: State, seat: int, pay: dict[str, int]) -> None:
    pending = state["pending"]
    player = state["players"][seat]
    _pay(player, pay)
    building_id = pending["building"]
    stacks = state["stacks"] = list(state["stacks"])  # (never changed in place)
    index = BUILDING_STACKS.index(pending["location"])
    stack = stacks[index] = stacks[index][1:]
    points = BUILDINGS[building_id]["points"]
    if points is None:
        points = sum(VALUE[kind] * pay.get(kind, 0) for kind in RESOURCES)
    player["buildings"] = [*player["buildings"], {"id": building_id, "points": points}]
    player["score"] += points
    _add_points(player, "buildings", points)
    state["pending"] = None
    event(state, seat, text("sa.buys_building", seat=seat, pay=pay_text(pay),
                            building=building_id, points=points))
    if not stack:
        state["last_stack_emptied"] = True
        event(state, None, text("sa.stack_empty"))


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
        event(state, seat, text("sa.feeds_missing", seat=seat, shortfall=pending["shortfall"],
                                pay=pay_text(pay)))
    else:
        _finish_building(state, seat, pay)


def _do_decline(state: State, seat: int) -> None:
    pending = state["pending"]
    if pending["kind"] == "buy_card":
        declined = text("sa.declines_card", seat=seat, card=pending["card"])
    else:
        declined = text("sa.declines_building", seat=seat, building=pending["building"])
    state["pending"] = None
    event(state, seat, declined)


def _do_penalty(state: State, seat: int) -> None:
    player = state["players"][seat]
    player["score"] -= data.FEEDING_PENALTY
    _add_points(player, "penalties", 1)
    shortfall = state["pending"]["shortfall"]
    state["pending"] = None
    event(state, seat, text("sa.short_penalty", seat=seat, shortfall=shortfall))


def _do_two_resources(state: State, seat: int, take: dict[str, int]) -> None:
    player = state["players"][seat]
    card_id = player["two_resources"][0]
    player["two_resources"] = player["two_resources"][1:]
    for kind in RESOURCES:
        player["resources"][kind] += take[kind]
    event(state, seat, text("sa.uses_card", seat=seat, card=card_id, pay=pay_text(take)))
    pending = state["pending"]
    if pending is not None and "step" in pending:
        # Holdings changed: start the payment over so every kind can be chosen again.
        pending["step"] = 0
        pending["chosen"] = no_resources()
        if pending["kind"] == "feeding" or (
                BUILDINGS[pending["building"]]["cost"]["type"] == "any"):
            normalise_steps(state, pending)


# ----- the flow between decisions -------------------------------------------------------------


def _advance(state: State, only_seat: int | None = None) -> None:
    """Run everything that needs no decision until a seat must decide or the game ends. With
    `only_seat`, the state is a copy made with only_seat (the other players still shared): they
    are copied before anything is done."""
    while state["phase"] != "over" and state["pending"] is None:
        phase = state["phase"]
        if phase == "placement":
            return
        if phase == "actions" and len(state["players"][state["turn"]]["placed"]) > 1:
            return  # the seat chooses which location to resolve next
        if only_seat is not None:
            copy_other_players(state, only_seat)
            only_seat = None
        if phase == "actions":
            seat = state["turn"]
            placed = state["players"][seat]["placed"]
            if len(placed) == 1:
                # Only one location left: there is no order to choose.
                _do_resolve(state, seat, next(iter(placed)))
                continue
            state["action_queue"] = state["action_queue"][1:]
            if state["action_queue"]:
                state["turn"] = state["action_queue"][0]
            else:
                _start_feeding(state)
            continue
        if phase == "feeding":
            if not state["feeding_queue"]:
                _end_round(state)
                continue
            seat = state["feeding_queue"][0]
            state["feeding_queue"] = state["feeding_queue"][1:]
            state["turn"] = seat
            _feed(state, seat)
            continue
        raise AssertionError(phase)  # pragma: no cover


def _start_feeding(state: State) -> None:
    num = state["num_players"]
    first = state["first_player"]
    state["phase"] = "feeding"
    state["feeding_queue"] = [(first + i) % num for i in range(num)]
    event(state, None, text("sa.feeding"))


def _feed(state: State, seat: int) -> None:
    player = state["players"][seat]
    player["food"] += player["food_track"]
    need = player["people"]
    if player["food"] >= need:
        player["food"] -= need
        event(state, seat, text("sa.feeds", seat=seat, people=need, food=player["food"]))
        return
    shortfall = need - player["food"]
    player["food"] = 0
    can_pay = resource_total(player) + (2 if player["two_resources"] else 0) >= shortfall
    if not can_pay:
        player["score"] -= data.FEEDING_PENALTY
        _add_points(player, "penalties", 1)
        event(state, seat, text("sa.short_unpayable", seat=seat, shortfall=shortfall))
        return
    pending = {"kind": "feeding", "seat": seat, "shortfall": shortfall, "step": 0,
               "chosen": no_resources()}
    state["pending"] = pending
    normalise_steps(state, pending)
    event(state, seat, text("sa.short", seat=seat, shortfall=shortfall))


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
    state["display"] = remaining + state["deck"][:empty]
    state["deck"] = state["deck"][empty:]
    for player in state["players"]:
        player["tools"] = [dict(tile, used=False) for tile in player["tools"]]
        player["placed"] = {}
        player["unplaced"] = player["people"]
    state["round"] += 1
    state["phase"] = "placement"
    state["turn"] = state["first_player"]
    state["action_queue"] = []
    event(state, None, text("sa.round", round=state["round"], seat=state["first_player"]))


def _game_over(state: State, reason: str) -> None:
    state["phase"] = "over"
    state["ended_by"] = reason
    state["turn"] = None
    if reason == "buildings":
        event(state, None, text("sa.end_buildings"))
    else:
        event(state, None, text("sa.end_cards"))
