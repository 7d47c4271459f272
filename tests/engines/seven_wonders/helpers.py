"""Shared builders for the 7 Wonders engine tests: a game with chosen boards and cities."""

from __future__ import annotations

import copy
from typing import Any

from games.engines.seven_wonders.data import CARDS
from games.engines.seven_wonders.engine import engine

BY_NAME: dict[tuple[str, int], str] = {(c["name"], c["age"]): cid for cid, c in CARDS.items()}


def card(name: str, age: int | None = None) -> str:
    """The card id for a name (the Age is needed only for Loom, Glassworks and Press)."""
    matches = [cid for (n, a), cid in BY_NAME.items() if n == name and (age is None or a == age)]
    assert len(matches) == 1, f"ambiguous or unknown card {name!r} {age!r}: {matches}"
    return matches[0]


def game(
    num_players: int = 3,
    wonders: list[str] | None = None,
    sides: list[str] | str = "A",
    seed: str = "test-seed",
) -> dict[str, Any]:
    """A new game in Age I turn 1 with the given boards (default: Giza, Rhodes, Ephesus...);
    with two players the third board is the Free City's."""
    state = engine.new_game(num_players, seed)
    state = copy.deepcopy(state)
    cities = len(state["players"])
    default = ["giza", "rhodes", "ephesus", "babylon", "olympia", "halicarnassus", "alexandria"]
    wonders = wonders or default[:cities]
    if isinstance(sides, str):
        sides = [sides] * cities
    for seat, player in enumerate(state["players"]):
        player["wonder"] = wonders[seat]
        player["side"] = sides[seat]
    return state


def city(
    state: dict[str, Any],
    seat: int,
    *,
    built: list[str] | None = None,
    coins: int | None = None,
    stages: int | None = None,
    tokens: list[int] | None = None,
) -> dict[str, Any]:
    """Sets seat's city in place (test set-up only) and returns the state."""
    player = state["players"][seat]
    if built is not None:
        player["built"] = list(built)
    if coins is not None:
        player["coins"] = coins
    if stages is not None:
        player["stage_cards"] = ["lumber_yard_1"] * stages
    if tokens is not None:
        player["tokens"] = list(tokens)
    return state


def hand(state: dict[str, Any], seat: int, cards: list[str]) -> dict[str, Any]:
    state["hands"][seat] = list(cards)
    return state


def options_for(state: dict[str, Any], seat: int, cid: str, kind: str = "build") -> list[dict]:
    return [
        a for a in engine.legal_actions(state, seat) if a.get("card") == cid and a["type"] == kind
    ]


def pick_all(state: dict[str, Any], picks: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Every seat picks (seats not named discard their first card), then the turn resolves."""
    for seat in range(state["num_players"]):
        action = picks.get(seat) or {"type": "discard", "card": state["hands"][seat][0]}
        state = engine.apply(state, seat, action)
    assert engine.ready_to_resolve(state)
    return engine.resolve(state)
