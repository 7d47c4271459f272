"""Engine views and states read in English: every text in them (games.engines.texts, a message
key with parameters) rendered as the engine's English sentence, for tests that check wording
and for the behaviour fingerprint's `--english` mode. Stdlib only, like the engines."""

from __future__ import annotations

from typing import Any

from games.engines.texts import render


def is_text(value: Any) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("k"), str)
            and set(value) <= {"k", "p"})


def in_english(engine, value: Any) -> Any:
    """`value` with every text in it rendered in English."""
    if engine.text_catalog is not None and is_text(value):
        return render(engine.text_catalog, value)
    if isinstance(value, dict):
        return {key: in_english(engine, item) for key, item in value.items()}
    if isinstance(value, list):
        return [in_english(engine, item) for item in value]
    return value


def english_view(engine, state: dict, viewer: int | None) -> dict[str, Any]:
    """The engine's view for `viewer` with its texts in English."""
    return in_english(engine, engine.view(state, viewer))
