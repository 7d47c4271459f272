"""Any other engine: its view as "Label: value" lines, with per-player lists named by player.
The labels are the view's own keys (an engine without a renderer has no words to translate).

Used for engines without a renderer of their own; it still shows only the seat's view."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.presentation.summaries.common import Names, comma, say

_SCALARS = (str, int, float, bool)


def _value(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    return say("%(value)s", value=value)


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def lines(view: dict[str, Any], name: Names, viewer: int | None) -> list[str]:
    players = view.get("players")
    seats = players if isinstance(players, list) and all(
        isinstance(seat, int) for seat in players) else None
    out = []
    for key, value in view.items():
        if key in ("players", "viewer", "you", "active_seats", "log"):
            continue
        if value is None or isinstance(value, _SCALARS):
            out.append(f"{_label(key)}: {_value(value)}")
        elif isinstance(value, list) and all(v is None or isinstance(v, _SCALARS)
                                             for v in value):
            if seats is not None and len(value) == len(seats):
                # One entry per player: say whose it is.
                shown = comma().join(f"{name.who(seat)} {_value(v)}" for seat, v in
                                  zip(seats, value, strict=True))
            else:
                shown = comma().join(_value(v) for v in value) or gettext("none")
            out.append(f"{_label(key)}: {shown}")
    if seats is not None:
        out.insert(0, say(gettext("Players: %(players)s"),
                          players=comma().join(name(seat) for seat in seats)))
    return out
