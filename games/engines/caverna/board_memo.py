"""Facts of a home board (owned tiles, where tiles fit, holdings) worked out once per board.

Boards change seldom: a copy of the state shares its cells list, and the engine changes a board
by making a new list (cells_to_change). The facts of a board are kept with the list they were
worked out from and a copy of its cells, and used again only while the list still equals that
copy, so a board changed in place (as tests do between calls) is worked out anew. Within one
engine call (`scoped`) the comparison is made once per board: the engine never changes a cells
list in place after reading it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
Cells = list[dict[str, Any]]


class _Call(threading.local):
    #: id(cells) -> (cells, facts) of the boards checked in this thread's engine call.
    checked: dict[int, tuple[Cells, dict[str, Any]]] | None = None


_call = _Call()
#: id(cells) -> (cells, a copy of its cells, facts); the list is kept so its id stays its own.
_BOARDS: dict[int, tuple[Cells, Cells, dict[str, Any]]] = {}
#: Boards kept at most (a few per game in play); past that the table starts again.
MAX_BOARDS = 256


def facts(cells: Cells) -> dict[str, Any]:
    """The facts known of `cells` (callers fill in what they work out; values are shared: never
    change one)."""
    checked = _call.checked
    key = id(cells)
    if checked is not None:
        known = checked.get(key)
        if known is not None:
            return known[1]
    entry = _BOARDS.get(key)
    if entry is None or entry[0] is not cells or entry[1] != cells:
        if len(_BOARDS) >= MAX_BOARDS:
            _BOARDS.clear()
        entry = (cells, [dict(cell) for cell in cells], {})
        _BOARDS[key] = entry
    if checked is not None:
        checked[key] = (cells, entry[2])
    return entry[2]


def scoped(function: F) -> F:
    """Runs `function` as one engine call: each board is compared with its copy once."""

    @wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        if _call.checked is not None:
            return function(*args, **kwargs)
        _call.checked = {}
        try:
            return function(*args, **kwargs)
        finally:
            _call.checked = None

    return call  # type: ignore[return-value]
