"""The Caverna state machine: set-up, rounds, the work phase, action spaces, harvest.

Everything a player decides is a task on `state["stack"]` (a list used as a stack); automatic
steps are tasks too. `run` executes automatic tasks until a decision is on top (or the game is
over), so the top of the stack always says who acts and what about.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from games.engines.base import IllegalAction, SeededRandom, new_rng_state
from games.engines.fastcopy import deep_copy
from games.engines.texts import text

from . import animals as animal_rules
from . import board as B
from . import board_memo, effects
from .data import (
    LOOT,
    ROUND_CARDS,
    SOLO_CARD_ORDER,
    SPACE_ACTIONS_V4,
    SPACES,
    SPACES_BY_COUNT,
    TILES,
)
from .versions import RULES_VERSION, is_legacy

State = dict[str, Any]

GOODS = ("wood", "stone", "ore", "ruby", "gold", "food", "grain", "vegetable")
FARM = ("sheep", "donkey", "wild_boar", "cattle")
ANIMALS = (*FARM, "dog")
STARTING_FOOD = [1, 1, 2, 3, 3, 3, 3]
SOLO_STARTING_FOOD = 2
#: Ruby trades 1:1 as printed on the overview card (version 4 on).
RUBY_GOODS = (
    "dog",
    "sheep",
    "donkey",
    "wild_boar",
    "grain",
    "vegetable",
    "wood",
    "stone",
    "ore",
)
#: Versions up to 3 followed the seed's translation, which adds gold to the ruby trades.
LEGACY_RUBY_GOODS = (*RUBY_GOODS, "gold")
FOOD_VALUE = {
    "sheep": 1,
    "donkey": 1,
    "wild_boar": 2,
    "cattle": 3,
    "grain": 1,
    "vegetable": 2,
    "ruby": 2,
}
MARKET_PRICES = {
    "wood": 1,
    "stone": 1,
    "ore": 1,
    "grain": 1,
    "sheep": 1,
    "donkey": 1,
    "vegetable": 2,
    "wild_boar": 2,
    "dog": 2,
    "cattle": 3,
}
LOOT_BY_ID = {item["id"]: item for item in LOOT}
MAX_WEAPON = 14
IMITATION_SPACES = {sid for sid, s in SPACES.items() if "imitation_cost" in s}
STARTING_PLAYER_SPACES = {"starting_player_1_3", "starting_player_4_7"}
SCOPES = {
    "any_furnishing_tile": tuple(TILES),
    "dwelling_tiles": B.DWELLING_TILES,
    "ordinary_dwelling": ("dwelling",),
}


def fast_copy(obj: Any) -> Any:
    """Deep copy for JSON-shaped data: a pickle round trip, about twice as fast as a recursive
    copy and four times faster than copy.deepcopy (the state is plain dicts, lists, str, int,
    bool and None, so nothing but data is pickled)."""
    return pickle.loads(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL))


#: A player's fields by what a copy must renew: dicts of counts, lists of flat dicts (the
#: dwarfs, the Ore/Ruby delivery rounds), the rest numbers and flags. The home board's cells
#: (24 dicts, most of a copy's work) change seldom: they are never changed in place, only
#: replaced as a whole (cells_to_change), so a copy shares them.
PLAYER_COUNTS = ("supply", "animals")
PLAYER_RECORDS = ("dwarfs", "deliveries")
PLAYER_FIELDS = frozenset((*PLAYER_COUNTS, *PLAYER_RECORDS, "cells", "begging", "skip",
                           "stables", "guest_room_extension"))
#: The state's fields by what a copy must renew: the players (copied by their shape), the
#: spaces (a new dict of the same space dicts: a space is never changed in place, only replaced,
#: see set_space), the stack (deep), containers of plain texts and numbers (the log, the space
#: order, the round facts; copied flat), numbers and texts (shared).
STATE_FLAT_LISTS = ("rounds", "order", "cards", "built", "log")
STATE_FLAT_DICTS = ("rng", "options", "deck", "markers", "revealed", "harvest")
STATE_FIELDS = frozenset(("players", "spaces", "stack", *STATE_FLAT_LISTS, *STATE_FLAT_DICTS,
                          "rules_version", "n", "round", "reds", "start", "phase", "work_seat"))


def _copy_player(player: dict[str, Any]) -> dict[str, Any]:
    if not player.keys() <= PLAYER_FIELDS:  # not the shape this copy knows: copy it all
        return fast_copy(player)
    new = dict(player)
    for key in PLAYER_COUNTS:
        new[key] = dict(player[key])
    for key in PLAYER_RECORDS:
        if key in player:
            new[key] = [dict(record) for record in player[key]]
    return new


def copy_state(state: State) -> State:
    """A copy of the state that apply_action and run may change freely, made by its shape: new
    dicts and lists wherever they change anything in place, the texts and numbers shared. About
    twice as fast as a deep copy, which spends its time on the many small dicts of the home
    boards and on the log's entries. Anything of another shape is copied whole."""
    if not state.keys() <= STATE_FIELDS:
        return fast_copy(state)
    new = dict(state)
    new["players"] = [_copy_player(player) for player in state["players"]]
    new["spaces"] = dict(state["spaces"])
    new["stack"] = deep_copy(state["stack"])  # a few small tasks holding lists of their own
    for key in STATE_FLAT_LISTS:
        if key in state:
            new[key] = list(state[key])
    for key in STATE_FLAT_DICTS:
        if key in state:
            new[key] = dict(state[key])
    return new


class _Sharing(threading.local):
    #: ids of the player dicts that the state being changed shares with the state it was copied
    #: from (apply_copy): player_to_change copies such a player before anything changes it.
    players: frozenset[int] = frozenset()


_sharing = _Sharing()


def player_to_change(state: State, seat: int) -> dict[str, Any]:
    """Seat `seat`'s player, its own to change: a player shared with the state this one was
    copied from is copied first. Everything that changes a player fetches it through here."""
    p = state["players"][seat]
    shared = _sharing.players
    if shared and id(p) in shared:
        p = state["players"][seat] = _copy_player(p)
    return p


@board_memo.scoped
def apply_copy(state: State, seat: int, action: dict[str, Any]) -> State:
    """`action` (already checked) applied to a copy of `state`, run to the next decision. Only
    the players that change are copied: most actions change one player's goods, and the copy of
    the other players' counts and dwarfs was a good part of every action's cost."""
    if state.keys() <= STATE_FIELDS:
        # The players are changed only through player_to_change, which copies a shared one
        # first; the log, the built tiles and the round's facts are only ever replaced (log,
        # build_tile, round_start); the spaces are replaced one by one (set_space) in a new dict.
        new = dict(state)
        new["players"] = list(state["players"])
        new["spaces"] = dict(state["spaces"])
        new["stack"] = deep_copy(state["stack"])  # tasks change in place
        _sharing.players = frozenset(map(id, new["players"]))
    else:
        new = fast_copy(state)
    try:
        apply_action(new, seat, action)
        run(new, seat)
    finally:
        _sharing.players = frozenset()
    return new


def cells_to_change(p: dict[str, Any]) -> list[dict[str, Any]]:
    """The player's cells, new, for changing: cells are never changed in place (a copy of the
    state shares them), the whole board is replaced instead."""
    cells = p["cells"] = [dict(cell) for cell in p["cells"]]
    return cells


def set_space(state: State, sid: str, **changes: Any) -> None:
    """Changes space `sid` by replacing it: spaces are never changed in place (a copy of the
    state shares them), nor are their goods."""
    state["spaces"][sid] = {**state["spaces"][sid], **changes}


# ======================================================================== set-up


def played_rounds(num_players: int) -> list[int]:
    return [r for r in range(1, 13) if not (num_players <= 2 and r == 9)]


