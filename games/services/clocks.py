"""Correspondence clocks: playing time between two moments, not counting a player's vacations.

Pure functions of datetimes, so the rules are easy to test with any clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

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
