"""The game as one seat sees it, as short lines for emails (turn, reminder, digest, answers).

Each engine has a renderer that reads only the engine's `view(state, seat)` for that seat, so an
email can show nothing the web page would not show that player: no other hand, no pending pick,
no seed or deck order. Players are named by their display names, never "Seat N". The lines
are in the active language: the emails render them inside the recipient's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.presentation.names import seat_names, with_names
from games.presentation.summaries import caverna, generic, seven_wonders, stone_age
from games.presentation.summaries.common import Names
from games.presentation.texts import view_texts

__all__ = ["RENDERERS", "game_lines", "seat_names", "with_names"]

Renderer = Callable[[dict[str, Any], Names, "int | None"], list[str]]

#: One renderer per engine slug; any other engine (tests' toy game) gets the generic one.
RENDERERS: dict[str, Renderer] = {
    "stone_age": stone_age.lines,
    "seven_wonders": seven_wonders.lines,
    "caverna": caverna.lines,
}


def game_lines(engine_slug: str, view: dict[str, Any] | None, names: Mapping[int, str],
               viewer: int | None) -> list[str]:
    """Short lines for the seat `viewer`, built from the view the engine gives that seat."""
    if not view:
        return []
    # In the active language (an email is built in its recipient's), as the lines' own words.
    view = view_texts(engine_slug, view, names=names)
    render = RENDERERS.get(engine_slug, generic.lines)
    return [with_names(line, names)
            for line in render(view, Names(names, viewer, engine_slug), viewer) if line]
