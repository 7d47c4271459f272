"""The only code that changes a game: create, join, leave, start, submit a move, resolve a
system step, finish. Views, API, tasks and admin call these; they never touch state themselves.

Every change runs in one transaction with the game row locked (`select_for_update`), so
concurrent submissions are serialised and checked against the game's `version`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connections, models, transaction
from django.db.models import BooleanField, Prefetch
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Vacation, active_restriction, restriction_message
from accounts.templatetags.language_tags import localized_digits
from config.prepared_sql import PreparedRead, rows_insert
from games.engines import bots
from games.engines.base import (
    Engine,
    IllegalAction,
    InvalidOptions,
    SeededRandom,
    canonical_action,
    match_legal,
)
from games.engines.registry import UnknownEngine, get_engine
from games.exceptions import (
    ChatError,
    ChatThrottled,
    EngineFault,
    GameError,
    GameNotRunning,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidGameSetup,
    InvalidTransition,
    InvitationError,
    InvitationsThrottled,
    LobbyError,
    NotAllowed,
    ReportError,
    StaleVersion,
)
from games.live import bus
from games.live.events import game_event, seats_timed_out
from games.models import (
    CHAT_MESSAGE_MAX_LENGTH,
    DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
    MAX_RESERVE,
    MAX_TIME_PER_MOVE,
    MIN_TIME_PER_MOVE,
    STATUS_TRANSITIONS,
    Action,
    ActionKind,
    ActionSource,
    ChatMessage,
    DeadlineOutcome,
    Game,
    GameInvitation,
    GameStatus,
    IdempotencyRecord,
    InvitationAttempt,
    InvitationStatus,
    Report,
    ReportReason,
    ReportStatus,
    ReportTarget,
    Seat,
)
from games.presentation.texts import reason_text, took_back_texts
from games.presentation.titles import engine_name
from games.presentation.visible_text import visible_text
from games.selectors import SEAT_ORDER, can_view, user_by_login
from games.services import ratings, reliability, undo
from games.services.clocks import deadline_after, playing_time

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SubmitResult:
    game: Game
    #: {"sequence", "version", "status", "awaiting_seats"} of the applied move: the first
    #: result, repeated as it was when the same Idempotency-Key comes again.
    outcome: dict[str, Any]
    replayed: bool = False
    #: The move's log text as its player reads it (games.texts.message_text renders it in the
    #: reader's language); None when its log entry is gone.
    text: dict[str, Any] | None = None


def _own_entry_text(game: Game, sequence: int | None) -> dict[str, Any] | None:
    """A log entry's text as the seat that made it reads it."""
    entry = game.actions.filter(sequence=sequence).first() if sequence else None
    return None if entry is None else entry.text_for(entry.seat_number)


# ---------------------------------------------------------------------------------------------
# helpers


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _engine_for(slug: str) -> Engine:
    try:
        return get_engine(slug)
    except UnknownEngine as error:
        raise InvalidGameSetup(str(error.args[0]), details={"engine": slug}) from None


