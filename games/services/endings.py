"""Every way a game ends (finished by a move, a resolution or a timeout; resigned; aborted) goes
through `_end`, so a finished game's rating is queued in exactly one place."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engines.base import Engine
from games.exceptions import GameNotRunning, LobbyError, NotAllowed
from games.live import bus
from games.models import Game, GameStatus
from games.services.access import engine_for, engine_guard, locked_game, now_or, transition
from games.services.writes import emit, enqueue_after_commit, schedule_follow_ups


def _end(game: Game, status: str, now: datetime, result: dict | None = None) -> None:
    transition(game, status)
    game.finished_at = now
    game.needs_resolution = False
    if status == GameStatus.FINISHED:
        game.result = result
        # The rating task runs after commit; it applies a game once however often it runs.
        enqueue_after_commit("games.tasks.apply_game_ratings", game.pk)


def game_finish(game: Game, engine: Engine, now: datetime, result: dict | None = None) -> None:
    """The locked game ends with the engine's result, or with `result` (a resignation's)."""
    _end(game, GameStatus.FINISHED, now, engine.result(game.state) if result is None else result)


def game_abort(*, game_id: int, reason: str = "") -> Game:
    with transaction.atomic():
        game = locked_game(game_id)
        _end(game, GameStatus.ABORTED, timezone.now())
        game.save()
        game.seats.update(deadline_at=None)
        emit(game.pk, "aborted")
    return game


def game_resign(*, game_id: int, user, now: datetime | None = None) -> Game:
    """The player gives up their seat for good. The engine says what follows
    (`Engine.resignation_ends_game`): a bot plays the seat on and the game continues, or the
    game ends, the players still in it winning (docs/architecture-notes.md)."""
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(gettext("Only a running game can be resigned."))
        seats = list(game.seats.select_related("user"))
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed(gettext("You have no seat in this game."))
        if seat.resigned_at is not None:
            raise LobbyError(gettext("You already resigned this game."))
        seat.resigned_at = now
        seat.is_bot = True
        seat.save(update_fields=["resigned_at", "is_bot"])
        staying = [other.number for other in seats
                   if other.user_id and other.resigned_at is None and other.pk != seat.pk]
        engine = engine_for(game.engine)
        if engine.resignation_ends_game(game.num_players, len(staying)):
            with engine_guard(game, "resign", seat.number):
                standing = engine.result(game.state)  # the position scored as it stands
            game_finish(game, engine, now, result={
                **standing, "winners": staying, "by_resignation": True,
                "resigned": sorted(s.number for s in seats if s.resigned_at)})
            game.save()
            game.seats.update(deadline_at=None, turn_started_at=None, remind_at=None)
            emit(game.pk, "finished", list(range(game.num_players)))
        else:
            emit(game.pk, "resigned", [seat.number])
            schedule_follow_ups(game)
        bus.publish_game_after_commit(game.pk)  # seats or status changed, with no log entry
    return game
