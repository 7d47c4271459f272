"""Bot levels: "easy" is each engine's own heuristic `bot_action`; "search" is the determinized
Monte Carlo search of `games.engines.search` with the engine's adapter (its determinizer and
candidate moves), the easy bot playing every seat in the play-outs; "hard" is the same search
with the adapter's larger budget (several times the play-outs, so more worlds a candidate) and
twice the thinking time."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from games.engines import search
from games.engines.base import Action, Engine, State

EASY = "easy"
SEARCH = "search"
HARD = "hard"
LEVELS = (EASY, SEARCH, HARD)
DEFAULT_LEVEL = SEARCH
#: Wall seconds a decision may think at each searching level, when the caller gives none.
MAX_SECONDS = {SEARCH: search.DEFAULT_MAX_SECONDS, HARD: search.HARD_MAX_SECONDS}

#: Engine slug -> module holding its search ADAPTER.
ADAPTERS = {
    "caverna": "games.engines.caverna.search_bot",
    "stone_age": "games.engines.stone_age.search_bot",
    "seven_wonders": "games.engines.seven_wonders.search_bot",
}


def adapter_for(engine: Engine) -> search.SearchAdapter | None:
    module = ADAPTERS.get(engine.slug)
    return importlib.import_module(module).ADAPTER if module else None


def bot_move(
    engine: Engine,
    state: State,
    seat: int,
    level: str = DEFAULT_LEVEL,
    *,
    rollouts: int | None = None,
    max_seconds: float | None = None,
    stats: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Action:
    """The move of a bot of `level` for `seat` (engines without a search adapter play easy);
    the search makes `rollouts` play-outs per decision, when None the engine's measured budget
    for the level (`ADAPTER.rollouts`, `ADAPTER.hard_rollouts` for hard), and thinks for
    `max_seconds` of `clock` at most (the level's MAX_SECONDS when None)."""
    adapter = adapter_for(engine) if level in (SEARCH, HARD) else None
    if adapter is None:
        return engine.bot_action(state, seat)
    if max_seconds is None:
        max_seconds = MAX_SECONDS[level]
    if level == HARD:
        return search.choose(
            engine, adapter, state, seat, rollouts=rollouts or adapter.hard_rollouts,
            width=adapter.hard_width, explore=adapter.hard_explore, max_seconds=max_seconds,
            stats=stats, clock=clock)
    return search.choose(engine, adapter, state, seat, rollouts=rollouts,
                         max_seconds=max_seconds, stats=stats, clock=clock)
