"""What a change writes and sends: its rows (gathered into a few statements for a deadline
sweep's batch), its events to receivers, and its tasks, queued by name once it commits."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from django.utils import timezone

from config.celery import app, publish_after_commit
from games.live import bus
from games.live.events import game_event, seats_timed_out
from games.models import Action, DeadlineOutcome, Game, GameStatus, Seat
from games.services.reliability import deadline_records_write

# ---------------------------------------------------------------------------------------------
# tasks and events


@cache
def _task(name: str):
    # The services name their tasks rather than import games.tasks (which calls them). Celery's
    # loader imports the module the name says, once per process, so that the task queued is the
    # registered one: its own options, and run in-process where tasks are eager (the tests).
    app.loader.import_task_module(name.rpartition(".")[0])
    return app.tasks[name]


def enqueue_after_commit(task_name: str, *args: Any) -> None:
    """Queues the task named `task_name` with `args` once the transaction commits."""
    publish_after_commit(_task(task_name), *args)


def emit(game_id: int, kind: str, seats: list[int] | None = None, **extra: Any) -> None:
    """Tells receivers (notifications) about a change inside its transaction, so whatever they
    write (the notification outbox) commits or rolls back together with the game."""
    game_event.send(sender=Game, game_id=game_id, kind=kind, seats=seats or [], **extra)
    if kind in ("joined", "left", "started", "aborted"):  # a change without a log entry
        bus.publish_game_after_commit(game_id)


def announce_after_commit(game_id: int, kind: str, seats: list[int]) -> None:
    """A move's "your turn" and "finished" notices are built by a worker (game_event_announce),
    not in the request: the move's transaction only queues the game id, kind and seats."""
    batch = _batched_writes.get()
    if batch is not None:  # a deadline sweep's batch: one task for all its games' notices
        batch.announcements.append([game_id, kind, seats])
        return
    enqueue_after_commit("games.tasks.announce_game_event", game_id, kind, seats)


def schedule_follow_ups(game: Game, seats: list[Seat] | None = None) -> None:
    """Enqueue the resolution task and bot moves once this transaction has committed: a task
    for each awaited bot seat, so that the bots' secret picks of a turn are thought out side by
    side (in as many worker processes as there are) rather than one after another. A broker
    outage then is logged, not raised (the move is committed); beat tasks pick up the work."""
    if game.needs_resolution:
        enqueue_after_commit("games.tasks.resolve_game", game.pk, game.version)
    elif game.status == GameStatus.ACTIVE:
        awaited_bots = (
            [seat.number for seat in seats if seat.is_bot and seat.deadline_at is not None]
            if seats is not None else
            game.seats.filter(is_bot=True, deadline_at__isnull=False).values_list("number",
                                                                                  flat=True))
        for seat_number in awaited_bots:
            enqueue_after_commit("games.tasks.play_bot_moves", game.pk, game.version, seat_number)


# ---------------------------------------------------------------------------------------------
# rows: one at a time, or gathered for a batch

# The deadline sweep changes a batch of games, all locked in one transaction, through the same
# code as every move; inside `writes_batched()` the rows that code writes for each move (the
# log entry, the seats' clocks, the game row) and for each timeout (the deadline record, the
# timeout count, the player's notice) are gathered and written at the end, one statement per
# table for the whole batch instead of several for each timeout, and the "your turn" and
# "finished" notices of all its games are queued as one task. Nothing in that transaction reads
# those rows back before: the games and seats are passed along as the objects that were changed.

#: Fields of the game row that a move, a resolution, a timeout or the end of the game change.
GAME_CHANGE_FIELDS = ["state", "version", "status", "needs_resolution", "result",
                      "finished_at", "updated_at"]


def _other_game_fields(game: Game) -> list[Any]:
    return [getattr(game, column.attname) for column in Game._meta.concrete_fields
            if column.name not in GAME_CHANGE_FIELDS]


@dataclass
class _BatchedWrites:
    now: datetime
    actions: list[Action] = field(default_factory=list)
    seats: dict[int, Seat] = field(default_factory=dict)
    seat_fields: set[str] = field(default_factory=set)
    games: dict[int, Game] = field(default_factory=dict)
    #: The games' other fields as read, by id: a game changed beyond GAME_CHANGE_FIELDS (by
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
        if self.seats:  # bulk_update refuses an empty list of fields
            Seat.objects.bulk_update(list(self.seats.values()), sorted(self.seat_fields))
        changed_at = timezone.now()
        games = []
        for game in self.games.values():
            if self.games_as_read.get(game.pk) != _other_game_fields(game):
                game.save()
                continue
            game.updated_at = changed_at  # what save() sets (auto_now); an update does not
            games.append(game)
        Game.objects.bulk_update(games, GAME_CHANGE_FIELDS)
        _timeouts_write(self.timed_out, self.now)
        if self.announcements:
            enqueue_after_commit("games.tasks.announce_game_events", self.announcements)


_batched_writes: ContextVar[_BatchedWrites | None] = ContextVar("games_batched_writes",
                                                                 default=None)


def writes_batched_now() -> bool:
    return _batched_writes.get() is not None


@contextmanager
def writes_batched(games: list[Game], now: datetime) -> Iterator[None]:
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


def log_entry_write(action: Action) -> None:
    batch = _batched_writes.get()
    if batch is not None:
        batch.actions.append(action)
        return
    action.save(force_insert=True)
    bus.publish_game_after_commit(action.game_id, action.sequence, action.pk)


def seats_write(seats: list[Seat], fields: list[str]) -> None:
    batch = _batched_writes.get()
    if batch is None:
        Seat.objects.bulk_update(seats, fields)
        return
    batch.seats.update((seat.pk, seat) for seat in seats)
    batch.seat_fields.update(fields)


def game_write(game: Game) -> None:
    batch = _batched_writes.get()
    if batch is None:
        game.save()
        return
    batch.games[game.pk] = game


def timeout_write(game: Game, seat: Seat, missed_deadline: datetime, replaced: bool,
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
    deadline_records_write(
        seats, deadline_at=[timeout["missed_deadline"] for timeout in timeouts],
        outcome=DeadlineOutcome.TIMED_OUT, now=now)
    Seat.objects.bulk_update(seats, ["timeout_count", "is_bot"])
    if timeouts:
        seats_timed_out.send(sender=Game, timeouts=[
            {key: timeout[key] for key in ("game", "seat", "replaced", "timeouts")}
            for timeout in timeouts])