@contextmanager
def _engine_guard(game: Game, step: str, seat: int | None = None, action: Any = None
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


def _require_playable(game: Game, engine: Engine, step: str, seat: int | None = None,
                      action: Any = None) -> None:
    """Refuses (as an engine fault) a change that would leave the game unable to continue."""
    with _engine_guard(game, step, seat, action):
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


def _transition(game: Game, status: str) -> None:
    if status not in STATUS_TRANSITIONS[game.status]:
        raise InvalidTransition(gettext("A game that is %(game_status)s cannot become %(status)s.")
                                    % {"game_status": game.status, "status": status})
    game.status = status


def _require_unrestricted(user) -> None:
    """Suspended and banned players cannot play, chat or create games."""
    sanction = active_restriction(user)
    if sanction is not None:
        raise NotAllowed(restriction_message(sanction), details={"sanction": sanction.kind})


#: Every change's first read: the game, locked until the change commits.
_LOCKED_GAME_READ = PreparedRead(Game, where="{table}.id = %s", lock=True)


def _locked_game(game_id: int) -> Game:
    game = _LOCKED_GAME_READ.first([game_id])
    if game is None:
        raise LobbyError(gettext("There is no such game."))
    return game


def _emit(game_id: int, kind: str, seats: list[int] | None = None, **extra: Any) -> None:
    """Tells receivers (notifications) about a change inside its transaction, so whatever they
    write (the notification outbox) commits or rolls back together with the game."""
    game_event.send(sender=Game, game_id=game_id, kind=kind, seats=seats or [], **extra)
    if kind in ("joined", "left", "started", "aborted"):  # a change without a log entry
        bus.publish_game_after_commit(game_id)


def _announce_after_commit(game_id: int, kind: str, seats: list[int]) -> None:
    """A move's "your turn" and "finished" notices are built by a worker (game_event_announce),
    not in the request: the move's transaction only queues the game id, kind and seats."""
    from config.celery import publish_after_commit
    from games import tasks

    batch = _batched_writes.get()
    if batch is not None:  # a deadline sweep's batch: one task for all its games' notices
        batch.announcements.append([game_id, kind, seats])
        return
    publish_after_commit(tasks.announce_game_event, game_id, kind, seats)


def game_event_announce(*, game_id: int, kind: str, seats: list[int]) -> None:
    """Tells receivers (notifications) about a committed move's event, with the game locked so
    that what they write to seats (turn_notified_at) is ordered with the game's own changes.
    A "turn" is told only to seats still awaited: one that already moved needs no reminder."""
    with transaction.atomic():
        if not list(Game.objects.select_for_update().filter(pk=game_id).values_list("pk")):
            return
        if kind == "turn":
            awaited = set(Seat.objects.filter(game_id=game_id, deadline_at__isnull=False)
                          .values_list("number", flat=True))
            seats = [number for number in seats if number in awaited]
            if not seats:
                return
        game_event.send(sender=Game, game_id=game_id, kind=kind, seats=seats)


def _schedule_follow_ups(game: Game, seats: list[Seat] | None = None) -> None:
    """Enqueue the resolution task and bot moves once this transaction has committed. A broker
    outage then is logged, not raised (the move is committed); beat tasks pick up the work."""
    from config.celery import publish_after_commit
    from games import tasks  # tasks import services; import here to keep the module graph simple

    if game.needs_resolution:
        publish_after_commit(tasks.resolve_game, game.pk, game.version)
    elif game.status == GameStatus.ACTIVE and (
        any(seat.is_bot and seat.deadline_at is not None for seat in seats) if seats is not None
        else game.seats.filter(is_bot=True, deadline_at__isnull=False).exists()
    ):
        publish_after_commit(tasks.play_bot_moves, game.pk, game.version)


#: The players' vacations, read with their seats (`_seats_of`, the deadline sweep's batch).
_VACATIONS = Prefetch("user__vacations", to_attr="vacation_list")


def _pauses_by_user(seats: list[Seat]) -> dict[int, list[tuple[datetime, datetime]]]:
    """Each player's vacations (their clocks pause), from the seats' prefetched vacations where
    they were read with them, otherwise read now."""
    pauses: dict[int, list[tuple[datetime, datetime]]] = {}
    unread = []
    for seat in seats:
        if not seat.user_id or seat.is_bot:
            continue
        if hasattr(seat.user, "vacation_list"):
            pauses[seat.user_id] = [(vacation.starts_at, vacation.ends_at)
                                    for vacation in seat.user.vacation_list]
        else:
            pauses[seat.user_id] = []
            unread.append(seat.user_id)
    if unread:
        for vacation in Vacation.objects.filter(user_id__in=unread):
            pauses[vacation.user_id].append((vacation.starts_at, vacation.ends_at))
    return pauses


def _start_clock(game: Game, seat: Seat, now: datetime, pauses) -> None:
    seat.turn_started_at = now
    seat.deadline_at = deadline_after(now, game.time_per_move + seat.reserve_left, pauses)
    lead = seat.user.reminder_lead(game.time_per_move) if seat.user_id and not seat.is_bot else None
    seat.remind_at = seat.deadline_at - lead if lead else None
    seat.reminded_at = None


def _stop_clock(game: Game, seat: Seat, now: datetime, pauses) -> None:
    """The seat moved: time beyond the time per move comes out of its reserve."""
    if seat.turn_started_at is not None:
        overrun = playing_time(seat.turn_started_at, now, pauses) - game.time_per_move
        if overrun > timedelta(0):
            seat.reserve_left = max(seat.reserve_left - overrun, timedelta(0))
    seat.turn_started_at = seat.deadline_at = seat.remind_at = None


def _refresh_turns(
    game: Game, engine: Engine, now: datetime, acted_seat: int | None, player_acted: bool,
    seats: list[Seat],
) -> list[int]:
    """After a change: clocks for the seats now to act, the resolution flag, the end.
    Returns the seats that newly have to act (for "your turn" notifications)."""
    state = game.state
    pauses = _pauses_by_user(seats)
    over = engine.is_over(state)
    active = set() if over else set(engine.active_seats(state))
    newly_active = []
    clock_fields = ["turn_started_at", "deadline_at", "remind_at", "reminded_at", "reserve_left",
                    "turn_notified_at"]
    changed = []  # (seat, the clock fields of it that changed)
    for seat in seats:
        before = [getattr(seat, field) for field in clock_fields]
        seat_pauses = pauses.get(seat.user_id, [])
        was_awaited = seat.deadline_at is not None
        if seat.number == acted_seat or (was_awaited and seat.number not in active):
            _stop_clock(game, seat, now, seat_pauses)
        if seat.number in active and seat.deadline_at is None:
            _start_clock(game, seat, now, seat_pauses)
            if not was_awaited:
                newly_active.append(seat.number)
        if seat.number == acted_seat and player_acted:
            seat.turn_notified_at = None
        fields = [field for field, old in zip(clock_fields, before, strict=True)
                  if getattr(seat, field) != old]
        if fields:
            changed.append((seat, fields))
    if _batched_writes.get() is not None:  # the sweep writes its batch's seats together
        if changed:
            _seats_write([seat for seat, _fields in changed], clock_fields)
    else:
        # A short UPDATE of its changed columns per seat (the one that moved, those now to
        # act): a bulk update's CASE per column and row took the ORM three times the CPU.
        for seat, fields in changed:
            _row_write(seat, fields)
    if over:
        _game_finish(game, engine, now)
        return []
    game.needs_resolution = bool(engine.ready_to_resolve(state))
    return newly_active


def _game_finish(game: Game, engine: Engine, now: datetime, result: dict | None = None) -> None:
    """The one place a game ends with a result: every way to finish (last move, resolution,
    timeout, bot, resignation with its own `result`) comes here, and so the rating update is
    queued exactly here, on commit."""
    _transition(game, GameStatus.FINISHED)
    game.finished_at = now
    game.result = engine.result(game.state) if result is None else result
    game.needs_resolution = False
    ratings.schedule_after_finish(game)


#: Per seat, in the statement that reads the seats: whether its player has a vacation that can
#: touch the seat's clock (one ending after the seat's turn started or, with no turn running,
#: after now: a clock stops over [turn start, now] and starts from now), and whether a
#: suspension or ban holds the player (as accounts.models.active_restriction; a test keeps
#: the two the same). Written out: the ORM took longer to build these two EXISTS than the
#: database took to run the whole read.
_SEAT_FLAGS = {
    "vacation_matters": "EXISTS (SELECT 1 FROM accounts_vacation v WHERE v.user_id = "
                        "games_seat.user_id AND v.ends_at > COALESCE(games_seat.turn_started_at, "
                        "%s))",
    "restricted": "EXISTS (SELECT 1 FROM accounts_sanction s WHERE s.user_id = "
                  "games_seat.user_id AND s.kind IN ('suspension', 'ban') AND s.lifted_at IS "
                  "NULL AND (s.ends_at IS NULL OR s.ends_at > %s))",
}


_SEATS_READ = PreparedRead(
    Seat, join="user", where="{table}.game_id = %s",
    extra={flag: (sql, BooleanField()) for flag, sql in _SEAT_FLAGS.items()})


def _seats_of(game: Game, now: datetime | None = None) -> list[Seat]:
    """The game's seats with their players, read once per change and passed along, with the
    flags of `_SEAT_FLAGS`, in seat order. Only the vacations of players who have one that
    matters are then read (`_pauses_by_user`); the others' are known to be none."""
    connection = connections[Seat.objects.db]
    moment = connection.ops.adapt_datetimefield_value(now or timezone.now())
    seats = _SEATS_READ.rows([moment] * len(_SEAT_FLAGS) + [game.pk], known={"game": game})
    for seat in seats:
        if seat.user_id is not None and not seat.vacation_matters:
            seat.user.vacation_list = []
    seats.sort(key=SEAT_ORDER)
    return seats


def _after_change(
    game: Game,
    engine: Engine,
    now: datetime,
    acted_seat: int | None,
    announce_turns: bool = True,
    player_acted: bool = False,
    seats: list[Seat] | None = None,
) -> list[int]:
    # Steps that need nobody (forced moves, standing orders, queued moves) come before the
    # turns are counted, so a seat whose decision played itself is never awaited or told.
    from games.services import autoplay

    seats = _seats_of(game, now) if seats is None else seats
    autoplay.play_steps_that_need_nobody(game, engine, now,
                                         cancel_queue_of=acted_seat if player_acted else None,
                                         seats=seats)
    newly_active = _refresh_turns(game, engine, now, acted_seat, player_acted, seats)
    _game_write(game)
    if game.status == GameStatus.FINISHED:
        _announce_after_commit(game.pk, "finished", list(range(game.num_players)))
    elif newly_active and announce_turns:
        _announce_after_commit(game.pk, "turn", newly_active)
    _schedule_follow_ups(game, seats)
    return newly_active


def _append_action(
    game: Game,
    engine: Engine,
    *,
    kind: str,
    seat_number: int | None,
    payload: Any,
    source: str,
    actor,
    state_before: dict,
) -> Action:
    if kind == ActionKind.RESOLVE:
        public_text = actor_text = engine.resolution_text(state_before, None)
    else:
        public_text = engine.describe_text(state_before, seat_number, payload, viewer=None)
        actor_text = engine.describe_text(state_before, seat_number, payload,
                                          viewer=seat_number)
    game.version += 1
    action = Action(
        game=game,
        sequence=game.version,
        kind=kind,
        seat_number=seat_number,
        payload=payload,
        source=source,
        actor=actor,
        **Action.stored_texts(public_text, actor_text, seat_number=seat_number, payload=payload),
    )
    _log_entry_write(action)
    return action


# Batched writes. The deadline sweep changes a batch of games, all locked in one transaction,
# through the same code as every move; inside `_writes_batched()` the rows that code writes
# for each move (the log entry, the seats' clocks, the game row) and for each timeout (the
# deadline record, the timeout count, the player's notice) are gathered and written at the end,
# one statement per table for the whole batch instead of several for each timeout, and the
# "your turn" and "finished" notices of all its games are queued as one task. Nothing in
# that transaction reads those rows back before: the games and seats are passed along as the
# objects that were changed.

#: Fields of the game row that a move, a resolution, a timeout or the end of the game change.
_GAME_CHANGE_FIELDS = ["state", "version", "status", "needs_resolution", "result",
                       "finished_at", "updated_at"]


def _other_game_fields(game: Game) -> list[Any]:
    return [getattr(game, column.attname) for column in Game._meta.concrete_fields
            if column.name not in _GAME_CHANGE_FIELDS]


@dataclass
class _BatchedWrites:
    now: datetime
    actions: list[Action] = field(default_factory=list)
    seats: dict[int, Seat] = field(default_factory=dict)
    seat_fields: set[str] = field(default_factory=set)
    games: dict[int, Game] = field(default_factory=dict)
    #: The games' other fields as read, by id: a game changed beyond _GAME_CHANGE_FIELDS (by
    #: code that a later change adds to the move's path) is saved whole rather than lose that.
    games_as_read: dict[int, list[Any]] = field(default_factory=dict)
    timed_out: list[dict[str, Any]] = field(default_factory=list)
    announcements: list[list[Any]] = field(default_factory=list)

    def read(self, games: list[Game]) -> None:
        self.games_as_read.update((game.pk, _other_game_fields(game)) for game in games)

    def write(self) -> None:
        Action.objects.bulk_create(self.actions)
        bus.publish_games_after_commit([(action.game_id, action.sequence, action.pk)
                                        for action in self.actions])
        _rows_update(Seat, list(self.seats.values()), sorted(self.seat_fields))
        changed_at = timezone.now()
        games = []
        for game in self.games.values():
            if self.games_as_read.get(game.pk) != _other_game_fields(game):
                game.save()
                continue
            game.updated_at = changed_at  # what save() sets (auto_now); an update does not
            games.append(game)
        _rows_update(Game, games, _GAME_CHANGE_FIELDS)
        _timeouts_write(self.timed_out, self.now)
        if self.announcements:
            from config.celery import publish_after_commit
            from games import tasks

            publish_after_commit(tasks.announce_game_events, self.announcements)


def _row_write(row: models.Model, fields: list[str] | None = None) -> None:
    """`row.save(update_fields=fields)` (every field by default) as one UPDATE handed straight
    to the cursor: for a move's few rows the ORM spent more CPU building its statements than
    the database spent running them. Fields' own conversions still apply (`pre_save` for
    auto_now, `get_db_prep_save`), and there are no save signals on these models to skip."""
    meta = row._meta
    connection = connections[row._state.db or "default"]
    columns = ([meta.get_field(name) for name in fields] if fields is not None
               else [column for column in meta.concrete_fields if not column.primary_key])
    values = [column.get_db_prep_save(column.pre_save(row, False), connection)
              for column in columns]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(column.column)} = %s" for column in columns)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {quote(meta.db_table)} SET {assignments} "
                       f"WHERE {quote(meta.pk.column)} = %s", [*values, row.pk])


