"""Correspondence clocks: playing time not counting a player's vacations (pure functions of
datetimes), and the seats' clocks started and stopped as the turns pass."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction

from accounts.models import Vacation
from games.engines.base import Engine
from games.models import Game, GameStatus, Seat
from games.services.access import now_or
from games.services.endings import game_finish
from games.services.writes import seats_write, writes_batched_now

Pause = tuple[datetime, datetime]


def _merged(pauses: Iterable[Pause]) -> list[Pause]:
    merged: list[Pause] = []
    for start, end in sorted(pauses):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def deadline_after(start: datetime, budget: timedelta, pauses: Iterable[Pause] = ()) -> datetime:
    """The moment at which `budget` of playing time has passed since `start`."""
    remaining = budget
    cursor = start
    for pause_start, pause_end in _merged(pauses):
        if pause_end <= cursor:
            continue
        if pause_start > cursor:
            span = pause_start - cursor
            if span >= remaining:
                return cursor + remaining
            remaining -= span
        cursor = max(cursor, pause_end)
    return cursor + remaining


def playing_time(start: datetime, end: datetime, pauses: Iterable[Pause] = ()) -> timedelta:
    """Time between `start` and `end` outside the pauses."""
    if end <= start:
        return timedelta(0)
    total = end - start
    for pause_start, pause_end in _merged(pauses):
        overlap = min(end, pause_end) - max(start, pause_start)
        if overlap > timedelta(0):
            total -= overlap
    return total


# ---------------------------------------------------------------------------------------------
# the seats' clocks


def pauses_by_user(seats: list[Seat]) -> dict[int, list[Pause]]:
    """Each player's vacations (their clocks pause), from the seats' prefetched vacations where
    they were read with them, otherwise read now."""
    pauses: dict[int, list[Pause]] = {}
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


def start_clock(game: Game, seat: Seat, now: datetime, pauses: Iterable[Pause]) -> None:
    seat.turn_started_at = now
    seat.deadline_at = deadline_after(now, game.time_per_move + seat.reserve_left, pauses)
    lead = seat.user.reminder_lead(game.time_per_move) if seat.user_id and not seat.is_bot else None
    seat.remind_at = seat.deadline_at - lead if lead else None
    seat.reminded_at = None


def _stop_clock(game: Game, seat: Seat, now: datetime, pauses: Iterable[Pause]) -> None:
    """The seat moved: time beyond the time per move comes out of its reserve."""
    if seat.turn_started_at is not None:
        overrun = playing_time(seat.turn_started_at, now, pauses) - game.time_per_move
        if overrun > timedelta(0):
            seat.reserve_left = max(seat.reserve_left - overrun, timedelta(0))
    seat.turn_started_at = seat.deadline_at = seat.remind_at = None


_CLOCK_FIELDS = ["turn_started_at", "deadline_at", "remind_at", "reminded_at", "reserve_left",
                 "turn_notified_at"]


def refresh_turns(
    game: Game, engine: Engine, now: datetime, acted_seat: int | None, player_acted: bool,
    seats: list[Seat],
) -> list[int]:
    """After a change: clocks for the seats now to act, the resolution flag, the end.
    Returns the seats that newly have to act (for "your turn" notifications)."""
    state = game.state
    pauses = pauses_by_user(seats)
    over = engine.is_over(state)
    active = set() if over else set(engine.active_seats(state))
    newly_active = []
    changed = []  # (seat, the clock fields of it that changed)
    for seat in seats:
        before = [getattr(seat, field) for field in _CLOCK_FIELDS]
        seat_pauses = pauses.get(seat.user_id, [])
        was_awaited = seat.deadline_at is not None
        if seat.number == acted_seat or (was_awaited and seat.number not in active):
            _stop_clock(game, seat, now, seat_pauses)
        if seat.number in active and seat.deadline_at is None:
            start_clock(game, seat, now, seat_pauses)
            if not was_awaited:
                newly_active.append(seat.number)
        if seat.number == acted_seat and player_acted:
            seat.turn_notified_at = None
        fields = [field for field, old in zip(_CLOCK_FIELDS, before, strict=True)
                  if getattr(seat, field) != old]
        if fields:
            changed.append((seat, fields))
    if writes_batched_now():  # the sweep writes its batch's seats together
        if changed:
            seats_write([seat for seat, _fields in changed], _CLOCK_FIELDS)
    else:
        # A short UPDATE of its changed columns per seat (the one that moved, those now to
        # act): a bulk update's CASE per column and row took the ORM three times the CPU.
        for seat, fields in changed:
            seat.save(update_fields=fields)
    if over:
        game_finish(game, engine, now)
        return []
    game.needs_resolution = bool(engine.ready_to_resolve(state))
    return newly_active


def player_clocks_recompute(*, user, now: datetime | None = None) -> int:
    """After a vacation changes: every running clock of the player, re-derived."""
    now = now_or(now)
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
