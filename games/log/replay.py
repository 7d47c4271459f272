"""A game rebuilt from its action log: as it stands now, or as it stood at an earlier version."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engines.base import Engine, match_legal
from games.models import Action, ActionKind, Game


def counts_at(entry: Action, version: int | None) -> bool:
    """Whether `entry` is replayed when the game is rebuilt as it stood at `version` (None: now):
    undo entries never are, and a move taken back stops counting from its undo entry on."""
    if entry.kind == ActionKind.UNDO:
        return False
    if entry.undone_by is None:
        return True
    return version is not None and entry.undone_by > version


def replay(engine: Engine, game: Game, entries: Iterable[Action],
           version: int | None = None) -> dict[str, Any]:
    """The state rebuilt from `new_game` and `entries` (in sequence order, none after
    `version`), skipping what did not count at `version`. As strict as a new move: a logged
    payload must be a listed legal action."""
    state = engine.new_game_at_version(game.num_players, game.seed, game.options,
                                       game.rules_version)
    for entry in entries:
        if not counts_at(entry, version):
            continue
        if entry.kind == ActionKind.RESOLVE:
            state = engine.resolve(state)
        else:
            listed = match_legal(entry.payload, engine.legal_actions(state, entry.seat_number))
            state = engine.apply(state, entry.seat_number, listed)
    return state


def state_at(engine: Engine, game: Game, version: int | None = None) -> dict[str, Any]:
    """The game's state as it stood at `version` (None: now), rebuilt from its log."""
    entries = game.actions.order_by("sequence")
    if version is not None:
        entries = entries.filter(sequence__lte=version)
    return replay(engine, game, entries, version)