def _rows_update(model: type[models.Model], rows: list[models.Model], fields: list[str]
                 ) -> None:
    """`bulk_update`, but a field that has the same value in every row is set to that value
    rather than to a CASE over the rows: Django builds and resolves a condition for each row
    and field, which was most of the sweep's CPU, while a batch's rows mostly agree (timed-out
    seats all lose their clocks, the games all move on at the same moment). JSON values count as
    the same only when all are null (1, 1.0 and true are equal in Python, not in JSON)."""
    if not rows:
        return
    connection = connections[model.objects.db]
    size = connection.ops.bulk_batch_size([model._meta.pk, model._meta.pk, *fields], rows)
    for start in range(0, len(rows), size):
        chunk = rows[start:start + size]
        values: dict[str, Any] = {}
        for name in fields:
            column = model._meta.get_field(name)
            given = [getattr(row, column.attname) for row in chunk]
            first = given[0]
            if (all(value is None for value in given) if isinstance(column, models.JSONField)
                    else all(type(value) is type(first) and value == first for value in given)):
                values[column.attname] = first
                continue
            case = models.Case(*(models.When(pk=row.pk, then=models.Value(value,
                                                                          output_field=column))
                                 for row, value in zip(chunk, given, strict=True)),
                               output_field=column)
            values[column.attname] = (Cast(case, output_field=column)
                                      if connection.features.requires_casted_case_in_updates
                                      else case)
        model.objects.filter(pk__in=[row.pk for row in chunk]).update(**values)


_batched_writes: ContextVar[_BatchedWrites | None] = ContextVar("games_batched_writes",
                                                                 default=None)


@contextmanager
def _writes_batched(games: list[Game], now: datetime) -> Iterator[None]:
    """Gathers the writes of the changes made inside to these games (locked and read in the
    caller's transaction) and makes them at the end; on an exception nothing is written (the
    transaction rolls back)."""
    batch = _BatchedWrites(now)
    batch.read(games)
    token = _batched_writes.set(batch)
    try:
        yield
    finally:
        _batched_writes.reset(token)
    batch.write()


def _log_entry_write(action: Action) -> None:
    batch = _batched_writes.get()
    if batch is not None:
        batch.actions.append(action)
        return
    rows_insert([action])
    bus.publish_game_after_commit(action.game_id, action.sequence, action.pk)


def _seats_write(seats: list[Seat], fields: list[str]) -> None:
    batch = _batched_writes.get()
    if batch is None:
        _rows_update(Seat, seats, fields)
        return
    batch.seats.update((seat.pk, seat) for seat in seats)
    batch.seat_fields.update(fields)


def _game_write(game: Game) -> None:
    batch = _batched_writes.get()
    if batch is None:
        _row_write(game)
        return
    batch.games[game.pk] = game


def _timeout_write(game: Game, seat: Seat, missed_deadline: datetime, replaced: bool,
                   now: datetime) -> None:
    """A timeout's own rows: its deadline record, the seat's count (and its bot, when the
    seat is handed over), the player's notice."""
    timeout = {"game": game, "seat": seat, "missed_deadline": missed_deadline,
               "replaced": replaced, "timeouts": seat.timeout_count}
    batch = _batched_writes.get()
    if batch is not None:
        batch.timed_out.append(timeout)
    else:
        _timeouts_write([timeout], now)


def _timeouts_write(timeouts: list[dict[str, Any]], now: datetime) -> None:
    seats = [timeout["seat"] for timeout in timeouts]
    reliability.deadline_records_write(
        seats, deadline_at=[timeout["missed_deadline"] for timeout in timeouts],
        outcome=DeadlineOutcome.TIMED_OUT, now=now)
    _rows_update(Seat, seats, ["timeout_count", "is_bot"])
    if timeouts:
        seats_timed_out.send(sender=Game, timeouts=[
            {key: timeout[key] for key in ("game", "seat", "replaced", "timeouts")}
            for timeout in timeouts])


def _fingerprint(action: Any, expected_version: int | None) -> str:
    body = json.dumps({"action": action, "version": expected_version}, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


# ---------------------------------------------------------------------------------------------
# lobby


def game_create(
    *,
    creator,
    engine_slug: str,
    num_players: int,
    options: dict[str, Any] | None = None,
    time_per_move: timedelta | None = None,
    reserve: timedelta | None = None,
    max_consecutive_timeouts: int = DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
    allow_spectators: bool = True,
    name: str = "",
    rated: bool = True,
    start_when_full: bool = False,
    min_reliability: int | None = None,
    min_rating: float | None = None,
    rematch_of: Game | None = None,
) -> Game:
    """A new open game with the creator in the first seat."""
    _require_unrestricted(creator)
    name = visible_text(name or "")
    if len(name) > GAME_NAME_MAX_LENGTH:
        raise InvalidGameSetup(gettext(
            "A game name can be at most %(game_name_max_length)s characters.")
                                   % {"game_name_max_length": GAME_NAME_MAX_LENGTH})
    if min_reliability is not None and not 1 <= min_reliability <= 100:
        raise InvalidGameSetup(gettext("A minimum reliability is a percentage from 1 to 100."))
    if min_rating is not None and not (math.isfinite(min_rating) and -100 <= min_rating <= 100):
        raise InvalidGameSetup(gettext("A minimum rating must be between -100 and 100."))
    engine = _engine_for(engine_slug)
    try:
        normalised = engine.validate_options(num_players, options)
    except InvalidOptions as error:
        raise InvalidGameSetup(reason_text(engine.slug, error)) from None
    time_per_move = time_per_move or timedelta(days=1)
    if not MIN_TIME_PER_MOVE <= time_per_move <= MAX_TIME_PER_MOVE:
        raise InvalidGameSetup(gettext("The time per move must be between 1 hour and 14 days."))
    reserve = reserve or timedelta(0)
    if not timedelta(0) <= reserve <= MAX_RESERVE:
        raise InvalidGameSetup(gettext("The reserve must be between 0 and 30 days."))
    if not 1 <= max_consecutive_timeouts <= 10:
        raise InvalidGameSetup(gettext("A bot may take over after 1 to 10 timeouts in a row."))
    with transaction.atomic():
        game = Game.objects.create(
            engine=engine.slug,
            rules_version=engine.rules_version,
            options=normalised,
            num_players=num_players,
            seed=secrets.token_hex(32),
            created_by=creator,
            time_per_move=time_per_move,
            reserve=reserve,
            max_consecutive_timeouts=max_consecutive_timeouts,
            allow_spectators=allow_spectators,
            name=name,
            rated=rated,
            start_when_full=start_when_full,
            min_reliability=min_reliability,
            min_rating=min_rating,
            rematch_of=rematch_of,
        )
        Seat.objects.create(game=game, user=creator, join_order=0)
    return game


GAME_NAME_MAX_LENGTH = 80


def join_refusal(game: Game, user, *, via_link: bool = False) -> str | None:
    """Why `user` may not take a seat in this game, or None. Private games (no spectators)
    take only the players invited by name or holding its invite link; the minimum reliability
    and rating the creator asked for apply to everyone not invited by name."""
    invited = game.invitations.filter(invitee=user).exclude(
        status=InvitationStatus.DECLINED).exists()
    if invited:
        return None
    if not game.allow_spectators and not via_link:
        return gettext("This game is private: only the players invited to it can join.")
    return requirement_refusal(game, user)


def requirement_refusal(game: Game, user) -> str | None:
    if game.min_reliability is not None:
        record = reliability.reliability_of(user)
        if record.percent is None:
            return gettext("This game asks for a reliability of at least %(percent)s%%, and "
                           "you have no deadlines on record yet.") % {
                "percent": localized_digits(game.min_reliability)}
        if record.percent < game.min_reliability:
            return gettext("This game asks for a reliability of at least %(percent)s%%; yours "
                           "is %(yours)s%% over your last %(deadlines)s deadlines.") % {
                "percent": localized_digits(game.min_reliability),
                "yours": localized_digits(record.percent),
                "deadlines": localized_digits(record.deadlines)}
    if game.min_rating is not None:
        rating = ratings.rating_of(user, game.engine)
        if rating.value < game.min_rating:
            return gettext("This game asks for a %(game)s rating of at least %(rating)s; yours "
                           "is %(yours)s.") % {
                "game": engine_name(game.engine),
                "rating": localized_digits(f"{game.min_rating:.1f}"),
                "yours": localized_digits(f"{rating.value:.1f}")}
    return None


def game_join(*, game_id: int, user, via_link: bool = False,
              now: datetime | None = None) -> Game:
    """Takes a seat in an open game. `via_link`: the player holds the game's signed invite
    link, which opens a private game to them (the minimum requirements still apply)."""
    _require_unrestricted(user)
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("This game has already started; it cannot be joined."))
        seats = list(game.seats.all())
        if any(seat.user_id == user.pk for seat in seats):
            raise LobbyError(gettext("You already have a seat in this game."))
        if len(seats) >= game.num_players:
            raise LobbyError(gettext("This game is full."))
        refusal = join_refusal(game, user, via_link=via_link)
        if refusal:
            raise NotAllowed(refusal)
        try:
            with transaction.atomic():
                Seat.objects.create(
                    game=game, user=user, join_order=max(s.join_order for s in seats) + 1
                )
        except IntegrityError:
            raise LobbyError(gettext("You already have a seat in this game.")) from None
        invitation = game.invitations.filter(invitee=user).first()
        if invitation is not None and invitation.status != InvitationStatus.ACCEPTED:
            invitation.status, invitation.responded_at = InvitationStatus.ACCEPTED, now
            invitation.save(update_fields=["status", "responded_at"])
            _emit(game.pk, "invitation_answered", [], inviter_id=invitation.inviter_id,
                  invitee_id=user.pk, accepted=True)
        game.save(update_fields=["updated_at"])
        _emit(game.pk, "joined")
        _when_full(game, now)
    return game