def new_game(
    num_players: int, seed: str, options: dict[str, Any], version: int = RULES_VERSION
) -> State:
    rng = SeededRandom(seed)
    state: State = {"rng": new_rng_state(seed)}
    if version >= RULES_VERSION:
        state["rules_version"] = version  # a legacy state stays exactly as it was recorded
    n = num_players
    # Round cards: each stage shuffled separately; Wish for children fixed at round 4.
    if n == 1:
        order = list(SOLO_CARD_ORDER)
    else:
        stages: dict[int, list[str]] = {1: [], 2: [], 3: [], 4: []}
        for card in ROUND_CARDS:
            if card["id"] == "wish_for_children" or n not in card["player_counts"]:
                continue
            stages[card["stage"]].append(card["id"])
        order = [*rng.shuffled(stages[1]), "wish_for_children", *rng.shuffled(stages[2])]
        order += rng.shuffled(stages[3]) + ([None] if n == 2 else []) + rng.shuffled(stages[4])
    deck = {str(r): order[r - 1] for r in range(1, 13)}
    # Harvest markers on rounds 6-12 (2 players: one green removed, round 9 empty; solo: none).
    markers: dict[str, str] = {}
    if n >= 2:
        pool = ["green"] * (4 if n >= 3 else 3) + ["red"] * 3
        pool = rng.shuffled(pool)
        rounds = [r for r in range(6, 13) if not (n == 2 and r == 9)]
        markers = {str(r): m for r, m in zip(rounds, pool, strict=True)}
    start = rng.randbelow(n)
    players = []
    for seat in range(n):
        position = (seat - start) % n
        supply = {g: 0 for g in GOODS}
        supply["food"] = SOLO_STARTING_FOOD if n == 1 else STARTING_FOOD[position]
        players.append(
            {
                "supply": supply,
                "animals": {a: 0 for a in ANIMALS},
                "dwarfs": [{"w": 0, "at": None, "new": False}, {"w": 0, "at": None, "new": False}],
                "stables": 3,
                "cells": B.new_board(),
                "begging": 0,
                "skip": None,
            }
        )
    state.update(
        {
            "n": n,
            "options": dict(options),
            "round": 0,
            "rounds": played_rounds(n),
            "deck": deck,
            "markers": markers,
            "revealed": {},
            "reds": 0,
            "harvest": {"1": "none", "2": "none", "3": "normal", "4": "one", "5": "normal"},
            "spaces": {sid: {"goods": {}, "occ": None} for sid in SPACES_BY_COUNT[n]},
            "order": list(SPACES_BY_COUNT[n]),
            "cards": [],
            "start": start,
            "built": [],
            "players": players,
            "phase": "setup",
            "work_seat": start,
            "stack": [{"t": "round_start"}],
            "log": [],
        }
    )
    rng.save(state)
    run(state)
    return state


# ======================================================================== small helpers


def space_actions(state: State, sid: str) -> dict[str, Any]:
    """The action tree of space `sid` under the state's rules version."""
    if sid in SPACE_ACTIONS_V4 and not is_legacy(state):
        return SPACE_ACTIONS_V4[sid]
    return SPACES[sid]["actions"]


def node_at(state: State, src: str, path: list[int]) -> dict[str, Any]:
    node = space_actions(state, src)
    for k in path:
        node = node["items"][k]
    return node


def has(p: dict[str, Any], cost: dict[str, int]) -> bool:
    supply = p["supply"]
    for g, v in cost.items():  # noqa: SIM110 - asked for every cost of every space: no generator
        if supply.get(g, 0) < v:
            return False
    return True


def pay(p: dict[str, Any], cost: dict[str, int]) -> None:
    for g, v in cost.items():
        if p["supply"][g] < v:
            raise IllegalAction(f"Not enough {g}.", text("cv.refuse_not_enough", good=g))
        p["supply"][g] -= v


def gain(state: State, seat: int, goods: dict[str, int]) -> None:
    if not goods:  # nothing to receive, nor anything a tile gives for it
        return
    p = player_to_change(state, seat)
    for g, v in goods.items():
        if g in ANIMALS:
            p["animals"][g] += v
        else:
            p["supply"][g] += v
    for g, v in effects.on_gain(state, seat, goods).items():
        p["supply"][g] += v


def dwarfs_in_play(p: dict[str, Any]) -> int:
    return len(p["dwarfs"])


def animals_fit(p: dict[str, Any]) -> bool:
    return animal_rules.fits(p["cells"], dwarfs_in_play(p), p["animals"])


def _board_fact(cells: list[dict[str, Any]], name: str, work: Any) -> Any:
    """`work(cells)`, kept with the board's facts (see board_memo): never change it."""
    known = board_memo.facts(cells)
    value = known.get(name, _UNKNOWN)
    if value is _UNKNOWN:
        value = known[name] = work(cells)
    return value


_UNKNOWN = object()


def can_grow(p: dict[str, Any]) -> bool:
    return len(p["dwarfs"]) < _board_fact(p["cells"], "family_limit", B.family_limit)


def empty_fields(p: dict[str, Any]) -> list[int]:
    """The player's unsown fields (shared with the engine call's board facts: do not change)."""
    return _board_fact(p["cells"], "empty_fields", B.empty_fields)


_BUILD_SPOTS = {
    "small": B.small_pasture_spots,
    "large": B.large_pasture_spots,
    "stable": B.stable_spots,
}


def build_spots(p: dict[str, Any], what: str) -> list[Any]:
    """Where a small or large pasture or a stable may go (shared with the engine call's board
    facts: do not change)."""
    return _board_fact(p["cells"], what + "_spots", _BUILD_SPOTS[what])


def available_dwarfs(p: dict[str, Any]) -> list[int]:
    return [i for i, d in enumerate(p["dwarfs"]) if d["at"] is None and not d["new"]]


def default_dwarf(p: dict[str, Any]) -> int | None:
    free = available_dwarfs(p)
    if not free:
        return None
    return min(free, key=lambda i: (p["dwarfs"][i]["w"], i))


def _ore_mines(cells: list[dict[str, Any]]) -> int:
    return B.count_kind(cells, "ore_mine")


def _ruby_mines(cells: list[dict[str, Any]]) -> int:
    return B.count_kind(cells, "ruby_mine")


def ore_mines(p: dict[str, Any]) -> int:
    return _board_fact(p["cells"], "ore_mines", _ore_mines)


def ruby_mines(p: dict[str, Any]) -> int:
    return _board_fact(p["cells"], "ruby_mines", _ruby_mines)


def tile_available(state: State, tile: str) -> bool:
    return not TILES[tile]["unique"] or tile not in state["built"]


#: Tile effects that change what a furnishing tile costs (effects.tile_cost, effects.payments).
PRICE_TILES = ("carpenter", "stone_carver", "builder")
#: Every way to pay for a tile, by (tile, printed or given cost, PRICE_TILES owned): costs are
#: facts, so the prices are worked out once.
_PRICES: dict[tuple, tuple[tuple[list[str], dict[str, int]], ...]] = {}
#: The tiles of a furnishing scope with what is asked of each, by (scope, cost, PRICE_TILES
#: owned): (tile, unique, an overbuild tile, the ways to pay).
_FURNISH_TABLES: dict[tuple, tuple[tuple[str, bool, bool, tuple], ...]] = {}


def _cost_key(cost: dict | None) -> Any:
    return None if cost is None else tuple(cost.items())


def _prices(tile: str, cost: dict | None, mine: frozenset[str] | set[str]
            ) -> tuple[tuple[list[str], dict[str, int]], ...]:
    """Every way to pay for `tile` with the owned tiles `mine`, affordable or not."""
    flags = tuple(t in mine for t in PRICE_TILES)
    key = (tile, _cost_key(cost), flags)
    known = _PRICES.get(key)
    if known is None:
        base = cost if cost is not None else TILES[tile]["cost"]
        price = effects.tile_cost({}, 0, tile, base, mine)
        known = _PRICES[key] = tuple(effects.payments({}, 0, price, mine))
    return known


def furnish_payments(
    state: State, seat: int, tile: str, cost: dict | None, mine: set[str] | None = None
) -> list[tuple[list[str], dict[str, int]]]:
    """The affordable ways to pay for `tile` (several only with the Builder). The lists and
    payments are shared facts: read them, do not change them."""
    p = state["players"][seat]
    if mine is None:
        mine = effects.owned(p)
    return [(subs, pay) for subs, pay in _prices(tile, cost, mine) if has(p, pay)]


def furnish_options(state: State, seat: int, scope: str, cost: dict | None) -> list[str]:
    return list(_furnishable(state, seat, scope, cost))


