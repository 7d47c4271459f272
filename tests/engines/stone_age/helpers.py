"""Builders for Stone Age test states: a fresh game bent into the situation a test needs, and
the RNG counter moved to where the next dice are the ones an example prescribes."""

from __future__ import annotations

import copy
import json

from games.engines.base import SeededRandom
from games.engines.stone_age.engine import engine

SEED = "stone-age-tests"


def fresh(num_players: int = 4, seed: str = SEED) -> dict:
    return engine.new_game(num_players, seed)


def rig_dice(state: dict, dice: list[int] | None = None, *, count: int | None = None,
             total: int | None = None) -> dict:
    """Moves the RNG counter so that the next dice rolled are exactly `dice` (in order), or
    `count` dice adding up to `total`. Returns the state for chaining."""
    seed = state["rng"]["seed"]
    wanted = len(dice) if dice is not None else count
    for counter in range(state["rng"]["counter"], state["rng"]["counter"] + 5_000_000):
        rng = SeededRandom(seed, counter)
        rolled = [rng.randint(1, 6) for _ in range(wanted)]
        if (dice is not None and rolled == dice) or (dice is None and sum(rolled) == total):
            state["rng"]["counter"] = counter
            return state
    raise AssertionError("no counter found for those dice")


def action_phase(num_players: int = 4, seat: int = 0, placed: dict | None = None,
                 keep_busy: bool = True) -> dict:
    """The action phase with `seat` to resolve `placed`. With `keep_busy`, the seat also
    stands on two spare card slots so that resolving one location never ends its turn."""
    state = fresh(num_players)
    for player in state["players"]:
        player["placed"] = {}
        player["unplaced"] = 0
    mine = dict(placed or {})
    if keep_busy:
        for spare in ("civ_slot_3", "civ_slot_4"):
            mine.setdefault(spare, 1)
    state["players"][seat]["placed"] = mine
    state["phase"] = "actions"
    state["action_queue"] = [(seat + i) % num_players for i in range(num_players)]
    state["turn"] = seat
    return state


def set_tools(player: dict, values: list[int], used: list[bool] | None = None) -> None:
    used = used or [False] * len(values)
    player["tools"] = [{"value": v, "used": u} for v, u in zip(values, used, strict=True)]
    player["tools_gained"] = sum(values)


def resources(wood: int = 0, clay: int = 0, stone: int = 0, gold: int = 0) -> dict:
    return {"wood": wood, "clay": clay, "stone": stone, "gold": gold}


def settle(state: dict) -> dict:
    """Runs the due chance steps (dice rolls), as the service's resolution task does."""
    while engine.ready_to_resolve(state):
        assert engine.active_seats(state) == []
        state = engine.resolve(state)
    return state


def apply(state: dict, seat: int, action: dict) -> dict:
    """engine.apply, also checking that the input was left untouched and the action listed,
    then any dice roll it called for."""
    before = json.dumps(state, sort_keys=True)
    assert action in engine.legal_actions(state, seat), (action, engine.legal_actions(state, seat))
    after = engine.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    return settle(after)


def step(state: dict, choose) -> dict:
    """One decision by the first active seat via `choose(state, seat)`, or one chance step."""
    if engine.ready_to_resolve(state):
        return engine.resolve(state)
    seat = engine.active_seats(state)[0]
    return engine.apply(state, seat, choose(state, seat))


def clone(state: dict) -> dict:
    return copy.deepcopy(state)
