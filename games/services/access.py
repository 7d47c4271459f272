"""Shared by the services: the locked game and its seats, the restriction check, and the engine
called under guard (a fault logged and turned into EngineFault, a stuck state refused)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.db import connections
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import (
    SanctionKind,
    active_restriction,
    restriction_message,
)
from config import prepared_sql
from games.engines.base import Engine, IllegalAction, InvalidOptions, canonical_action
from games.engines.registry import UnknownEngine, get_engine
from games.exceptions import (
    EngineFault,
    GameError,
    InvalidGameSetup,
    InvalidTransition,
    LobbyError,
    NotAllowed,
)
from games.models import STATUS_TRANSITIONS, Game, Seat

logger = logging.getLogger("games.services")


def now_or(now: datetime | None) -> datetime:
    return now or timezone.now()


def require_unrestricted(user) -> None:
    """Suspended and banned players cannot play, chat or create games."""
    sanction = active_restriction(user)
    if sanction is not None:
        raise NotAllowed(restriction_message(sanction), details={"sanction": sanction.kind})


def locked_game(game_id: int) -> Game:
    """Every change's first read: the game, locked until the change commits."""
    game = prepared_sql.LOCKED_GAME.first([game_id])
    if game is None:
        raise LobbyError(gettext("There is no such game."))
    return game


#: The players' vacations, read with their seats (the deadline sweep's batch).
VACATIONS = Prefetch("user__vacations", to_attr="vacation_list")


def seats_of(game: Game, now: datetime | None = None) -> list[Seat]:
    """The game's seats with their players, read once per change and passed along, in seat
    order, each with two flags: `vacation_matters`, whether its player has a vacation that can
    touch the seat's clock (one ending after the seat's turn started or, with no turn running,
    after now: a clock stops over [turn start, now] and starts from now), and `restricted`,
    whether a suspension or ban holds the player (as accounts.models.active_restriction). Only
    the vacations of players whose vacation matters are then read (clocks.pauses_by_user)."""
    moment = connections[Seat.objects.db].ops.adapt_datetimefield_value(now_or(now))
    seats = prepared_sql.CHANGE_SEATS.rows(
        [moment, SanctionKind.SUSPENSION.value, SanctionKind.BAN.value, moment, game.pk],
        known={"game": game})
    for seat in seats:
        if seat.user_id is not None and not seat.vacation_matters:
            seat.user.vacation_list = []
    return seats


def transition(game: Game, status: str) -> None:
    if status not in STATUS_TRANSITIONS[game.status]:
        raise InvalidTransition(gettext("A game that is %(game_status)s cannot become %(status)s.")
                                    % {"game_status": game.status, "status": status})
    game.status = status


def engine_for(slug: str) -> Engine:
    try:
        return get_engine(slug)
    except UnknownEngine as error:
        raise InvalidGameSetup(str(error.args[0]), details={"engine": slug}) from None


@contextmanager
def engine_guard(game: Game, step: str, seat: int | None = None, action: Any = None
                 ) -> Iterator[None]:
    """Engine code runs inside this: an exception it was not meant to raise (anything but
    IllegalAction and the service's own errors) becomes an EngineFault, logged with the game,
    the step and the action; raised inside the service's transaction, it saves nothing."""
    try:
        yield
    except (IllegalAction, InvalidOptions, GameError):
        raise
    except Exception as error:
        logger.exception("Engine fault in game %s (%s, rules %s) at %s, seat %s, action %r",
                         game.pk, game.engine, game.rules_version, step, seat, action)
        raise EngineFault(
            gettext("The game's rules engine failed on this step, so nothing was changed. "
            "The fault is logged for the maintainers."),
            details={"step": step},
        ) from error


def playability_problem(engine: Engine, state: dict) -> str | None:
    """Why `state` cannot continue, or None: every awaited seat must have a legal action and a
    legal timeout action, unless the game is over or a system step is due."""
    if engine.is_over(state) or engine.ready_to_resolve(state):
        return None
    active = engine.active_seats(state)
    if not active:
        return "no seat is to act and no system step is due"
    for seat in active:
        legal = engine.legal_actions(state, seat)
        if not legal:
            return f"seat {seat} is awaited but has no legal action"
        timeout = engine.timeout_action(state, seat)
        if canonical_action(timeout) not in {canonical_action(item) for item in legal}:
            return f"seat {seat}'s timeout action {timeout!r} is not among its legal actions"
    return None


def require_playable(game: Game, engine: Engine, step: str, seat: int | None = None,
                     action: Any = None) -> None:
    """Refuses (as an engine fault) a change that would leave the game unable to continue."""
    with engine_guard(game, step, seat, action):
        try:
            problem = playability_problem(engine, game.state)
        except IllegalAction as error:
            problem = f"the engine refused to list a seat's moves: {error}"
    if problem is not None:
        logger.error("Engine fault in game %s (%s, rules %s) after %s, seat %s, action %r: %s",
                     game.pk, game.engine, game.rules_version, step, seat, action, problem)
        raise EngineFault(
            gettext("This move would leave the game unable to continue, so it was not made. "
            "The fault is logged for the maintainers."),
            details={"step": step},
        )