def _when_full(game: Game, now: datetime) -> None:
    """The last seat was just taken: start the game if its creator asked for that, otherwise
    tell the creator it is full."""
    if game.seats.count() < game.num_players:
        return
    if game.start_when_full:
        _start_locked(game, now)
    else:
        _emit(game.pk, "game_full", [], creator_id=game.created_by_id)


def game_add_bot(*, game_id: int, user, level: str = bots.DEFAULT_LEVEL) -> Game:
    """The creator fills an open seat with a bot of `level` ("search" or "easy")."""
    if level not in bots.LEVELS:
        raise InvalidGameSetup(gettext("A bot plays at one of these levels: %(value)s.")
                                   % {"value": ', '.join(bots.LEVELS)},
                               details={"level": level})
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.created_by_id != user.pk:
            raise NotAllowed(gettext("Only the player who created the game can add bots."))
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("Bots can only be added before the game starts."))
        seats = list(game.seats.all())
        if len(seats) >= game.num_players:
            raise LobbyError(gettext("This game is full."))
        Seat.objects.create(
            game=game, user=None, is_bot=True, bot_level=level,
            join_order=max(s.join_order for s in seats) + 1,
        )
        game.save(update_fields=["updated_at"])
        if game.start_when_full and len(seats) + 1 >= game.num_players:
            _start_locked(game, timezone.now())
    return game


def game_leave(*, game_id: int, user) -> Game:
    """Leave an open game. The last one out aborts it; the creator's role passes on."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("You can only leave a game before it starts."))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise LobbyError(gettext("You do not have a seat in this game."))
        seat.delete()
        humans = game.seats.filter(user__isnull=False).order_by("join_order")
        if not humans.exists():
            game.seats.all().delete()
            _transition(game, GameStatus.ABORTED)
        elif game.created_by_id == user.pk:
            game.created_by = humans.first().user
        game.save()
        _emit(game.pk, "left")
    return game


def game_start(*, game_id: int, user, now: datetime | None = None) -> Game:
    """The creator starts the game: seat order shuffled from the seed, the engine sets up."""
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.created_by_id != user.pk:
            raise NotAllowed(gettext("Only the player who created the game can start it."))
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("This game has already started."))
        _start_locked(game, now)
    return game


def _start_locked(game: Game, now: datetime) -> None:
    """Starts the locked open game: seat order shuffled from the seed, the engine sets up."""
    engine = _engine_for(game.engine)
    seats = list(game.seats.order_by("join_order"))
    if len(seats) < engine.min_players:
        raise LobbyError(
            gettext("%(engine_name)s needs at least %(engine_min_players)s players; "
            "%(len)s have joined.")
                % {"engine_name": engine_name(engine.slug),
                   "engine_min_players": localized_digits(engine.min_players),
                   "len": localized_digits(len(seats))}
        )
    if len(seats) != game.num_players:
        # Starting early with fewer players than planned: the options must fit that count.
        try:
            game.options = engine.validate_options(len(seats), game.options)
        except InvalidOptions as error:
            raise LobbyError(reason_text(engine.slug, error)) from None
        game.num_players = len(seats)
    order = SeededRandom(f"{game.seed}:seating").shuffled(list(range(len(seats))))
    for seat, number in zip(seats, order, strict=True):
        seat.number = number
        seat.save(update_fields=["number"])
    with _engine_guard(game, "new_game"):
        try:
            game.state = engine.new_game_at_version(
                game.num_players, game.seed, game.options, game.rules_version)
        except InvalidOptions as error:
            raise LobbyError(reason_text(engine.slug, error)) from None
    _require_playable(game, engine, "new_game")
    _transition(game, GameStatus.ACTIVE)
    game.started_at = now
    for seat in seats:
        seat.reserve_left = game.reserve
        seat.save(update_fields=["reserve_left"])
    # One "game started" notice tells the first seats it is their move, too.
    awaiting = _after_change(game, engine, now, acted_seat=None, announce_turns=False)
    _emit(game.pk, "started", list(range(game.num_players)), awaiting=awaiting)


def game_abort(*, game_id: int, reason: str = "") -> Game:
    with transaction.atomic():
        game = _locked_game(game_id)
        _transition(game, GameStatus.ABORTED)
        game.needs_resolution = False
        game.finished_at = timezone.now()
        game.save()
        game.seats.update(deadline_at=None)
        _emit(game.pk, "aborted")
    return game


# ---------------------------------------------------------------------------------------------
# play


def _refusal_reason(engine: Engine, state: dict, seat: int, action: Any,
                    mismatch: IllegalAction) -> IllegalAction:
    """The engine's own refusal of `action` (its words name the card, the cost…); the generic
    mismatch when the engine has none or fails on the odd input."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as error:
        return error
    except Exception:
        pass  # odd input must never turn a refusal into a crash
    return mismatch


def _refusal_message(engine_slug: str, error: IllegalAction) -> str:
    """An engine's refusal in the active language: its text rendered there; its English words
    in English, or when the engine gave no text."""
    return reason_text(engine_slug, error)


