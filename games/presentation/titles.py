"""What people call a game, in the reader's language: the engine's name as the published
editions print it ("Stone Age", "عصر حجر", "石器时代") and the game's number in the language's
digits ("عصر حجر #۱۲"). A name the creator gave the game stays as they typed it."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import pgettext, pgettext_lazy

from games.engines.registry import UnknownEngine, get_engine

#: The engines' names, by slug (the engines name themselves in English, `Engine.name`); the
#: context keeps them apart from the same words elsewhere in the catalogs.
ENGINE_NAMES = {
    "stone_age": pgettext_lazy("engine name", "Stone Age"),
    "seven_wonders": pgettext_lazy("engine name", "7 Wonders"),
    "caverna": pgettext_lazy("engine name", "Caverna"),
}

_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def _digits(value) -> str:
    """`value` with the active language's digits (Persian in fa; unchanged elsewhere)."""
    text = str(value)
    return text.translate(_PERSIAN_DIGITS) if (translation.get_language() or "") == "fa" else text


def engine_name(slug: str) -> str:
    """The engine's name in the active language; an engine this module does not name reads as
    its own (English) name, an unknown slug as itself."""
    if slug in ENGINE_NAMES:
        return str(ENGINE_NAMES[slug])
    try:
        return get_engine(slug).name
    except UnknownEngine:
        return slug


def engine_title(slug: str, number: int) -> str:
    """"Stone Age #12" in the active language."""
    return pgettext("game title", "%(engine)s #%(number)s") % {
        "engine": engine_name(slug), "number": _digits(number)}


def game_title(game) -> str:
    """The game's title in the active language: "Stone Age #12", or with the name its creator
    gave it, "Friday night (Stone Age #12)"."""
    title = engine_title(game.engine, game.pk)
    if not game.name:
        return title
    return pgettext("game title", "%(name)s (%(title)s)") % {"name": game.name, "title": title}
