"""Bot levels: "easy" is each engine's own heuristic `bot_action`; "search" is the determinized
Monte Carlo search of `games.engines.search` with the engine's adapter (its determinizer and
candidate moves), the easy bot playing every seat in the play-outs."""

from __future__ import annotations

import importlib
from typing import Any

from games.engines import search
from games.engines.base import Action, Engine, State

EASY = "easy"
SEARCH = "search"
LEVELS = (EASY, SEARCH)
DEFAULT_LEVEL = SEARCH

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
    max_seconds: float = search.DEFAULT_MAX_SECONDS,
    stats: dict[str, Any] | None = None,
) -> Action:
    """The move of a bot of `level` for `seat` (engines without a search adapter play easy);
    the search makes `rollouts` play-outs per decision, the engine's measured budget
    (`ADAPTER.rollouts`) when None."""
    adapter = adapter_for(engine) if level == SEARCH else None
    if adapter is None:
        return engine.bot_action(state, seat)
    return search.choose(engine, adapter, state, seat, rollouts=rollouts,
                         max_seconds=max_seconds, stats=stats)