def _apply_move(
    game: Game,
    *,
    seat_number: int,
    action: Any,
    source: str,
    actor,
    now: datetime,
    seats: list[Seat] | None = None,
) -> SubmitResult:
    """Applies one seat's move to a locked, running game; returns the outcome summary and the
    move's text as its player reads it.
    `seats`: the game's seats if the caller read them in this transaction already."""
    engine = _engine_for(game.engine)
    state_before = game.state
    with _engine_guard(game, "move", seat_number, action):
        legal = engine.legal_actions(state_before, seat_number)
        if not legal:
            raise IllegalMove(gettext("It is not your turn."))
        try:
            # The one legality check of every entrance: the move must be a listed legal action
            # as canonical JSON (3, 3.0 and true differ). The listed action is what is applied
            # and logged, so no value made by a client reaches the state.
            listed = match_legal(action, legal)
        except IllegalAction as error:
            refusal = _refusal_reason(engine, state_before, seat_number, action, error)
            raise IllegalMove(_refusal_message(game.engine, refusal),
                              details={"action": action}) from None
        try:
            game.state = engine.apply(state_before, seat_number, listed)
        except IllegalAction as error:
            raise IllegalMove(_refusal_message(game.engine, error),
                              details={"action": action}) from None
        record = _append_action(
            game,
            engine,
            kind=ActionKind.MOVE,
            seat_number=seat_number,
            payload=listed,
            source=source,
            actor=actor,
            state_before=state_before,
        )
    _require_playable(game, engine, "move", seat_number, listed)
    seats = _seats_of(game, now) if seats is None else seats
    player_acted = source in (ActionSource.WEB, ActionSource.API, ActionSource.EMAIL)
    if player_acted:
        for seat in seats:
            if seat.number == seat_number and seat.timeout_count > 0:
                seat.timeout_count = 0
                _row_write(seat, ["timeout_count"])
    _resolve_chance_steps(game, engine)
    _after_change(game, engine, now, acted_seat=seat_number, player_acted=player_acted,
                  seats=seats)
    # Enough for a client to go on without reading the game again (the API's default answer).
    return SubmitResult(game=game, outcome={
        "sequence": record.sequence,
        "version": game.version,
        "status": game.status,
        "awaiting_seats": [seat.number for seat in seats if seat.deadline_at is not None],
    }, text=record.text_for(seat_number))


def game_action_submit(
    *,
    game_id: int,
    user,
    action: Any,
    expected_version: int | None,
    idempotency_key: str | None = None,
    source: str = ActionSource.API,
    seat_number: int | None = None,
    now: datetime | None = None,
) -> SubmitResult:
    """A player's move. Locks the game, repeats the first result for a known Idempotency-Key,
    checks the version (StaleVersion), the seat and legality (IllegalMove), applies, logs."""
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
        if idempotency_key:
            record = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
            if record is not None:
                if (
                    record.game_id != game.pk
                    or record.request_fingerprint != _fingerprint(action, expected_version)
                ):
                    raise IdempotencyKeyReused(
                        gettext("This Idempotency-Key was already used for a different request.")
                    )
                return SubmitResult(game=game, outcome=record.response, replayed=True,
                                    text=_own_entry_text(game, record.response.get("sequence")))
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(
                gettext("This game is over.") if game.status == GameStatus.FINISHED
                else gettext("This game is not running.")
            )
        seats = _seats_of(game, now)
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed(gettext("You do not have a seat in this game."))
        if seat_number is not None and seat_number != seat.number:
            raise NotAllowed(
                gettext(
                    "You sit in seat %(seat_number)s; you cannot act for seat %(seat_number_2)s.")
                    % {"seat_number": seat.number, "seat_number_2": seat_number}
            )
        if seat.is_bot:
            raise NotAllowed(gettext("A bot is playing your seat; take it back first."))
        if seat.restricted:
            _require_unrestricted(user)
        had_deadline = seat.deadline_at
        if expected_version is None:
            raise StaleVersion(gettext("Send the game version you saw."),
                               details={"version": game.version})
        if expected_version != game.version and not _own_decision_unchanged(
                game, seat.number, expected_version):
            raise StaleVersion(
                gettext("The game has moved on (version %(game_version)s, you sent "
                        "%(expected_version)s). Reload and try again.")
                    % {"game_version": game.version, "expected_version": expected_version},
                details={"version": game.version},
            )
        result = _apply_move(game, seat_number=seat.number, action=action, source=source,
                             actor=user, now=now, seats=seats)
        if had_deadline is not None:
            reliability.deadline_record(
                seat, deadline_at=had_deadline, now=now,
                outcome=DeadlineOutcome.MET if now <= had_deadline else DeadlineOutcome.LATE)
        if idempotency_key:
            IdempotencyRecord.objects.create(
                user=user,
                key=idempotency_key,
                game=game,
                request_fingerprint=_fingerprint(action, expected_version),
                response=result.outcome,
            )
    return result


def _own_decision_unchanged(game: Game, seat_number: int, expected_version: int) -> bool:
    """Seat-scoped staleness (Move contract v2): a move sent at an older version still stands
    when only other seats moved since and this seat's legal actions are exactly the ones it saw
    then. Typical of simultaneous turns: others' secret picks change the version, not my
    decision. A resolution, my own earlier move or any change to my choices makes it stale."""
    if not 0 <= expected_version < game.version:
        return False
    since = game.actions.filter(sequence__gt=expected_version)
    if since.exclude(kind=ActionKind.MOVE).exists() or since.filter(
            seat_number=seat_number).exists():
        return False
    engine = _engine_for(game.engine)
    then = _replayed_state(game, engine, up_to=expected_version)
    with _engine_guard(game, "staleness check", seat_number):
        return ([canonical_action(a) for a in engine.legal_actions(then, seat_number)]
                == [canonical_action(a) for a in engine.legal_actions(game.state, seat_number)])


def game_seat_move_apply(
    *,
    game_id: int,
    seat_number: int,
    action: Any,
    source: str,
    expected_version: int,
    actor=None,
    now: datetime | None = None,
) -> SubmitResult | None:
    """A move made for a seat by the system (bot, timeout, moderator). Returns None when the game
    moved on since the caller looked (another worker got there first): nothing is applied twice."""
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.ACTIVE or game.version != expected_version:
            return None
        return _apply_move(
            game, seat_number=seat_number, action=action, source=source, actor=actor, now=now
        )


def game_move_undo(*, game_id: int, user, expected_version: int | None,
                   source: str = ActionSource.API, now: datetime | None = None) -> SubmitResult:
    """A player takes back their last move (see games.undo for when that is allowed). The move
    stays in the log, marked undone; an undo entry is appended, so the version increases; the
    state is rebuilt from the log. The seat's clock runs on: an undo is not progress."""
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(gettext("This game is not running."))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(gettext("You do not have a seat in this game."))
        if seat.is_bot:
            raise NotAllowed(gettext("A bot is playing your seat; take it back first."))
        _require_unrestricted(user)
        if expected_version != game.version:
            raise StaleVersion(
                gettext("The game has moved on (version %(game_version)s, you sent "
                        "%(expected_version)s). Reload and try again.")
                    % {"game_version": game.version,
                       "expected_version": expected_version}, details={"version": game.version})
        engine = _engine_for(game.engine)
        with _engine_guard(game, "undo", seat.number):
            taken_back, before = undo.undo_target(engine, game, seat.number)
        target = taken_back[0]
        game.version += 1
        payload = {"undoes": target.sequence, **(
            {"with_automatic": [entry.sequence for entry in taken_back[1:]]}
            if len(taken_back) > 1 else {})}
        public_text, actor_text = took_back_texts(seat.number, target)
        record = Action.objects.create(
            game=game, sequence=game.version, kind=ActionKind.UNDO, seat_number=seat.number,
            payload=payload, source=source, actor=user,
            **Action.stored_texts(public_text, actor_text, seat_number=seat.number,
                                  payload=payload),
        )
        Action.objects.filter(pk__in=[entry.pk for entry in taken_back]).update(
            undone_by=record.sequence)
        bus.publish_game_after_commit(game.pk, game.version, record.pk)
        game.state = before
        _require_playable(game, engine, "undo", seat.number)
        _after_change(game, engine, now, acted_seat=None, announce_turns=False)
    return SubmitResult(game=game, outcome={"sequence": record.sequence, "version": game.version,
                                            "undone": target.sequence},
                        text=record.text_for(seat.number))


def game_resolve(*, game_id: int, expected_version: int | None = None) -> bool:
    """Runs the engine's due system step (e.g. reveals all secret picks). Idempotent: returns
    False and changes nothing when nothing is due or the game has moved past `expected_version`."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return False
        if expected_version is not None and game.version != expected_version:
            return False
        engine = _engine_for(game.engine)
        if not _resolve_once(game, engine):
            if game.needs_resolution:
                game.needs_resolution = False
                game.save(update_fields=["needs_resolution", "updated_at"])
            return False
        _after_change(game, engine, now, acted_seat=None)
    return True


def _resolve_once(game: Game, engine: Engine) -> bool:
    """Applies the engine's due system step to the locked game and logs it; False if none."""
    with _engine_guard(game, "resolve"):
        if not engine.ready_to_resolve(game.state):
            return False
        state_before = game.state
        game.state = engine.resolve(state_before)
        _append_action(game, engine, kind=ActionKind.RESOLVE, seat_number=None, payload=None,
                       source=ActionSource.SYSTEM, actor=None, state_before=state_before)
    _require_playable(game, engine, "resolve")
    return True