def _furnish_table(scope: str, cost: dict | None, mine: frozenset[str] | set[str]
                   ) -> tuple[tuple[str, bool, bool, tuple], ...]:
    key = (scope, _cost_key(cost), tuple(t in mine for t in PRICE_TILES))
    table = _FURNISH_TABLES.get(key)
    if table is None:
        table = _FURNISH_TABLES[key] = tuple(
            (tile, TILES[tile]["unique"], tile in effects.OVERBUILD,
             tuple(pay for _subs, pay in _prices(tile, cost, mine)))
            for tile in SCOPES[scope]
        )
    return table


def _furnish_room(p: dict[str, Any], mine: frozenset[str] | set[str]) -> bool:
    known = board_memo.facts(p["cells"])
    room = known.get("furnish_room")
    if room is None:
        room = known["furnish_room"] = bool(effects.furnish_spots(p, "dwelling", mine))
    return room


def _furnishable(state: State, seat: int, scope: str, cost: dict | None,
                 only: str | None = None) -> Iterator[str]:
    """The tiles of `scope` the seat can furnish now, in order (lazily: a feasibility check
    stops at the first); with `only`, that tile if it is one of them."""
    p = state["players"][seat]
    mine = effects.owned(p)
    room = _furnish_room(p, mine)
    overbuild = any(t in mine for t in effects.OVERBUILD)
    if not room and not overbuild:
        return
    built = state["built"]
    for tile, unique, overbuilds, pays in _furnish_table(scope, cost, mine):
        if only is not None and tile != only:
            continue
        if unique and tile in built:
            continue
        if overbuilds and overbuild:
            if not effects.furnish_spots(p, tile, mine):
                continue
        elif not room:
            continue
        for pay in pays:
            if has(p, pay):
                yield tile
                break


def tile_spots(p: dict[str, Any], tile: str, on: str | None = None) -> list[list[Any]]:
    """Every legal placement of a landscape tile as lists of cell indices (first = first half).
    With the Office room a twin may overhang the board: its off-board half is an (x, y) tuple.
    The placements are shared with the engine call's board facts: read them, do not change them."""
    known = board_memo.facts(p["cells"])
    key = ("spots", tile, on)
    spots = known.get(key)
    if spots is None:
        spots = known[key] = list(_iter_tile_spots(p, tile, on))
    return list(spots)


def has_tile_spot(p: dict[str, Any], tile: str, on: str | None = None) -> bool:
    """Whether tile_spots(p, tile, on) is not empty: the search stops at the first spot."""
    known = board_memo.facts(p["cells"])
    key = ("spot", tile, on)
    found = known.get(key)
    if found is None:
        spots = known.get(("spots", tile, on))
        if spots is not None:
            found = bool(spots)
        else:
            found = next(_iter_tile_spots(p, tile, on), None) is not None
        known[key] = found
    return found


def _iter_tile_spots(p: dict[str, Any], tile: str, on: str | None) -> Iterator[list[Any]]:
    cells = p["cells"]
    if tile == "meadow_field_twin":
        for t in B.iter_forest_twin_spots(cells):
            yield list(t)
        if effects.owns(p, "office_room"):
            for i, off in B.iter_overhang_spots(cells, forest=True):
                yield [i, off]  # the meadow stays on the board
                if not cells[i]["st"]:
                    yield [off, i]  # the field stays on the board
    elif tile in ("cavern_tunnel_twin", "cavern_cavern_twin"):
        ordered = tile == "cavern_tunnel_twin"
        for t in B.iter_mountain_twin_spots(cells, ordered=ordered):
            yield list(t)
        if effects.owns(p, "office_room"):
            for i, off in B.iter_overhang_spots(cells, forest=False):
                yield [i, off]
                if ordered:
                    yield [off, i]  # the tunnel stays on the board
    elif tile == "ore_mine_deep_tunnel_twin":
        for t in B.iter_ore_mine_spots(cells):
            yield list(t)
    elif tile == "ruby_mine":
        for i in B.iter_ruby_mine_spots(cells, on):
            yield [i]
    elif tile in ("meadow", "field"):
        for i in B.iter_single_forest_spots(cells, tile):
            yield [i]
    elif tile in ("tunnel", "cavern"):
        for i in B.iter_single_mountain_spots(cells):
            yield [i]
    else:
        raise ValueError(tile)


def spot_xy(spot: Any) -> list[int]:
    return B.xy(spot) if isinstance(spot, int) else [spot[0], spot[1]]


def xy_spot(at: list[int]) -> Any:
    return B.idx(at[0], at[1]) if B.on_board(at[0], at[1]) else (at[0], at[1])


def place_tile(state: State, seat: int, tile: str, spots: list[Any]) -> None:
    p = player_to_change(state, seat)
    cells = cells_to_change(p)
    gains: dict[str, int] = {}
    kinds = {
        "meadow_field_twin": ("meadow", "field"),
        "cavern_tunnel_twin": ("cavern", "tunnel"),
        "cavern_cavern_twin": ("cavern", "cavern"),
        "ore_mine_deep_tunnel_twin": ("ore_mine", "deep_tunnel"),
    }.get(tile, (tile,))
    for spot, kind in zip(spots, kinds, strict=True):
        if not isinstance(spot, int):
            # Office room: this half hangs off the board; it is not part of the home board.
            gains["gold"] = gains.get("gold", 0) + 2
            log(state, f"Seat {seat} let a tile overhang the board and took 2 gold (office room).")
            continue
        B.cover(cells, spot, kind, gains)
        if kind == "field":
            cells[spot]["n"] = 0
            cells[spot]["crop"] = None
    gain(state, seat, gains)


