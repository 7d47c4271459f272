"""Taking back one's own moves (Move contract v2: undo).

A player may take back their moves one at a time, back to the start of their turn, while
nothing was revealed since: the move to take back must be the last entry of the log that still
counts (no die rolled, no card drawn, no other player's move or system step after it), and the
engine must say that the move itself revealed nothing (`Engine.reveals`). The move stays in the
log, marked with the sequence of the undo entry that took it back; the undo is a log entry of its
own, so the version only ever increases. The state is rebuilt by replaying the log.

`game_move_undo` locks the game and writes; the functions before it only read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from games.engines.base import Engine, match_legal
from games.exceptions import GameError, GameNotRunning, NotAllowed, StaleVersion
from games.live import bus
from games.log.replay import state_at
from games.models import Action, ActionKind, ActionSource, Game, GameStatus
from games.presentation.texts import took_back_texts
from games.services.access import (
    engine_for,
    engine_guard,
    locked_game,
    now_or,
    require_playable,
    require_unrestricted,
)
from games.services.autoplay import after_change
from games.services.steps import SubmitResult, facts_after

#: Moves a player made themselves (a queued move is theirs, made in advance); a bot's or a
#: timeout's move is not theirs to take back.
PLAYER_SOURCES = (ActionSource.WEB, ActionSource.API, ActionSource.EMAIL, ActionSource.QUEUED)
#: Steps the service played for the seat right after its move (forced decisions, standing
#: orders): taken back together with the move they followed.
FOLLOWING_SOURCES = (ActionSource.AUTO,)


class UndoRefused(GameError):
    """Why a move cannot be taken back, in words a player reads."""

    code = "undo_refused"
    status = 409


def _trailing_moves(game: Game, seat_number: int) -> list[Action] | None:
    """The seat's last own move and the automatic steps played for it after that move, oldest
    first, when they are the last entries that still count; None otherwise."""
    run: list[Action] = []
    entries = (game.actions.exclude(kind=ActionKind.UNDO).filter(undone_by__isnull=True)
               .order_by("-sequence"))
    for entry in entries.iterator(chunk_size=16):
        if entry.kind != ActionKind.MOVE or entry.seat_number != seat_number:
            return None
        run.append(entry)
        if entry.source in PLAYER_SOURCES:
            return run[::-1]
        if entry.source not in FOLLOWING_SOURCES:
            return None
    return None


def undo_target(engine: Engine, game: Game,
                seat_number: int) -> tuple[list[Action], dict[str, Any]]:
    """The entries `seat_number` may take back now (its last move, then any automatic steps
    that followed it) and the state before them; raises UndoRefused with the reason otherwise."""
    run = _trailing_moves(game, seat_number)
    if run is None:
        raise UndoRefused(gettext(
            "There is no move of yours to take back: something happened after "
                          "your last move (another player's move, a die roll or a new card), "
                          "or you have not moved this turn."))
    before = state_at(engine, game, run[0].sequence - 1)
    state = before
    for entry in run:
        after = engine.apply(state, seat_number,
                             match_legal(entry.payload, engine.legal_actions(state, seat_number)))
        if engine.reveals(state, seat_number, entry.payload, after):
            raise UndoRefused(gettext(
                "Your last move revealed something (a die, a card, or the turn "
                              "passing on), so it cannot be taken back."))
        state = after
    return run, before


def can_undo(engine: Engine, game: Game, seat_number: int | None) -> bool:
    """Whether the page should offer an undo to this seat (the same test the service makes)."""
    if seat_number is None or game.state is None:
        return False
    if _trailing_moves(game, seat_number) is None:
        return False  # decided without replaying the log
    try:
        undo_target(engine, game, seat_number)
    except UndoRefused:
        return False
    return True


def game_move_undo(*, game_id: int, user, expected_version: int | None,
                   source: str = ActionSource.API, now: datetime | None = None) -> SubmitResult:
    """A player takes back their last move (see `undo_target` for when that is allowed). The
    move stays in the log, marked undone; an undo entry is appended, so the version increases;
    the state is rebuilt from the log. The seat's clock runs on: an undo is not progress."""
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(gettext("This game is not running."))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(gettext("You do not have a seat in this game."))
        if seat.is_bot:
            raise NotAllowed(gettext("A bot is playing your seat; take it back first."))
        require_unrestricted(user)
        if expected_version != game.version:
            raise StaleVersion(
                gettext("The game has moved on (version %(game_version)s, you sent "
                        "%(expected_version)s). Reload and try again.")
                    % {"game_version": game.version,
                       "expected_version": expected_version}, details={"version": game.version})
        engine = engine_for(game.engine)
        with engine_guard(game, "undo", seat.number):
            taken_back, before = undo_target(engine, game, seat.number)
        target = taken_back[0]
        game.version += 1
        payload = {"undoes": target.sequence, **(
            {"with_automatic": [entry.sequence for entry in taken_back[1:]]}
            if len(taken_back) > 1 else {})}
        public_text, actor_text = took_back_texts(seat.number, target)
        game.state = before
        record = Action.objects.create(
            game=game, sequence=game.version, kind=ActionKind.UNDO, seat_number=seat.number,
            payload=payload, source=source, actor=user, **facts_after(game, engine),
            **Action.stored_texts(public_text, actor_text, seat_number=seat.number,
                                  payload=payload),
        )
        Action.objects.filter(pk__in=[entry.pk for entry in taken_back]).update(
            undone_by=record.sequence)
        bus.publish_game_after_commit(game.pk, game.version, record.pk)
        require_playable(game, engine, "undo", seat.number)
        after_change(game, engine, now, acted_seat=None, announce_turns=False)
    return SubmitResult(game=game, outcome={"sequence": record.sequence, "version": game.version,
                                            "undone": target.sequence},
                        text=record.text_for(seat.number))