#: System steps resolved inside one move's transaction, at most (a die roll, a card draw …).
MAX_INLINE_RESOLUTIONS = 20


def _resolve_chance_steps(game: Game, engine: Engine) -> None:
    """Steps that need nobody (Move contract v2): in an engine without simultaneous secret
    picks, a due system step (Stone Age's dice) is resolved in the move's own request instead of
    a worker round trip. Simultaneous picks (7 Wonders) stay on a worker, as the product asks."""
    if engine.simultaneous:
        return
    for _ in range(MAX_INLINE_RESOLUTIONS):
        if engine.is_over(game.state) or not _resolve_once(game, engine):
            return


#: One bot-moves task plays for at most this long, well inside CELERY_TASK_SOFT_TIME_LIMIT.
BOT_MOVES_BATCH_SECONDS = 60


def _bot_move(engine: Engine, game: Game, seat: Seat) -> dict:
    """The move of the bot playing `seat`, at the seat's level (the search bot sees only what
    the seat sees and stops within BOT_SEARCH_MAX_SECONDS of CPU). Runs in Celery tasks only."""
    return bots.bot_move(engine, game.state, seat.number, seat.bot_level,
                         rollouts=settings.BOT_SEARCH_ROLLOUTS,
                         max_seconds=settings.BOT_SEARCH_MAX_SECONDS)


def game_bot_moves_play(*, game_id: int, expected_version: int, limit: int = 500) -> int:
    """Plays every pending bot move, one transaction each; stops at a human's turn, or after
    BOT_MOVES_BATCH_SECONDS (search bots think up to seconds a move): each move committed has
    queued the task that carries on from its version."""
    played = 0
    version = expected_version
    stop_at = time.monotonic() + BOT_MOVES_BATCH_SECONDS
    while played < limit and not (played and time.monotonic() > stop_at):
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != GameStatus.ACTIVE or game.version != version:
            break
        if game.needs_resolution:
            if not game_resolve(game_id=game_id, expected_version=version):
                break
            version += 1
            played += 1
            continue
        engine = _engine_for(game.engine)
        active = set(engine.active_seats(game.state))
        bot_seat = game.seats.filter(is_bot=True, number__in=active).order_by("number").first()
        if bot_seat is None:
            break
        with _engine_guard(game, "bot_action", bot_seat.number):
            action = _bot_move(engine, game, bot_seat)
        result = game_seat_move_apply(
            game_id=game_id,
            seat_number=bot_seat.number,
            action=action,
            source=ActionSource.BOT,
            expected_version=version,
        )
        if result is None:
            break
        version = result.game.version
        played += 1
    return played


def _replayed_state(game: Game, engine: Engine, up_to: int | None = None) -> dict:
    """The state rebuilt from `new_game` and the action log (the one replay loop, which skips
    moves taken back), as it was at version `up_to` when given (a version is the sequence number
    of the last entry)."""
    return undo.state_at(engine, game, up_to)


def game_replay_verify(*, game: Game) -> bool:
    """Rebuilds the state from the log and compares it with the stored state."""
    if game.state is None:
        return True
    return _replayed_state(game, _engine_for(game.engine)) == game.state


def game_health_problem(*, game: Game) -> str | None:
    """Why a stored game is unsound, or None: its log must replay to its stored state (with the
    same JSON types: 1.0 is not 1) and that state must be able to continue."""
    if game.state is None:
        return None
    engine = _engine_for(game.engine)
    try:
        replayed = _replayed_state(game, engine)
    except Exception as error:  # a log entry the engine now refuses, or an engine crash
        return f"the log does not replay: {type(error).__name__}: {error}"
    if json.dumps(replayed, sort_keys=True) != json.dumps(game.state, sort_keys=True):
        return "the log replays to a different state than the stored one"
    if game.status != GameStatus.ACTIVE:
        return None
    try:
        problem = playability_problem(engine, game.state)
    except Exception as error:
        return f"the engine fails on the stored state: {type(error).__name__}: {error}"
    return f"the game cannot continue: {problem}" if problem else None


# ---------------------------------------------------------------------------------------------
# deadlines: timeouts, reminders, bots taking over, vacations


@dataclass
class SweepReport:
    timed_out_seats: int = 0
    games: int = 0
    reminders: int = 0
    faulty_games: int = 0


#: Upper bound on consecutive timeout moves for one seat within one turn (a multi-step turn).
MAX_TIMEOUT_STEPS = 200


def _time_out_seat(game: Game, engine: Engine, seat: Seat, now: datetime, *,
                   seats: list[Seat] | None = None) -> bool:
    """Plays the seat's timeout moves until it is no longer its turn; counts one timeout, and
    hands the seat to a bot after the game's limit of timeouts in a row. Returns False for a
    bot's seat past its deadline (its task was lost): that move is left to the bot task,
    queued here, since a search bot thinks for up to seconds, which a sweep must not wait for.
    `seats`: the game's seats as read in this transaction."""
    seats = _seats_of(game, now) if seats is None else seats
    seat = next(each for each in seats if each.pk == seat.pk)
    if seat.is_bot:
        _schedule_follow_ups(game, seats)
        return False
    missed_deadline = seat.deadline_at
    for _ in range(MAX_TIMEOUT_STEPS):
        with _engine_guard(game, "timeout", seat.number):
            if game.status != GameStatus.ACTIVE or not engine.legal_actions(game.state,
                                                                            seat.number):
                break
            if seat.number not in engine.active_seats(game.state):
                break  # a secret pick already made; the seat is only allowed to change it
            action = engine.timeout_action(game.state, seat.number)
        # `seats` are the objects the move updates, so `seat` shows its clock after it.
        _apply_move(game, seat_number=seat.number, action=action, source=ActionSource.TIMEOUT,
                    actor=None, now=now, seats=seats)
        if seat.deadline_at is None:
            break
    seat.timeout_count += 1
    replaced = seat.timeout_count >= game.max_consecutive_timeouts
    if replaced:
        seat.is_bot = True
        _schedule_follow_ups(game, seats)
    _timeout_write(game, seat, missed_deadline, replaced, now)
    return True


def deadlines_due_game_ids(*, now: datetime | None = None,
                           limit: int | None = None) -> list[int]:
    """Active games with a seat past its deadline, most overdue first, each once. Read from the
    deadline index; the seats are checked again under each game's lock when it is swept."""
    now = _now(now)
    rows = (
        Seat.objects.filter(deadline_at__lte=now, game__status=GameStatus.ACTIVE)
        .order_by("deadline_at").values_list("game_id", flat=True)
    )
    game_ids = list(dict.fromkeys(rows))
    return game_ids if limit is None else game_ids[:limit]


#: Due games swept in one transaction (and one batch task of the beat's fan-out): small enough
#: that several workers share a big sweep and a player's move waits little for a batch's locks,
#: large enough that the batch's reads and writes are a few statements for many timeouts.
SWEEP_BATCH_SIZE = 50


def deadlines_sweep_games(*, game_ids: list[int], now: datetime | None = None) -> SweepReport:
    """Times out the due seats of these games (a batch of the beat's fan-out) in one
    transaction. Safe to run in several workers at once on the same ids: the games are locked
    with SKIP LOCKED (a game held by another batch or by a move is left for the next sweep) and
    their seats are read again under the lock, so a seat is never timed out twice. An engine
    fault in one game (logged) rolls the batch back; its games are then swept one transaction
    each, so that the others still get their timeouts."""
    now = _now(now)
    try:
        with transaction.atomic():
            return _sweep_locked_games(game_ids, now)
    except EngineFault:
        report = SweepReport()
        for game_id in game_ids:
            try:
                with transaction.atomic():
                    part = _sweep_locked_games([game_id], now)
            except EngineFault:
                # `manage.py check_games` lists the faulty game; the others are done.
                report.faulty_games += 1
                continue
            report.games += part.games
            report.timed_out_seats += part.timed_out_seats
        return report