def sow_options(p: dict[str, Any], task: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    fields = empty_fields(p)
    for crop, key in (("grain", "g"), ("vegetable", "v")):
        if task[key] > 0 and p["supply"][crop] > 0:
            out.extend({"type": "sow", "crop": crop, "at": B.xy(i)} for i in fields)
    return out


def breed_eligible(p: dict[str, Any]) -> list[str]:
    return [t for t in FARM if p["animals"][t] >= 2]


def fits_with(p: dict[str, Any], extra: list[str]) -> bool:
    animals = dict(p["animals"])
    for t in extra:
        animals[t] += 1
    return animal_rules.fits(p["cells"], dwarfs_in_play(p), animals)


def breed_sets(p: dict[str, Any], max_types: int) -> list[list[str]]:
    """Maximal sets of types whose newborns fit together (at most `max_types` types)."""
    eligible = breed_eligible(p)
    feasible: list[tuple[str, ...]] = []
    for size in range(min(max_types, len(eligible)), 0, -1):
        for combo in combinations(eligible, size):
            if any(set(combo) <= set(f) for f in feasible):
                continue
            if fits_with(p, list(combo)):
                feasible.append(combo)
    return [list(f) for f in feasible]


# ======================================================================== feasibility


def imitation_targets(state: State, seat: int, dwarf: int) -> list[str]:
    out = []
    spaces = state["spaces"]
    checks = space_checks(state)
    p = state["players"][seat]
    for sid in state["order"]:
        occ = spaces[sid]["occ"]
        if occ is None or occ == seat or sid in STARTING_PLAYER_SPACES or sid in IMITATION_SPACES:
            continue
        if checks[sid](state, seat, p, dwarf, sid, True):
            out.append(sid)
    return out


def feasible(state: State, seat: int, dwarf: int, src: str, node: dict, imit: bool) -> bool:
    """Whether `seat` can carry out at least one part of `node` (RULES.md section 5)."""
    return checker(node)(state, seat, state["players"][seat], dwarf, src, imit)


#: A feasibility check: (state, seat, player, dwarf, source space, imitating) -> bool.
Check = Callable[[State, int, dict[str, Any], Any, str, bool], bool]
#: The check of each action node, made once: the nodes are the facts' own dicts (kept here with
#: their check, so that no other dict takes their id).
_CHECKS: dict[int, tuple[dict, Check]] = {}


def checker(node: dict) -> Check:
    """The feasibility check of `node` (see feasible), its tree walked once instead of at every
    space of every placement."""
    known = _CHECKS.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    if len(_CHECKS) > 4096:  # nodes made on the fly (not the facts'): keep the table small
        _CHECKS.clear()
    check = _compile_check(node)
    _CHECKS[id(node)] = (node, check)
    return check


def _compile_check(node: dict) -> Check:
    op = node.get("op")
    if op is None:
        return _leaf_check(node)
    items = node["items"]
    if op == "and_then":
        return checker(items[0])
    if op == "all":
        for i in items:
            if i.get("act") == "place_tile":
                # Goods printed beside a tile come with the tile (Ore mine construction's 3 ore,
                # the deep-tunnel ruby, Extension, Small-scale drift mining per the seed).
                return checker(i)
        if any(i.get("act") == "pay" for i in items):
            costs = tuple(checker(i) for i in items if i.get("act") == "pay")
            gains = tuple(checker(i) for i in items if i.get("act") != "pay")

            def paid_for(state: State, seat: int, p: dict, dwarf: Any, src: str, imit: bool
                         ) -> bool:
                for check in costs:
                    if not check(state, seat, p, dwarf, src, imit):
                        return False
                for check in gains:  # noqa: SIM110 - plain loop: no generator per check
                    if check(state, seat, p, dwarf, src, imit):
                        return True
                return False

            return paid_for
    parts = tuple(checker(i) for i in items)

    def any_part(state: State, seat: int, p: dict, dwarf: Any, src: str, imit: bool) -> bool:
        for check in parts:  # noqa: SIM110 - plain loop: no generator per check
            if check(state, seat, p, dwarf, src, imit):
                return True
        return False

    return any_part


#: The feasibility check of every action space's tree, for legacy states and for the others.
_SPACE_CHECKS: dict[bool, dict[str, Check]] = {}


def space_checks(state: State) -> dict[str, Check]:
    """The check of space_actions(state, sid) for every space `sid`."""
    legacy = is_legacy(state)
    checks = _SPACE_CHECKS.get(legacy)
    if checks is None:
        checks = _SPACE_CHECKS[legacy] = {
            sid: checker(SPACE_ACTIONS_V4[sid] if sid in SPACE_ACTIONS_V4 and not legacy
                         else SPACES[sid]["actions"])
            for sid in SPACES
        }
    return checks


def _always(state: State, seat: int, p: dict, dwarf: Any, src: str, imit: bool) -> bool:
    return True


def _weapon(p: dict[str, Any], dwarf: Any) -> int:
    return p["dwarfs"][dwarf]["w"] if dwarf is not None else 0


def _leaf_check(node: dict) -> Check:
    act = node["act"]
    if act in ("gain", "become_starting_player", "all_weapons_plus_one_after_expedition"):
        return _always
    if act == "take_accumulated":
        return lambda state, seat, p, dwarf, src, imit: (
            not imit and any(state["spaces"][src]["goods"].values()))
    if act == "gain_if":
        least = node["condition"]["ruby_mines_at_least"]
        return lambda state, seat, p, dwarf, src, imit: ruby_mines(p) >= least
    if act == "gain_per":
        return lambda state, seat, p, dwarf, src, imit: ore_mines(p) > 0
    if act == "pay" or act == "exchange":
        cost = node["goods"] if act == "pay" else node["pay"]
        return lambda state, seat, p, dwarf, src, imit: has(p, cost)
    if act == "place_tile":
        tiles, on = tuple(node["tiles"]), node.get("on")

        def place_tile(state: State, seat: int, p: dict, dwarf: Any, src: str, imit: bool
                       ) -> bool:
            for t in tiles:  # noqa: SIM110 - plain loop: no generator per check
                if has_tile_spot(p, t, on):
                    return True
            return False

        return place_tile
    if act == "furnish":
        scope, cost = node["scope"], node.get("cost")
        return lambda state, seat, p, dwarf, src, imit: (
            next(_furnishable(state, seat, scope, cost), None) is not None)
    if act == "family_growth":
        return lambda state, seat, p, dwarf, src, imit: can_grow(p)
    if act == "sow":
        return lambda state, seat, p, dwarf, src, imit: bool(empty_fields(p)) and (
            p["supply"]["grain"] > 0 or p["supply"]["vegetable"] > 0)
    if act in ("build_small_pasture", "build_large_pasture", "build_stable"):
        what = {"build_small_pasture": "small", "build_large_pasture": "large",
                "build_stable": "stable"}[act]
        base = node["cost"]

        def build(state: State, seat: int, p: dict, dwarf: Any, src: str, imit: bool) -> bool:
            cost = effects.build_cost(state, seat, what, base)
            if what == "stable":
                return p["stables"] > 0 and has(p, cost) and bool(build_spots(p, what))
            return bool(build_spots(p, what)) and has(p, cost)

        return build
    if act == "forge_weapon":
        return lambda state, seat, p, dwarf, src, imit: (
            _weapon(p, dwarf) == 0
            and p["supply"]["ore"] + effects.forge_discount(state, seat) >= 1)
    if act == "expedition":
        return lambda state, seat, p, dwarf, src, imit: _weapon(p, dwarf) > 0
    if act == "imitate":
        return lambda state, seat, p, dwarf, src, imit: bool(
            imitation_targets(state, seat, dwarf))
    if act == "weekly_market_buy":
        return lambda state, seat, p, dwarf, src, imit: p["supply"]["gold"] >= 1
    if act == "breed":
        max_types = node["max_types"]
        return lambda state, seat, p, dwarf, src, imit: bool(breed_sets(p, max_types))

    def unknown(state: State, seat: int, p: dict, dwarf: Any, src: str, imit: bool) -> bool:
        raise ValueError(act)

    return unknown


#: The space on which the Guest room's "and/or" counts only once per game (from version 4).
GUEST_ROOM_ONCE = "extension"


def guest_room_applies(state: State, task: dict[str, Any]) -> bool:
    """Whether the Guest room turns this "either ... or" frame into "and/or". On Extension it does
    so once per game (as Board Game Arena rules it; versions up to 3 had no limit): the use is
    spent when a second part is taken there, and a frame that has already spent it keeps it."""
    seat = task["seat"]
    if not effects.either_or_is_and_or(state, seat):
        return False
    if task["src"] != GUEST_ROOM_ONCE or is_legacy(state):
        return True
    return not state["players"][seat].get("guest_room_extension") or len(task["taken"]) > 1


def frame_candidates(state: State, task: dict[str, Any], only: int | None = None) -> list[int]:
    """The parts of the frame `task` that may be taken now; with `only`, that part if it may
    (the list's part holding it)."""
    node = node_at(state, task["src"], task["path"])
    op = node["op"]
    taken = task["taken"]
    items = node["items"]
    if op == "either_or" and guest_room_applies(state, task):
        op = "and_or"
    seat, dwarf, src, imit = task["seat"], task["d"], task["src"], task["imit"]
    p = state["players"][seat]

    def ok(k: int) -> bool:
        return checker(items[k])(state, seat, p, dwarf, src, imit)

    def parts(start: int) -> range:
        if only is None:
            return range(start, len(items))
        return range(only, only + 1) if start <= only < len(items) else range(0)

    if op == "and_or":
        return [k for k in parts(0) if k not in taken and ok(k)]
    if op == "and_then_or":
        last = max(taken, default=-1)
        return [k for k in parts(last + 1) if ok(k)]
    if op == "either_or":
        return [] if taken else [k for k in parts(0) if ok(k)]
    if op == "and_then":
        nxt = len(taken)
        return [nxt] if nxt < len(items) and (only is None or only == nxt) and ok(nxt) else []
    raise ValueError(op)


# ======================================================================== pushing work


def push_node(state: State, seat: int, dwarf: int, src: str, path: list[int], imit: bool) -> None:
    node = node_at(state, src, path)
    base = {"seat": seat, "d": dwarf, "src": src, "imit": imit}
    if "act" in node:
        state["stack"].append({"t": "act", "path": path, **base})
    elif node["op"] == "all":
        for k in reversed(range(len(node["items"]))):
            push_node(state, seat, dwarf, src, [*path, k], imit)
    else:
        state["stack"].append({"t": "frame", "path": path, "taken": [], **base})


def log(state: State, text: str) -> None:
    # Replaced, never changed in place: a state made by apply_copy shares the previous log.
    entries = state["log"] = [*state["log"], text]
    if len(entries) > 40:
        del entries[0]


def exec_act(state: State, task: dict[str, Any]) -> None:
    """An automatic leaf: carry it out, or push the decision it needs."""
    seat, src, imit = task["seat"], task["src"], task["imit"]
    node = node_at(state, src, task["path"])
    p = player_to_change(state, seat)
    act = node["act"]
    if not feasible(state, seat, task["d"], src, node, imit) and act != "gain":
        return  # a part of an "all" group that cannot be done (e.g. no room for the tile)
    stack = state["stack"]
    base = {"seat": seat, "d": task["d"]}
    if act == "take_accumulated":
        goods = state["spaces"][src]["goods"]
        gain(state, seat, goods)
        set_space(state, src, goods={})
    elif act == "gain" or act == "gain_if":
        gain(state, seat, node["goods"])
    elif act == "gain_per":
        gain(state, seat, {g: v * ore_mines(p) for g, v in node["goods"].items()})
    elif act == "pay":
        pay(p, node["goods"])
    elif act == "place_tile":
        stack.append({"t": "tile", "tiles": node["tiles"], "on": node.get("on"), **base})
    elif act == "furnish":
        stack.append({"t": "furnish", "scope": node["scope"], "cost": node.get("cost"), **base})
    elif act == "family_growth":
        p["dwarfs"].append({"w": 0, "at": None, "new": True})
        log(state, f"Seat {seat} welcomed a new dwarf.")
    elif act == "sow":
        stack.append(
            {
                "t": "sow",
                "g": node["max_grain_fields"],
                "v": node["max_vegetable_fields"],
                "n": 0,
                **base,
            }
        )
    elif act in ("build_small_pasture", "build_large_pasture", "build_stable"):
        what = {
            "build_small_pasture": "small",
            "build_large_pasture": "large",
            "build_stable": "stable",
        }[act]
        stack.append({"t": "build", "what": what, "cost": node["cost"], **base})
    elif act == "forge_weapon":
        stack.append({"t": "forge", **base})
    elif act == "expedition":
        stack.append(
            {"t": "expedition", "level": node["level"], "taken": [], "plus": False, **base}
        )
    elif act == "become_starting_player":
        state["start"] = seat
    elif act == "imitate":
        stack.append({"t": "imitate", **base})
    elif act == "exchange":
        stack.append(
            {
                "t": "exchange",
                "pay": node["pay"],
                "get": node["receive"],
                "max": node["max_times"],
                **base,
            }
        )
    elif act == "weekly_market_buy":
        stack.append({"t": "market", "bought": [], **base})
    elif act == "breed":
        stack.append({"t": "breed_pick", "max": node["max_types"], **base})
    else:  # pragma: no cover - data and code disagree
        raise ValueError(act)


def exec_loot(state: State, task: dict[str, Any], item_id: str) -> None:
    effect = LOOT_BY_ID[item_id]["effect"]
    seat = task["seat"]
    act = effect["act"]
    base = {"seat": seat, "d": task["d"]}
    stack = state["stack"]
    if act == "all_weapons_plus_one_after_expedition":
        task["plus"] = True
    elif act == "gain":
        gain(state, seat, effect["goods"])
    elif act == "furnish":
        stack.append({"t": "furnish", "scope": effect["scope"], "cost": effect.get("cost"), **base})
    elif act == "build_stable":
        stack.append({"t": "build", "what": "stable", "cost": effect["cost"], **base})
    elif act == "place_tile":
        stack.append({"t": "tile", "tiles": effect["tiles"], "on": None, **base})
    elif act == "build_small_pasture":
        stack.append({"t": "build", "what": "small", "cost": effect["cost"], **base})
    elif act == "build_large_pasture":
        stack.append({"t": "build", "what": "large", "cost": effect["cost"], **base})
    elif act == "sow":
        stack.append({"t": "sow", "g": 2, "v": 2, "n": 0, **base})
    elif act == "breed":
        stack.append({"t": "breed_pick", "max": effect["max_types"], **base})
    else:  # pragma: no cover
        raise ValueError(act)


def loot_options(state: State, task: dict[str, Any]) -> list[str]:
    p = state["players"][task["seat"]]
    strength = p["dwarfs"][task["d"]]["w"]
    out = []
    for item in LOOT:
        if item["id"] in task["taken"] or item["min_strength"] > strength:
            continue
        if feasible(state, task["seat"], task["d"], "", item["effect"], False):
            out.append(item["id"])
    return out


def finish_expedition(state: State, task: dict[str, Any]) -> None:
    p = player_to_change(state, task["seat"])
    dwarf = p["dwarfs"][task["d"]]
    dwarf["w"] = min(MAX_WEAPON, dwarf["w"] + 1)
    if task["plus"]:
        for other in p["dwarfs"]:
            if other["w"] > 0:
                other["w"] = min(MAX_WEAPON, other["w"] + 1)


# ======================================================================== rounds


def round_start(state: State, task: dict[str, Any]) -> None:
    rounds = state["rounds"]
    r = rounds[rounds.index(state["round"]) + 1] if state["round"] else rounds[0]
    state["round"] = r
    state["phase"] = "start"
    # The round's facts change: new containers (a state made by apply_copy shares them).
    state["order"], state["cards"] = list(state["order"]), list(state["cards"])
    state["revealed"], state["harvest"] = dict(state["revealed"]), dict(state["harvest"])
    card = state["deck"][str(r)]
    if card:
        state["spaces"][card] = {"goods": {}, "occ": None}
        state["order"].append(card)
        state["cards"].append(card)
        if card == "family_life" and "wish_for_children" in state["spaces"]:
            state["spaces"]["urgent_wish_for_children"] = state["spaces"].pop("wish_for_children")
            state["order"][state["order"].index("wish_for_children")] = "urgent_wish_for_children"
    if str(r) in state["markers"]:
        marker = state["markers"][str(r)]
        state["revealed"][str(r)] = marker
        if marker == "red":
            state["reds"] += 1
            state["harvest"][str(r)] = ("none", "one", "choice")[state["reds"] - 1]
        else:
            state["harvest"][str(r)] = "normal"
    elif r >= 6:
        state["harvest"][str(r)] = "normal" if state["n"] == 1 else "none"
    log(state, f"Round {r} begins" + (f": {SPACES[card]['name']} is revealed." if card else "."))
    state["stack"].append({"t": "begin_work"})
    state["stack"].append({"t": "replenish"})
    if state["n"] == 1:
        over = [sid for sid in state["order"] if sum(state["spaces"][sid]["goods"].values()) > 6]
        if over:
            state["stack"].append({"t": "protect", "seat": 0, "spaces": over})


def replenish(state: State, task: dict[str, Any]) -> None:
    r = state["round"]
    for sid in state["order"]:
        acc = SPACES[sid]["accumulation"]
        if not acc:
            continue
        if sid == "ruby_mining" and state["n"] == 2 and r < (7 if is_legacy(state) else 3):
            # 2 players: the card says "from round 3 on"; versions up to 3 read the seed's
            # "first two stages" literally (no rubies before round 7).
            continue
        goods = dict(state["spaces"][sid]["goods"])
        empty = not any(goods.values())
        for g, rule in acc.items():
            add = rule["if_empty"] if empty else rule["if_not_empty"]
            if add:
                goods[g] = goods.get(g, 0) + add
        set_space(state, sid, goods=goods)
    for seat in range(state["n"]):
        gains: dict[str, int] = {}
        if "deliveries" in state["players"][seat]:  # changed by the suppliers' deliveries
            player_to_change(state, seat)
        effects.on_round_start(state, seat, gains)
        gain(state, seat, gains)


def begin_work(state: State, task: dict[str, Any]) -> None:
    state["phase"] = "work"
    state["work_seat"] = state["start"]


def seat_order(state: State) -> list[int]:
    n, s = state["n"], state["start"]
    return [(s + k) % n for k in range(n)]


def end_work(state: State) -> None:
    state["phase"] = "harvest"
    kind = state["harvest"].get(str(state["round"]), "none")
    stack = state["stack"]
    stack.append({"t": "round_end"})
    order = seat_order(state)
    if kind == "none":
        log(state, "No harvest this round.")
        return
    if kind == "one":
        for seat in reversed(order):
            stack.append({"t": "feed", "seat": seat, "mode": "one"})
        return
    for seat in reversed(order):
        stack.append({"t": "breed", "seat": seat})
    for seat in reversed(order):
        stack.append({"t": "feed", "seat": seat, "mode": "normal"})
    stack.append({"t": "fields"})
    if kind == "choice":
        for seat in reversed(order):
            stack.append({"t": "harvest_choice", "seat": seat})


def field_phase(state: State, task: dict[str, Any]) -> None:
    for seat, p in enumerate(state["players"]):
        if p["skip"] == "field":
            continue
        if not any(c["k"] == "field" and c.get("n") for c in p["cells"]):
            continue
        harvester = player_to_change(state, seat)
        for c in cells_to_change(harvester):
            if c["k"] == "field" and c.get("n"):
                harvester["supply"][c["crop"]] += 1
                c["n"] -= 1
                if c["n"] == 0:
                    c["crop"] = None


def food_needed(state: State, seat: int, mode: str) -> int:
    p = state["players"][seat]
    need = len(p["dwarfs"]) if mode == "one" else sum(1 if d["new"] else 2 for d in p["dwarfs"])
    return max(0, need - effects.feeding_reduction(state, seat))


def breed_auto(state: State, task: dict[str, Any]) -> None:
    seat = task["seat"]
    p = state["players"][seat]
    if p["skip"] == "breeding":
        return
    eligible = breed_eligible(p)
    lone = [t for t in FARM if p["animals"][t] == 1]
    if eligible and lone and not task.get("asked") and not fits_with(p, eligible):
        # Not every newborn fits: the player may first convert animals of the types that do not
        # breed (parents and newborns may not be converted during breeding).
        state["stack"].append({"t": "breed", "seat": seat, "asked": True})
        state["stack"].append({"t": "breed_room", "seat": seat})
        return
    sets = breed_sets(p, 4)
    if len(sets) == 1:
        p = player_to_change(state, seat)
        for t in sets[0]:
            p["animals"][t] += 1
        log(state, f"Seat {seat} bred {', '.join(sets[0])}.")
        gain(state, seat, effects.on_breed(state, seat, sets[0]))
    elif len(sets) > 1:
        state["stack"].append({"t": "breed_choice", "seat": seat, "options": sets})


def round_end(state: State, task: dict[str, Any]) -> None:
    for sid in state["order"]:
        set_space(state, sid, occ=None)
    for seat in range(len(state["players"])):
        p = player_to_change(state, seat)
        p["skip"] = None
        for d in p["dwarfs"]:
            d["at"] = None
            d["new"] = False
    if state["round"] == state["rounds"][-1]:
        # Conversions "at any time" get a last chance after the final breeding, seat by seat:
        # every seat from version 4 on; before, only owners of tiles with a trade.
        state["stack"].append({"t": "game_over"})
        legacy = is_legacy(state)
        for seat in reversed(seat_order(state)):
            if not legacy or effects.has_choice_tiles(state["players"][seat]):
                state["stack"].append({"t": "final_trades", "seat": seat})
    else:
        state["stack"].append({"t": "round_start"})


def game_over(state: State, task: dict[str, Any]) -> None:
    state["phase"] = "over"
    log(state, "The game is over.")


AUTO = {
    "game_over": game_over,
    "round_start": round_start,
    "replenish": replenish,
    "begin_work": begin_work,
    "act": exec_act,
    "fields": field_phase,
    "breed": breed_auto,
    "round_end": round_end,
}


def next_worker(state: State) -> int | None:
    n = state["n"]
    for k in range(n):
        seat = (state["work_seat"] + k) % n
        if available_dwarfs(state["players"][seat]):
            return seat
    return None


def settle(state: State, task: dict[str, Any]) -> bool:
    """Resolve a decision that has become trivial or empty. True if the stack changed."""
    t = task["t"]
    stack = state["stack"]
    p = state["players"][task["seat"]] if "seat" in task else None
    if t == "frame":
        candidates = frame_candidates(state, task)
        if not candidates:
            stack.pop()
            return True
        if not task["taken"] and len(candidates) == 1:
            # A forced choice: the only part that can be carried out (at least one must be).
            task["taken"].append(candidates[0])
            push_node(
                state,
                task["seat"],
                task["d"],
                task["src"],
                [*task["path"], candidates[0]],
                task["imit"],
            )
            return True
    elif t == "expedition":
        if len(task["taken"]) >= task["level"] or not loot_options(state, task):
            stack.pop()
            finish_expedition(state, task)
            return True
    elif t == "sow":
        if task["n"] and not sow_options(p, task):
            stack.pop()
            return True
        if not task["n"] and not sow_options(p, task):
            stack.pop()
            return True
    elif t == "market":
        if not any(
            g not in task["bought"] and p["supply"]["gold"] >= c for g, c in MARKET_PRICES.items()
        ):
            stack.pop()
            return True
    elif t == "protect":
        if not p["supply"]["ruby"]:
            for sid in task["spaces"]:
                set_space(state, sid, goods={})
            stack.pop()
            return True
    elif t == "breed_room":
        eligible = breed_eligible(p)
        if not any(p["animals"][a] == 1 for a in FARM) or fits_with(p, eligible):
            stack.pop()
            return True
    elif t == "overflow":
        if animals_fit(p):
            stack.pop()
            return True
    elif t == "furnish_at":
        caverns = effects.furnish_spots(p, task["tile"])
        if len(caverns) == 1:
            stack.pop()
            build_tile(state, task["seat"], task["tile"], caverns[0])
            return True
    elif t in ("tile", "build", "furnish", "forge", "exchange", "imitate", "breed_pick") and (
        not has_decision_actions(state, task)
    ):
        stack.pop()
        return True
    return False


def has_decision_actions(state: State, task: dict[str, Any]) -> bool:
    """Whether decision_actions(state, task) is not empty, for the decisions that settle drops
    when it is: asked after every step, answered without listing the actions."""
    t = task["t"]
    seat = task["seat"]
    p = state["players"][seat]
    if t == "tile":
        on = task.get("on")
        return any(has_tile_spot(p, tile, on) for tile in task["tiles"])
    if t == "furnish":
        return next(_furnishable(state, seat, task["scope"], task["cost"]), None) is not None
    if t == "build":
        cost = effects.build_cost(state, seat, task["what"], task["cost"])
        if not has(p, cost) or (task["what"] == "stable" and p["stables"] <= 0):
            return False
        return bool(build_spots(p, task["what"]))
    if t == "imitate":
        return bool(imitation_targets(state, seat, task["d"]))
    return bool(decision_actions(state, task))


def run(state: State, actor: int | None = None) -> None:
    """Execute automatic steps until a decision is due or the game is over. `actor` is the seat
    that just acted: if its animals no longer fit, it decides about them before anyone else."""
    for _ in range(100000):
        if state["phase"] == "over" and not state["stack"]:
            if actor is not None and overflow_check(state, actor):
                continue
            return
        stack = state["stack"]
        if not stack:
            if state["phase"] == "work":
                seat = next_worker(state)
                if seat is None:
                    end_work(state)
                else:
                    stack.append({"t": "turn", "seat": seat})
                continue
            raise RuntimeError("empty stack outside the work phase")
        task = stack[-1]
        handler = AUTO.get(task["t"])
        if handler:
            stack.pop()
            handler(state, task)
            continue
        if "seat" in task and task["t"] != "overflow" and overflow_check(state, task["seat"]):
            continue
        if settle(state, task):
            continue
        if actor is not None and task.get("seat") != actor and overflow_check(state, actor):
            continue
        return
    raise RuntimeError("run did not settle")  # pragma: no cover


def overflow_check(state: State, seat: int) -> bool:
    p = state["players"][seat]
    if animals_fit(p):
        return False
    state["stack"].append({"t": "overflow", "seat": seat})
    return True


def build_tile(state: State, seat: int, tile: str, cell: int) -> None:
    p = player_to_change(state, seat)
    target = cells_to_change(p)[cell]
    if target["k"] == "room":
        target["under"] = target["tile"]  # Trader / Spare part storage: the covered one is void
    elif target["k"] != "cavern":
        target["was"] = target["k"]  # a tunnel furnished through the Work room
    target["k"] = "room"
    target["tile"] = tile
    if TILES[tile]["unique"]:
        state["built"] = [*state["built"], tile]  # replaced: see apply_copy
    log(state, f"Seat {seat} furnished {TILES[tile]['name']}.")
    gains: dict[str, int] = {}
    effects.on_build(state, seat, tile, cell, gains)
    gain(state, seat, gains)


# ======================================================================== legal actions


def trade_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Conversions a player may make at any time (food table, rubies)."""
    p = state["players"][seat]
    sup, ani = p["supply"], p["animals"]
    out: list[dict[str, Any]] = []
    for a in FARM:
        if ani[a]:
            out.append({"type": "convert", "from": a})
    if ani["donkey"] >= 2:
        out.append({"type": "convert", "from": "donkey_pair"})
    for g in ("grain", "vegetable", "ruby"):
        if sup[g]:
            out.append({"type": "convert", "from": g})
    for amount in range(2, sup["gold"] + 1):
        out.append({"type": "convert", "from": "gold", "amount": amount})
    if sup["ruby"]:
        goods = LEGACY_RUBY_GOODS if is_legacy(state) else RUBY_GOODS
        out.extend({"type": "ruby_trade", "to": g} for g in goods)
        if sup["food"]:
            out.append({"type": "ruby_trade", "to": "cattle"})
        for tile in ("meadow", "field", "tunnel"):
            out.extend(
                {"type": "ruby_tile", "tile": tile, "at": B.xy(s[0])} for s in tile_spots(p, tile)
            )
        if sup["ruby"] >= 2:
            out.extend(
                {"type": "ruby_tile", "tile": "cavern", "at": B.xy(s[0])}
                for s in tile_spots(p, "cavern")
            )
    task = state["stack"][-1] if state["stack"] else {}
    out.extend(effects.tile_trade_actions(p, task.get("d")))
    return out


def placements(state: State, seat: int, dwarf: int) -> list[str]:
    out = []
    spaces = state["spaces"]
    checks = space_checks(state)
    p = state["players"][seat]
    for sid in state["order"]:
        if spaces[sid]["occ"] is not None:
            continue
        if checks[sid](state, seat, p, dwarf, sid, False):
            out.append(sid)
    return out


@board_memo.scoped
def decision_actions(state: State, task: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal actions of the decision `task`, trades excluded."""
    t = task["t"]
    seat = task.get("seat")
    p = state["players"][seat] if seat is not None else None
    if t == "turn":
        dwarf = task.get("d", default_dwarf(p))
        out: list[dict[str, Any]] = [
            {"type": "place", "space": sid} for sid in placements(state, seat, dwarf)
        ]
        if not out:
            out.append({"type": "pass"})
        if "d" not in task and p["supply"]["ruby"]:
            low = p["dwarfs"][dwarf]["w"]
            seen = {low}
            for i in available_dwarfs(p):
                w = p["dwarfs"][i]["w"]
                if w not in seen:
                    seen.add(w)
                    out.append({"type": "reorder", "dwarf": i})
        return out
    if t == "frame":
        out = [{"type": "part", "index": k} for k in frame_candidates(state, task)]
        if task["taken"]:
            out.append({"type": "done"})
        return out
    if t == "tile":
        return [
            {"type": "tile", "tile": tile, "at": [spot_xy(i) for i in spots]}
            for tile in task["tiles"]
            for spots in tile_spots(p, tile, task.get("on"))
        ]
    if t == "furnish":
        return furnish_actions(state, task)
    if t == "furnish_at":
        return [
            {"type": "furnish_at", "at": B.xy(i)} for i in effects.furnish_spots(p, task["tile"])
        ]
    if t == "sow":
        out = sow_options(p, task)
        if task["n"]:
            out.append({"type": "sow_done"})
        return out
    if t == "build":
        cost = effects.build_cost(state, seat, task["what"], task["cost"])
        if not has(p, cost) or (task["what"] == "stable" and p["stables"] <= 0):
            return []
        if task["what"] == "small":
            return [{"type": "build", "at": [B.xy(i)]} for i in build_spots(p, "small")]
        if task["what"] == "large":
            return [
                {"type": "build", "at": [B.xy(a), B.xy(b)]}
                for a, b in build_spots(p, "large")
            ]
        return [{"type": "build", "at": [B.xy(i)]} for i in build_spots(p, "stable")]
    if t == "forge":
        top = min(
            8 + effects.forge_discount(state, seat),
            p["supply"]["ore"] + effects.forge_discount(state, seat),
        )
        return [{"type": "forge", "strength": s} for s in range(1, min(8, top) + 1)]
    if t == "expedition":
        out = [{"type": "loot", "item": i} for i in loot_options(state, task)]
        if task["taken"]:
            out.append({"type": "loot_done"})
        return out
    if t == "imitate":
        return [
            {"type": "imitate", "space": sid} for sid in imitation_targets(state, seat, task["d"])
        ]
    if t == "exchange":
        times = min(task["max"], *(p["supply"][g] // v for g, v in task["pay"].items()))
        return [{"type": "exchange", "times": k} for k in range(1, times + 1)]
    if t == "market":
        out = [
            {"type": "buy", "good": g}
            for g, c in MARKET_PRICES.items()
            if g not in task["bought"] and p["supply"]["gold"] >= c
        ]
        out.append({"type": "market_done"})
        return out
    if t == "breed_pick":
        return [{"type": "breed", "types": s} for s in breed_sets(p, task["max"])]
    if t == "breed_room":
        out = [{"type": "convert", "from": a} for a in FARM if p["animals"][a] == 1]
        out.append({"type": "breed_now"})
        return out
    if t == "breed_choice":
        return [{"type": "breed", "types": s} for s in task["options"]]
    if t == "overflow":
        out = [{"type": "convert", "from": a} for a in FARM if p["animals"][a]]
        if p["animals"]["donkey"] >= 2:
            out.append({"type": "convert", "from": "donkey_pair"})
        out.extend({"type": "release", "animal": a} for a in FARM if p["animals"][a])
        return out
    if t == "feed":
        return [{"type": "feed"}] + [
            {"type": "feed", "with": good} for good in effects.working_cave_options(p)
        ]
    if t == "final_trades":
        return [{"type": "finish"}]
    if t == "harvest_choice":
        return [{"type": "skip", "phase": "field"}, {"type": "skip", "phase": "breeding"}]
    if t == "protect":
        sid = task["spaces"][0]
        out = [{"type": "let_go", "space": sid}]
        if p["supply"]["ruby"]:
            out.insert(0, {"type": "protect", "space": sid})
        return out
    raise ValueError(t)  # pragma: no cover


def furnish_actions(state: State, task: dict[str, Any], only: str | None = None
                    ) -> list[dict[str, Any]]:
    """The actions of the furnish decision `task`; with `only`, those furnishing that tile."""
    seat = task["seat"]
    out: list[dict[str, Any]] = []
    for tile in _furnishable(state, seat, task["scope"], task["cost"], only):
        for subs, _pay in furnish_payments(state, seat, tile, task["cost"]):
            action: dict[str, Any] = {"type": "furnish", "tile": tile}
            if subs:
                action["ore_for"] = list(subs)
            out.append(action)
    return out


TRADING_DECISIONS = ("turn", "frame", "feed", "expedition", "sow", "final_trades")


@board_memo.scoped
def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if state["phase"] == "over" or not state["stack"]:
        return []
    task = state["stack"][-1]
    if task.get("seat") != seat:
        return []
    out = decision_actions(state, task)
    if task["t"] in TRADING_DECISIONS:
        out = out + trade_actions(state, seat)
    return out


#: The actions trade_actions lists; a trading decision's own actions are never of these types.
TRADE_TYPES = frozenset(("convert", "ruby_trade", "ruby_tile", "tile_trade"))


def actions_like(state: State, seat: int, action: Any) -> list[dict[str, Any]]:
    """The part of legal_actions(state, seat) that holds every legal action of `action`'s type
    (in the same order): what apply checks an action against without listing the rest. A
    placement is checked on its own space only."""
    if state["phase"] == "over" or not state["stack"]:
        return []
    task = state["stack"][-1]
    if task.get("seat") != seat:
        return []
    kind = action.get("type") if isinstance(action, dict) else None
    if type(kind) is not str:  # no legal action's type: any part of the list refuses it
        kind = None
    t = task["t"]
    if t == "tile" and kind == "tile":
        tile = action.get("tile")
        if type(tile) is not str:
            return []
        p = state["players"][seat]
        return [
            {"type": "tile", "tile": tile, "at": [spot_xy(i) for i in spots]}
            for listed in task["tiles"] if listed == tile
            for spots in tile_spots(p, tile, task.get("on"))
        ]
    if t == "furnish" and kind == "furnish":
        tile = action.get("tile")
        if type(tile) is not str:
            return []
        return furnish_actions(state, task, only=tile)
    if t not in TRADING_DECISIONS:
        return decision_actions(state, task)
    if kind in TRADE_TYPES:
        return trade_actions(state, seat)
    if t == "frame" and kind == "part":
        index = action.get("index")
        if type(index) is not int:
            return []
        return [{"type": "part", "index": k} for k in frame_candidates(state, task, index)]
    if t == "frame" and kind == "done":
        return [{"type": "done"}] if task["taken"] else []
    if t == "turn" and kind == "place":
        sid = action.get("space")
        if type(sid) is not str or sid not in state["spaces"] or sid not in state["order"]:
            return []
        if state["spaces"][sid]["occ"] is not None:
            return []
        dwarf = task.get("d", default_dwarf(state["players"][seat]))
        if not feasible(state, seat, dwarf, sid, space_actions(state, sid), False):
            return []
        return [{"type": "place", "space": sid}]
    return decision_actions(state, task)


# ======================================================================== apply


def apply_trade(state: State, seat: int, action: dict[str, Any]) -> None:
    p = player_to_change(state, seat)
    sup, ani = p["supply"], p["animals"]
    kind = action["type"]
    if kind == "convert":
        what = action["from"]
        bonus = 0
        if what == "donkey_pair":
            ani["donkey"] -= 2
            bonus = effects.slaughter_bonus(p, 2)
            sup["food"] += 3 + bonus
        elif what == "gold":
            sup["gold"] -= action["amount"]
            sup["food"] += action["amount"] - 1
        elif what in FARM:
            ani[what] -= 1
            bonus = effects.slaughter_bonus(p, 1)
            sup["food"] += FOOD_VALUE[what] + bonus
        else:
            sup[what] -= 1
            sup["food"] += FOOD_VALUE[what]
        if bonus:
            log(state, f"Seat {seat} received {bonus} more food from the slaughtering cave.")
    elif kind == "ruby_trade":
        sup["ruby"] -= 1
        if action["to"] == "cattle":
            sup["food"] -= 1
        gain(state, seat, {action["to"]: 1})
    elif kind == "ruby_tile":
        sup["ruby"] -= 2 if action["tile"] == "cavern" else 1
        place_tile(state, seat, action["tile"], [B.idx(*action["at"])])
    elif kind == "release":
        ani[action["animal"]] -= 1
    elif kind == "tile_trade":
        gain(state, seat, effects.apply_tile_trade(p, action))
        log(state, f"Seat {seat} used the {TILES[action['tile']]['name']}.")
    else:  # pragma: no cover
        raise ValueError(kind)


def apply_action(state: State, seat: int, action: dict[str, Any]) -> None:
    """Carry out a legal `action` (already checked) on `state`, which the caller owns."""
    stack = state["stack"]
    task = stack[-1]
    kind = action["type"]
    p = player_to_change(state, seat)
    if kind in ("convert", "ruby_trade", "ruby_tile", "release", "tile_trade"):
        apply_trade(state, seat, action)
    elif kind == "reorder":
        p["supply"]["ruby"] -= 1
        task["d"] = action["dwarf"]
    elif kind == "place":
        dwarf = task.get("d", default_dwarf(p))
        sid = action["space"]
        stack.pop()
        p["dwarfs"][dwarf]["at"] = sid
        set_space(state, sid, occ=seat)
        state["work_seat"] = (seat + 1) % state["n"]
        push_node(state, seat, dwarf, sid, [], False)
    elif kind == "pass":
        dwarf = task.get("d", default_dwarf(p))
        stack.pop()
        p["dwarfs"][dwarf]["at"] = "-"
        state["work_seat"] = (seat + 1) % state["n"]
    elif kind == "part":
        if task["taken"] and task["src"] == GUEST_ROOM_ONCE and not is_legacy(state):
            p["guest_room_extension"] = True  # the Guest room's once-per-game use on Extension
        task["taken"].append(action["index"])
        push_node(
            state, seat, task["d"], task["src"], [*task["path"], action["index"]], task["imit"]
        )
    elif kind == "done":
        stack.pop()
    elif kind == "tile":
        stack.pop()
        place_tile(state, seat, action["tile"], [xy_spot(a) for a in action["at"]])
    elif kind == "furnish":
        stack.pop()
        tile = action["tile"]
        subs = action.get("ore_for", [])
        options = furnish_payments(state, seat, tile, task["cost"])
        price = next(price for s, price in options if s == subs)
        pay(p, price)
        base = task["cost"] if task["cost"] is not None else TILES[tile]["cost"]
        if price != base:
            paid = ", ".join(f"{v} {g}" for g, v in price.items()) or "nothing"
            log(state, f"Seat {seat} paid {paid} for {TILES[tile]['name']} (tile effects).")
        stack.append({"t": "furnish_at", "seat": seat, "tile": tile})
    elif kind == "furnish_at":
        stack.pop()
        build_tile(state, seat, task["tile"], B.idx(*action["at"]))
    elif kind == "sow":
        cell = cells_to_change(p)[B.idx(*action["at"])]
        crop = action["crop"]
        p["supply"][crop] -= 1
        cell["crop"] = crop
        cell["n"] = 3 if crop == "grain" else 2
        task["g" if crop == "grain" else "v"] -= 1
        task["n"] += 1
    elif kind == "sow_done":
        stack.pop()
    elif kind == "build":
        stack.pop()
        cost = effects.build_cost(state, seat, task["what"], task["cost"])
        pay(p, cost)
        if cost != task["cost"]:
            log(state, f"Seat {seat} built for less thanks to a furnishing tile.")
        spots = [B.idx(*a) for a in action["at"]]
        cells = cells_to_change(p)
        if task["what"] == "small":
            cells[spots[0]]["k"] = "pasture"
        elif task["what"] == "large":
            a, b = spots
            cells[a].update(k="large_pasture", pair=b)
            cells[b].update(k="large_pasture", pair=a)
        else:
            cells[spots[0]]["st"] = True
            p["stables"] -= 1
    elif kind == "forge":
        stack.pop()
        strength = action["strength"]
        p["supply"]["ore"] -= max(0, strength - effects.forge_discount(state, seat))
        p["dwarfs"][task["d"]]["w"] = strength
    elif kind == "loot":
        task["taken"].append(action["item"])
        exec_loot(state, task, action["item"])
    elif kind == "loot_done":
        stack.pop()
        finish_expedition(state, task)
    elif kind == "imitate":
        stack.pop()
        push_node(state, seat, task["d"], action["space"], [], True)
    elif kind == "exchange":
        stack.pop()
        for _ in range(action["times"]):
            pay(p, task["pay"])
            gain(state, seat, task["get"])
    elif kind == "buy":
        p["supply"]["gold"] -= MARKET_PRICES[action["good"]]
        gain(state, seat, {action["good"]: 1})
        task["bought"].append(action["good"])
    elif kind == "market_done":
        stack.pop()
    elif kind == "breed":
        stack.pop()
        for t in action["types"]:
            p["animals"][t] += 1
        gain(state, seat, effects.on_breed(state, seat, action["types"]))
    elif kind == "feed":
        stack.pop()
        need = food_needed(state, seat, task["mode"])
        saved = effects.feeding_reduction(state, seat)
        if saved:
            log(state, f"Seat {seat} needed {saved} food less thanks to the mining cave.")
        if "with" in action:
            for g, v in effects.WORKING_CAVE_FEEDS[action["with"]].items():
                p["supply"][g] -= v
            adult = any(not d["new"] for d in p["dwarfs"])
            need = max(0, need - (2 if task["mode"] == "normal" and adult else 1))
            log(state, f"Seat {seat} fed a dwarf with {action['with']} in the working cave.")
        paid = min(need, p["supply"]["food"])
        p["supply"]["food"] -= paid
        p["begging"] += need - paid
        if need - paid:
            log(state, f"Seat {seat} took {need - paid} begging marker(s).")
    elif kind in ("finish", "breed_now"):
        stack.pop()
    elif kind == "skip":
        stack.pop()
        p["skip"] = action["phase"]
    elif kind == "protect":
        p["supply"]["ruby"] -= 1
        task["spaces"].pop(0)
        if not task["spaces"]:
            stack.pop()
    elif kind == "let_go":
        set_space(state, action["space"], goods={})
        task["spaces"].pop(0)
        if not task["spaces"]:
            stack.pop()
    else:  # pragma: no cover
        raise IllegalAction("Unknown action.", text("cv.refuse_unknown"))
