"""Players by name: engines say "Seat 2" in their sentences (they know only seat numbers); every
surface a person reads (the game page, emails) says the player's display name instead."""

from __future__ import annotations

import re
from collections.abc import Mapping

_SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")


def with_names(text: str, names: Mapping[int, str]) -> str:
    """The engine's sentence with each "Seat N" replaced by that seat's player's name."""
    return _SEAT_WORD.sub(lambda match: names.get(int(match[1]), match[0]), text)


def seat_names(game) -> dict[int, str]:
    """Display names by seat number, as the game page shows them."""
    seats = game.seats.all()
    if "seats" not in getattr(game, "_prefetched_objects_cache", {}):
        seats = seats.select_related("user")  # one query, not one a seat
    return {seat.number: seat.player_name for seat in seats if seat.number is not None}