def _sweep_locked_games(game_ids: list[int], now: datetime) -> SweepReport:
    """The sweep of one batch, inside the caller's transaction: the games and their seats (with
    players and vacations) read in three statements, each game's timeout moves made through the
    same code as any move, and everything they write written at the end, a statement or two per
    table for the whole batch (`_writes_batched`)."""
    report = SweepReport()
    games = list(Game.objects.select_for_update(skip_locked=True)
                 .filter(pk__in=game_ids, status=GameStatus.ACTIVE).order_by("pk"))
    if not games:
        return report
    seats_of: dict[int, list[Seat]] = {game.pk: [] for game in games}
    for seat in (Seat.objects.filter(game__in=games).select_related("user")
                 .prefetch_related(_VACATIONS).order_by("game_id", "number")):
        seats_of[seat.game_id].append(seat)
    with _writes_batched(games, now):
        for game in games:
            engine = _engine_for(game.engine)
            seats = seats_of[game.pk]
            handled = 0
            for seat in [seat for seat in seats if _is_due(seat, now)]:
                # An earlier seat's timeout may have ended this seat's turn (or the game).
                if _is_due(seat, now):
                    handled += _time_out_seat(game, engine, seat, now, seats=seats)
            if handled:
                report.games += 1
                report.timed_out_seats += handled
    return report


def _is_due(seat: Seat, now: datetime) -> bool:
    return seat.deadline_at is not None and seat.deadline_at <= now


def deadlines_sweep(*, now: datetime | None = None, limit: int | None = None) -> SweepReport:
    """Times out every seat whose deadline has passed and sends due reminders, in this process
    (the beat task fans the games out to the workers instead; see tasks.sweep_deadlines)."""
    now = _now(now)
    report = SweepReport()
    game_ids = deadlines_due_game_ids(now=now, limit=limit)
    for start in range(0, len(game_ids), SWEEP_BATCH_SIZE):
        part = deadlines_sweep_games(game_ids=game_ids[start:start + SWEEP_BATCH_SIZE], now=now)
        report.games += part.games
        report.timed_out_seats += part.timed_out_seats
        report.faulty_games += part.faulty_games
    report.reminders = reminders_send_due(now=now)
    return report


def reminders_send_due(*, now: datetime | None = None, limit: int = 1000) -> int:
    """One reminder per deadline, once the player's reminder moment has come, never after."""
    now = _now(now)
    with transaction.atomic():
        seats = list(
            Seat.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(remind_at__lte=now, reminded_at__isnull=True, deadline_at__gt=now,
                    game__status=GameStatus.ACTIVE, is_bot=False)
            .order_by("remind_at")[:limit]
        )
        for seat in seats:
            seat.reminded_at = now
            seat.save(update_fields=["reminded_at"])
            _emit(seat.game_id, "reminder", [seat.number],
                  deadline_at=seat.deadline_at.isoformat())
    return len(seats)


def seat_take_back(*, game_id: int, user, seat_number: int | None = None,
                   now: datetime | None = None) -> Game:
    """A player (or, with seat_number, a moderator) takes a seat back from the bot."""
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(gettext("This game is not running."))
        seats = game.seats.select_related("user")
        seat = (seats.filter(number=seat_number) if seat_number is not None
                else seats.filter(user=user)).first()
        if seat is None or seat.user_id is None:
            raise NotAllowed(gettext("There is no player's seat to take back here."))
        if seat_number is None and seat.user_id != user.pk:
            raise NotAllowed(gettext("You can only take back your own seat."))
        _require_unrestricted(seat.user)
        if not seat.is_bot:
            raise LobbyError(gettext("This seat is not played by a bot."))
        if seat.resigned_at is not None:
            raise LobbyError(gettext("This player resigned; the bot keeps the seat."))
        seat.is_bot = False
        seat.timeout_count = 0
        seat.save(update_fields=["is_bot", "timeout_count"])
        if seat.deadline_at is not None:
            pauses = _pauses_by_user([seat]).get(seat.user_id, [])
            _start_clock(game, seat, now, pauses)
            seat.save(update_fields=["turn_started_at", "deadline_at", "remind_at",
                                     "reminded_at"])
        _emit(game.pk, "seat_taken_back", [seat.number])
    return game


def seat_hand_to_bot(*, game_id: int, seat_number: int) -> Game:
    """A moderator hands a player's seat to the bot."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(gettext("This game is not running."))
        seat = game.seats.filter(number=seat_number).first()
        if seat is None:
            raise LobbyError(gettext("There is no such seat."))
        if seat.is_bot:
            raise LobbyError(gettext("A bot already plays this seat."))
        seat.is_bot = True
        seat.save(update_fields=["is_bot"])
        _emit(game.pk, "replaced_by_bot", [seat.number], timeouts=seat.timeout_count)
        _schedule_follow_ups(game)
    return game


def game_resign(*, game_id: int, user, now: datetime | None = None) -> Game:
    """The player gives up their seat for good. The engine says what follows
    (`Engine.resignation_ends_game`): a bot plays the seat on and the game continues, or the
    game ends, the players still in it winning (docs/architecture-notes.md)."""
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
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
        engine = _engine_for(game.engine)
        if engine.resignation_ends_game(game.num_players, len(staying)):
            with _engine_guard(game, "resign", seat.number):
                standing = engine.result(game.state)  # the position scored as it stands
            _game_finish(game, engine, now, result={
                **standing, "winners": staying, "by_resignation": True,
                "resigned": sorted(s.number for s in seats if s.resigned_at)})
            game.save()
            game.seats.update(deadline_at=None, turn_started_at=None, remind_at=None)
            _emit(game.pk, "finished", list(range(game.num_players)))
        else:
            _emit(game.pk, "resigned", [seat.number])
            _schedule_follow_ups(game)
        bus.publish_game_after_commit(game.pk)  # seats or status changed, with no log entry
    return game


def seat_mark_seen(*, game_id: int, user) -> None:
    """The player opened the game: the next change may send a "your turn" email again. Callers
    that read the seat already call it only when its `turn_notified_at` is set."""
    Seat.objects.filter(game_id=game_id, user=user, turn_notified_at__isnull=False).update(
        turn_notified_at=None
    )


def player_clocks_recompute(*, user, now: datetime | None = None) -> int:
    """After a vacation changes: every running clock of the player, re-derived."""
    now = _now(now)
    pauses = [(v.starts_at, v.ends_at) for v in Vacation.objects.filter(user=user)]
    count = 0
    with transaction.atomic():
        seats = (Seat.objects.select_for_update().select_related("game", "user")
                 .filter(user=user, deadline_at__isnull=False, is_bot=False,
                         game__status=GameStatus.ACTIVE))
        for seat in seats:
            game = seat.game
            seat.deadline_at = deadline_after(
                seat.turn_started_at or now, game.time_per_move + seat.reserve_left, pauses
            )
            lead = user.reminder_lead(game.time_per_move)
            seat.remind_at = seat.deadline_at - lead
            seat.save(update_fields=["deadline_at", "remind_at"])
            count += 1
    return count


INVITATION_WINDOW = timedelta(hours=1)
MAX_LOGIN_LENGTH = 254  # the longest email address


def _names_inviter(inviter, login: str) -> bool:
    """Whether `login` is the inviter's own username or email: saying so reveals nothing."""
    own = {inviter.username.casefold(), (inviter.email or "").casefold()} - {""}
    return login.casefold() in own


