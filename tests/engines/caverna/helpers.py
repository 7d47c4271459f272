"""Shared helpers for the Caverna tests: build states, drive decisions, edit boards."""

from __future__ import annotations

from typing import Any

from games.engines.caverna.board import idx
from games.engines.caverna.engine import engine


def fresh(n: int = 3, seed: str = "test-seed", version: int | None = None) -> dict[str, Any]:
    """A new game under the current rules, or under an older stored `version`."""
    if version is None:
        return engine.new_game(n, seed)
    return engine.new_game_at_version(n, seed, {}, version)


def actor(state: dict[str, Any]) -> int:
    seats = engine.active_seats(state)
    assert len(seats) == 1, seats
    return seats[0]


def top(state: dict[str, Any]) -> dict[str, Any]:
    return state["stack"][-1]


def act(state: dict[str, Any], *actions: dict[str, Any]) -> dict[str, Any]:
    for action in actions:
        state = engine.apply(state, actor(state), action)
    return state


def legal(state: dict[str, Any]) -> list[dict[str, Any]]:
    return engine.legal_actions(state, actor(state))


def non_trade(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in legal(state) if a["type"] not in ("convert", "ruby_trade", "ruby_tile")]


def player(state: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    return state["players"][actor(state) if seat is None else seat]


def add_space(state: dict[str, Any], sid: str, goods: dict[str, int] | None = None) -> None:
    """Put a round-card space on the board (tests reach any space without playing to it)."""
    if sid not in state["spaces"]:
        state["spaces"][sid] = {"goods": {}, "occ": None}
        state["order"].append(sid)
        state["cards"].append(sid)
    state["spaces"][sid]["goods"] = dict(goods or {})


def set_cell(state: dict[str, Any], seat: int, x: int, y: int, kind: str, **extra: Any) -> None:
    cell = state["players"][seat]["cells"][idx(x, y)]
    cell["k"] = kind
    cell.update(extra)


def supply(state: dict[str, Any], seat: int, **goods: int) -> None:
    state["players"][seat]["supply"].update(goods)


def animals(state: dict[str, Any], seat: int, **counts: int) -> None:
    state["players"][seat]["animals"].update(counts)


def place(state: dict[str, Any], sid: str) -> dict[str, Any]:
    return act(state, {"type": "place", "space": sid})


def parts(state: dict[str, Any]) -> list[int]:
    return [a["index"] for a in legal(state) if a["type"] == "part"]


def run_until_turn(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Let the other seats play their timeout moves until `seat` is placing a dwarf."""
    for _ in range(5000):
        if top(state)["t"] == "turn" and actor(state) == seat:
            return state
        s = actor(state)
        state = engine.apply(state, s, engine.timeout_action(state, s))
    raise AssertionError("seat never got a turn")


def play_timeouts_until(state: dict[str, Any], predicate) -> dict[str, Any]:
    for _ in range(20000):
        if predicate(state):
            return state
        s = actor(state)
        state = engine.apply(state, s, engine.timeout_action(state, s))
    raise AssertionError("predicate never held")


def turn_state(
    n: int = 3, seed: str = "test-seed", version: int | None = None
) -> tuple[dict[str, Any], int]:
    """A fresh game at the first turn, with its acting seat."""
    state = fresh(n, seed, version)
    assert top(state)["t"] == "turn"
    return state, actor(state)
