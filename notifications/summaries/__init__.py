"""The game as one seat sees it, as short lines for emails (turn, reminder, digest, answers).

Each engine has a renderer that reads only the engine's `view(state, seat)` for that seat, so an
email can show nothing the web page would not show that player: no other hand, no pending pick,
no seed or deck order. Players are named by their display names, never "Seat N"."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from notifications.summaries import caverna, generic, seven_wonders, stone_age
from notifications.summaries.common import Names

Renderer = Callable[[dict[str, Any], Names, "int | None"], list[str]]

#: One renderer per engine slug; any other engine (tests' toy game) gets the generic one.
RENDERERS: dict[str, Renderer] = {
    "stone_age": stone_age.lines,
    "seven_wonders": seven_wonders.lines,
    "caverna": caverna.lines,
}

_SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")


def with_names(text: str, names: Mapping[int, str]) -> str:
    """Engine sentences say "Seat 2"; emails say the player's name."""
    return _SEAT_WORD.sub(lambda match: names.get(int(match[1]), match[0]), text)


def game_lines(engine_slug: str, view: dict[str, Any] | None, names: Mapping[int, str],
               viewer: int | None) -> list[str]:
    """Short lines for the seat `viewer`, built from the view the engine gives that seat."""
    if not view:
        return []
    render = RENDERERS.get(engine_slug, generic.lines)
    return [with_names(line, names) for line in render(view, Names(names, viewer), viewer)
            if line]


def seat_names(game) -> dict[int, str]:
    """Display names by seat number, as the game page shows them."""
    return {seat.number: seat.player_name for seat in game.seats.all() if seat.number is not None}
