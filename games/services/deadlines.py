"""Deadlines: seats past theirs timed out (in batches, by the beat's sweep), reminders before
them, bots taking a seat over after timeouts and the player taking it back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from games.engines.base import Engine
from games.exceptions import EngineFault, GameNotRunning, LobbyError, NotAllowed
from games.models import ActionSource, Game, GameStatus, Seat
from games.services.access import (
    VACATIONS,
    engine_for,
    engine_guard,
    locked_game,
    now_or,
    require_unrestricted,
    seats_of,
)
from games.services.clocks import pauses_by_user, start_clock
from games.services.play import apply_move
from games.services.writes import emit, schedule_follow_ups, timeout_write, writes_batched


@dataclass
class SweepReport:
    timed_out_seats: int = 0
    games: int = 0
    reminders: int = 0
    faulty_games: int = 0


#: Upper bound on consecutive timeout moves for one seat within one turn (a multi-step turn).
MAX_TIMEOUT_STEPS = 200


def time_out_seat(game: Game, engine: Engine, seat: Seat, now: datetime, *,
                  seats: list[Seat] | None = None) -> bool:
    """Plays the seat's timeout moves until it is no longer its turn; counts one timeout, and
    hands the seat to a bot after the game's limit of timeouts in a row. Returns False for a
    bot's seat past its deadline (its task was lost): that move is left to the bot task,
    queued here, since a search bot thinks for up to seconds, which a sweep must not wait for.
    `seats`: the game's seats as read in this transaction."""
    seats = seats_of(game, now) if seats is None else seats
    seat = next(each for each in seats if each.pk == seat.pk)
    if seat.is_bot:
        schedule_follow_ups(game, seats)
        return False
    missed_deadline = seat.deadline_at
    for _ in range(MAX_TIMEOUT_STEPS):
        with engine_guard(game, "timeout", seat.number):
            if game.status != GameStatus.ACTIVE or not engine.legal_actions(game.state,
                                                                            seat.number):
                break
            if seat.number not in engine.active_seats(game.state):
                break  # a secret pick already made; the seat is only allowed to change it
            action = engine.timeout_action(game.state, seat.number)
        # `seats` are the objects the move updates, so `seat` shows its clock after it.
        apply_move(game, seat_number=seat.number, action=action, source=ActionSource.TIMEOUT,
                   actor=None, now=now, seats=seats)
        if seat.deadline_at is None:
            break
    seat.timeout_count += 1
    replaced = seat.timeout_count >= game.max_consecutive_timeouts
    if replaced:
        seat.is_bot = True
        schedule_follow_ups(game, seats)
    timeout_write(game, seat, missed_deadline, replaced, now)
    return True


def deadlines_due_game_ids(*, now: datetime | None = None,
                           limit: int | None = None) -> list[int]:
    """Active games with a seat past its deadline, most overdue first, each once. Read from the
    deadline index; the seats are checked again under each game's lock when it is swept."""
    now = now_or(now)
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
    now = now_or(now)
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
                 .prefetch_related(VACATIONS).order_by("game_id", "number")):
        seats_of[seat.game_id].append(seat)
    with writes_batched(games, now):
        for game in games:
            engine = engine_for(game.engine)
            seats = seats_of[game.pk]
            handled = 0
            for seat in [seat for seat in seats if _is_due(seat, now)]:
                # An earlier seat's timeout may have ended this seat's turn (or the game).
                if _is_due(seat, now):
                    handled += time_out_seat(game, engine, seat, now, seats=seats)
            if handled:
                report.games += 1
                report.timed_out_seats += handled
    return report


def _is_due(seat: Seat, now: datetime) -> bool:
    return seat.deadline_at is not None and seat.deadline_at <= now


def deadlines_sweep(*, now: datetime | None = None, limit: int | None = None) -> SweepReport:
    """Times out every seat whose deadline has passed and sends due reminders, in this process
    (the beat task fans the games out to the workers instead; see tasks.sweep_deadlines)."""
    now = now_or(now)
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
    now = now_or(now)
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
            emit(seat.game_id, "reminder", [seat.number],
                 deadline_at=seat.deadline_at.isoformat())
    return len(seats)


def seat_take_back(*, game_id: int, user, seat_number: int | None = None,
                   now: datetime | None = None) -> Game:
    """A player (or, with seat_number, a moderator) takes a seat back from the bot."""
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(gettext("This game is not running."))
        seats = game.seats.select_related("user")
        seat = (seats.filter(number=seat_number) if seat_number is not None
                else seats.filter(user=user)).first()
        if seat is None or seat.user_id is None:
            raise NotAllowed(gettext("There is no player's seat to take back here."))
        if seat_number is None and seat.user_id != user.pk:
            raise NotAllowed(gettext("You can only take back your own seat."))
        require_unrestricted(seat.user)
        if not seat.is_bot:
            raise LobbyError(gettext("This seat is not played by a bot."))
        if seat.resigned_at is not None:
            raise LobbyError(gettext("This player resigned; the bot keeps the seat."))
        seat.is_bot = False
        seat.timeout_count = 0
        seat.save(update_fields=["is_bot", "timeout_count"])
        if seat.deadline_at is not None:
            pauses = pauses_by_user([seat]).get(seat.user_id, [])
            start_clock(game, seat, now, pauses)
            seat.save(update_fields=["turn_started_at", "deadline_at", "remind_at",
                                     "reminded_at"])
        emit(game.pk, "seat_taken_back", [seat.number])
    return game


def seat_hand_to_bot(*, game_id: int, seat_number: int) -> Game:
    """A moderator hands a player's seat to the bot."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(gettext("This game is not running."))
        seat = game.seats.filter(number=seat_number).first()
        if seat is None:
            raise LobbyError(gettext("There is no such seat."))
        if seat.is_bot:
            raise LobbyError(gettext("A bot already plays this seat."))
        seat.is_bot = True
        seat.save(update_fields=["is_bot"])
        emit(game.pk, "replaced_by_bot", [seat.number], timeouts=seat.timeout_count)
        schedule_follow_ups(game)
    return game


def seat_mark_seen(*, game_id: int, user) -> None:
    """The player opened the game: the next change may send a "your turn" email again. Callers
    that read the seat already call it only when its `turn_notified_at` is set."""
    Seat.objects.filter(game_id=game_id, user=user, turn_notified_at__isnull=False).update(
        turn_notified_at=None
    )