def _invitation_attempt_count(inviter, now: datetime) -> None:
    """Counts one invitation request against the inviter's hourly limit, or refuses it. The count
    lives in the database (not only a cache), and the inviter's row is locked so that parallel
    requests cannot all slip under the limit."""
    get_user_model().objects.select_for_update().filter(pk=inviter.pk).values_list("pk").get()
    limit = settings.GAME_INVITATIONS_PER_HOUR
    InvitationAttempt.objects.filter(inviter=inviter,
                                     created_at__lte=now - INVITATION_WINDOW).delete()
    recent = list(InvitationAttempt.objects.filter(inviter=inviter)
                  .order_by("created_at").values_list("created_at", flat=True)[:limit])
    if len(recent) >= limit:
        wait = max(recent[0] + INVITATION_WINDOW - now, timedelta(0))
        minutes = max(1, -(-int(wait.total_seconds()) // 60))
        raise InvitationsThrottled(
            gettext(
                "You can send %(limit)s invitations an hour; try again in %(minutes)s minute(s).")
                % {"limit": limit, "minutes": minutes},
            details={"limit": limit, "retry_after_seconds": int(wait.total_seconds())},
        )
    InvitationAttempt.objects.create(inviter=inviter, created_at=now)


def game_invite(*, game_id: int, inviter, login: str, now: datetime | None = None) -> None:
    """A seated player invites someone, named by username or email, to an open game.

    The answer never depends on the person named: whether they have an account, an email
    address or notifications on, are already seated or already invited, the request succeeds
    the same way and counts against the inviter's hourly limit; only a new invitation (one per
    game and invitee) notifies anyone. Errors speak of the inviter and the game alone.

    Writing an invitation and its notification takes a few milliseconds more than naming
    nobody, so a successful call lasts at least GAME_INVITATION_MIN_SECONDS (padded after the
    transaction, no lock held). Refusals are not padded: they never depend on the person named,
    and a throttled client should not hold a worker."""
    started = time.monotonic()
    _game_invite(game_id=game_id, inviter=inviter, login=login, now=_now(now))
    time.sleep(max(0.0, settings.GAME_INVITATION_MIN_SECONDS - (time.monotonic() - started)))


def _game_invite(*, game_id: int, inviter, login: str, now: datetime) -> None:
    _require_unrestricted(inviter)
    login = (login or "").strip()
    if not login or len(login) > MAX_LOGIN_LENGTH:
        raise InvitationError(gettext(
            "Name the player to invite by their username or email address."))
    if _names_inviter(inviter, login):
        raise InvitationError(gettext("You cannot invite yourself."))
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("Only open games take invitations."))
        seated = set(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
        if inviter.pk not in seated:
            raise NotAllowed(gettext("Only players in the game can invite others."))
        if game.seats.count() >= game.num_players:
            raise LobbyError(gettext("This game is full."))
        _invitation_attempt_count(inviter, now)
        invitee = user_by_login(login)
        if invitee is None or invitee.pk in seated:
            return
        invitation, created = GameInvitation.objects.get_or_create(
            game=game, invitee=invitee, defaults={"inviter": inviter, "created_at": now})
        if not created and invitation.status == InvitationStatus.DECLINED:
            # Asked again after a refusal: a new question, told once more.
            invitation.status, invitation.responded_at = InvitationStatus.PENDING, None
            invitation.inviter, invitation.created_at = inviter, now
            invitation.save(update_fields=["status", "responded_at", "inviter", "created_at"])
            created = True
        if created:
            _emit(game.pk, "invitation", [], invitee_id=invitee.pk, inviter_id=inviter.pk)


def invitation_decline(*, game_id: int, user, now: datetime | None = None) -> None:
    """The invitee says no; whoever invited them is told. Accepting is joining (game_join)."""
    now = _now(now)
    with transaction.atomic():
        game = _locked_game(game_id)
        invitation = game.invitations.filter(invitee=user).first()
        if invitation is None:
            raise LobbyError(gettext("You have no invitation to this game."))
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("This game has already started."))
        if game.seats.filter(user=user).exists():
            raise LobbyError(gettext("You have already joined this game; leave it instead."))
        if invitation.status == InvitationStatus.DECLINED:
            return
        invitation.status, invitation.responded_at = InvitationStatus.DECLINED, now
        invitation.save(update_fields=["status", "responded_at"])
        _emit(game.pk, "invitation_answered", [], inviter_id=invitation.inviter_id,
              invitee_id=user.pk, accepted=False)


def game_rematch(*, game_id: int, user, now: datetime | None = None) -> Game:
    """A player of a finished game offers its players a new game with the same options: the
    offering player is seated, bot seats are filled again, every other player is invited, and
    the game starts when the last one accepts. One rematch per game: asking again (by anyone)
    returns the one already offered."""
    now = _now(now)
    _require_unrestricted(user)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != GameStatus.FINISHED:
            raise LobbyError(gettext("Only a finished game can be played again."))
        seats = list(game.seats.order_by("number", "join_order"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(gettext("Only the players of this game can offer a rematch."))
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            return existing
        rematch = game_create(
            creator=user, engine_slug=game.engine, num_players=game.num_players,
            options=game.options, time_per_move=game.time_per_move, reserve=game.reserve,
            max_consecutive_timeouts=game.max_consecutive_timeouts,
            allow_spectators=game.allow_spectators, name=game.name, rated=game.rated,
            start_when_full=True, rematch_of=game,
        )
        order = 1
        for seat in seats:
            if seat.user_id is None:
                Seat.objects.create(game=rematch, user=None, is_bot=True, join_order=order)
                order += 1
            elif seat.user_id != user.pk:
                GameInvitation.objects.create(game=rematch, invitee_id=seat.user_id,
                                              inviter=user, created_at=now)
                _emit(rematch.pk, "invitation", [], invitee_id=seat.user_id,
                      inviter_id=user.pk, rematch_of=game.pk)
        _locked_game(rematch.pk)
        _when_full(rematch, now)
    return rematch


# ---------------------------------------------------------------------------------------------
# chat and reports


CHAT_RATE = (5, timedelta(minutes=1))  # at most 5 messages a minute per player and game
MENTION = re.compile(r"@([\w.@+-]{1,150})")


def chat_post(*, game_id: int, user, body: str, now: datetime | None = None) -> ChatMessage:
    """A seated player writes in the game's chat; @username mentions notify those players."""
    now = _now(now)
    _require_unrestricted(user)
    # Zero-width spaces, bidi marks and the like are trimmed like spaces: a message of nothing
    # else would show as an empty line.
    text = visible_text(body)
    if not text:
        raise ChatError(gettext("A message cannot be empty: it has no visible characters."))
    if len(text) > CHAT_MESSAGE_MAX_LENGTH:
        raise ChatError(gettext("A message can be at most %(chat_message_max_length)s characters.")
                            % {"chat_message_max_length": CHAT_MESSAGE_MAX_LENGTH})
    with transaction.atomic():
        game = _locked_game(game_id)
        seats = list(game.seats.select_related("user"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(gettext("Only the players of this game can write in its chat."))
        limit, window = CHAT_RATE
        recent = ChatMessage.objects.filter(game=game, author=user, created_at__gt=now - window)
        if recent.count() >= limit:
            oldest = recent.order_by("created_at").values_list("created_at", flat=True).first()
            wait = max(1, math.ceil((oldest + window - now).total_seconds()))
            raise ChatThrottled(gettext("You are writing too fast; wait a minute and try again."),
                                details={"limit": limit, "retry_after_seconds": wait})
        message = ChatMessage.objects.create(game=game, author=user, body=text)
        names = {name.lower() for name in MENTION.findall(text)}
        mentioned = [
            seat.user_id for seat in seats
            if seat.user_id and seat.user_id != user.pk and seat.user.username.lower() in names
        ]
        if mentioned:
            _emit(game.pk, "mention", [], user_ids=mentioned, author_id=user.pk,
                  message_id=message.pk)
    return message


def report_create(*, reporter, target: str, object_id: int, reason: str,
                  details: str = "") -> Report:
    """Any player reports a chat message, a player or a game to the moderators."""
    from accounts.models import User

    if reason not in ReportReason.values:
        raise ReportError(gettext("Choose a reason: %(value)s.")
                              % {"value": ', '.join(ReportReason.values)})
    if len(details) > 2000:
        raise ReportError(gettext("Please keep the details under 2000 characters."))
    fields: dict[str, Any] = {}
    if target == ReportTarget.MESSAGE:
        message = ChatMessage.objects.select_related("game").filter(pk=object_id).first()
        if message is None or not can_view(message.game, reporter):
            raise ReportError(gettext("There is no such message."))
        if message.author_id == reporter.pk:
            raise ReportError(gettext("You cannot report your own message."))
        fields = {"message": message, "game": message.game, "player": message.author}
    elif target == ReportTarget.PLAYER:
        player = User.objects.filter(pk=object_id).first()
        if player is None:
            raise ReportError(gettext("There is no such player."))
        if player.pk == reporter.pk:
            raise ReportError(gettext("You cannot report yourself."))
        fields = {"player": player}
    elif target == ReportTarget.GAME:
        game = Game.objects.filter(pk=object_id).first()
        if game is None or not can_view(game, reporter):
            raise ReportError(gettext("There is no such game."))
        fields = {"game": game}
    else:
        raise ReportError(gettext("You can report a message, a player or a game."))
    duplicate = Report.objects.filter(reporter=reporter, target=target,
                                      status=ReportStatus.OPEN, **fields).first()
    if duplicate is not None:
        return duplicate
    return Report.objects.create(reporter=reporter, target=target, reason=reason,
                                 details=details.strip(), **fields)

