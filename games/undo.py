"""Taking back one's own moves (Move contract v2: undo).

A player may take back their moves one at a time, back to the start of their turn, while
nothing was revealed since: the move to take back must be the last entry of the log that still
counts (no die rolled, no card drawn, no other player's move or system step after it), and the
engine must say that the move itself revealed nothing (`Engine.reveals`). The move stays in the
log, marked with the sequence of the undo entry that took it back; the undo is a log entry of its
own, so the version only ever increases. The state is rebuilt by replaying the log.

The service (`games.services.game_move_undo`) locks the game and writes; this module only reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engines.base import Engine, match_legal
from games.exceptions import GameError
from games.models import Action, ActionKind, ActionSource, Game

#: Moves a player made themselves; a bot's or a timeout's move is not theirs to take back.
PLAYER_SOURCES = (ActionSource.WEB, ActionSource.API, ActionSource.EMAIL)


class UndoRefused(GameError):
    """Why a move cannot be taken back, in words a player reads."""

    code = "undo_refused"
    status = 409


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
    state = engine.new_game(game.num_players, game.seed, game.options)
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


def _last_counting_entry(game: Game) -> Action | None:
    return (game.actions.exclude(kind=ActionKind.UNDO).filter(undone_by__isnull=True)
            .order_by("-sequence").first())


def undo_target(engine: Engine, game: Game, seat_number: int) -> tuple[Action, dict[str, Any]]:
    """The move `seat_number` may take back now and the state before it; raises UndoRefused
    with the reason otherwise."""
    last = _last_counting_entry(game)
    if (last is None or last.kind != ActionKind.MOVE or last.seat_number != seat_number
            or last.source not in PLAYER_SOURCES):
        raise UndoRefused("There is no move of yours to take back: something happened after "
                          "your last move (another player's move, a die roll or a new card), "
                          "or you have not moved this turn.")
    before = state_at(engine, game, last.sequence - 1)
    if engine.reveals(before, seat_number, last.payload, game.state):
        raise UndoRefused("Your last move revealed something (a die, a card, or the turn "
                          "passing on), so it cannot be taken back.")
    return last, before


def can_undo(engine: Engine, game: Game, seat_number: int | None) -> bool:
    """Whether the page should offer an undo to this seat (the same test the service makes)."""
    if seat_number is None or game.state is None:
        return False
    last = _last_counting_entry(game)
    if (last is None or last.kind != ActionKind.MOVE or last.seat_number != seat_number
            or last.source not in PLAYER_SOURCES):
        return False  # decided without replaying the log
    try:
        undo_target(engine, game, seat_number)
    except UndoRefused:
        return False
    return True
