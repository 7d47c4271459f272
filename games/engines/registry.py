"""Maps a game's slug to its engine. The only place that knows which engines ship."""

from __future__ import annotations

import importlib

from games.engines.base import Engine

#: Engine modules shipped with the product (`<game>/engine.py`); each exposes an `engine` instance.
BUILTIN_ENGINE_MODULES: tuple[str, ...] = (
    "games.engines.stone_age.engine",
    "games.engines.seven_wonders.engine",
    "games.engines.caverna.engine",
)


class UnknownEngine(LookupError):
    """No engine is registered under that slug."""


_engines: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Adds an engine (the built-in ones on first use; tests add their own)."""
    if not engine.slug:
        raise ValueError("an engine needs a slug")
    _engines[engine.slug] = engine
    return engine


def unregister(slug: str) -> None:
    _engines.pop(slug, None)


def _builtin() -> dict[str, Engine]:
    if not _builtin_loaded:
        for module_path in BUILTIN_ENGINE_MODULES:
            register(importlib.import_module(module_path).engine)
        _builtin_loaded.append(True)
    return _engines


_builtin_loaded: list[bool] = []


def get_engine(slug: str) -> Engine:
    try:
        return _builtin()[slug]
    except KeyError:
        raise UnknownEngine(f"There is no game called {slug!r}.") from None


def all_engines() -> list[Engine]:
    return sorted(_builtin().values(), key=lambda engine: engine.name)
