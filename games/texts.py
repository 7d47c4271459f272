"""The engines' texts (message keys with parameters) in the reader's language, with players'
names for seats: the presentation side of games.engines.texts.

Each engine has its own gettext domain, named by its slug, compiled from
games/engines/locale/<lang>/LC_MESSAGES/<slug>.po by config/catalogs.py; it is read with the
stdlib's gettext (Django loads only its "django" domain), in the language Django has active
unless one is given. English is the engines' own text."""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.utils import translation

from games.engines.registry import UnknownEngine, get_engine
from games.engines.texts import ENGLISH, SEAT_KINDS, Catalog, render, text
from games.names import with_names

LOCALE_DIR = Path(__file__).resolve().parent / "engines" / "locale"
_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
#: Engines without a catalog describe in English only (their texts are literal sentences).
_NO_CATALOG = Catalog(domain="", messages={})


@lru_cache(maxsize=64)
def translations_for(domain: str, language: str) -> gettext.NullTranslations:
    """The compiled catalog of `domain` in `language` (a Django code: "fa", "zh-hans"); the
    English texts themselves when there is none."""
    if not language or language.split("-")[0] == "en":
        return ENGLISH
    locale = translation.to_locale(language)
    return gettext.translation(domain, LOCALE_DIR, languages=[locale], fallback=True)


def number_format(language: str):
    """How numbers read in `language`: Persian digits in Persian."""
    if language.split("-")[0] == "fa":
        return lambda n: str(n).translate(_PERSIAN_DIGITS)
    return str


def reader_language(request) -> str:
    """The language a request reads in: the signed-in player's choice (API clients signed in
    by token too, whom the middleware does not see), else what LocaleMiddleware picked."""
    user = getattr(request, "user", None)
    chosen = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    return chosen or translation.get_language() or "en"


def render_text(engine_slug: str, message: dict[str, Any], *, language: str | None = None,
                names: Mapping[int, str] | None = None) -> str:
    """`message` of `engine_slug`'s engine in `language` (default: the active one), each seat
    read as its player's name from `names` (a seat without a name: "Seat N", translated)."""
    engine = get_engine(engine_slug)
    language = language or translation.get_language() or "en"
    translations = translations_for(engine_slug, language)
    number = number_format(language)

    def seat_name(kind: str, seat: int) -> str:
        if names and seat in names:
            return names[seat]
        return translations.pgettext(kind, SEAT_KINDS[kind]).replace("{number}", number(seat))

    return render(engine.text_catalog or _NO_CATALOG, message, translations, seat_name, number)


def message_text(engine_slug: str, message: dict[str, Any], *, language: str | None = None,
                 names: Mapping[int, str] | None = None) -> str:
    """`render_text`, for texts read back from the log: a sentence kept as it was (an entry
    written before texts were stored, an engine without a catalog) gets the players' names for
    its "Seat N" like the engine's own sentences do; a text this version cannot render (a key
    or a component it no longer has) reads as its key rather than breaking the page."""
    try:
        rendered = render_text(engine_slug, message, language=language, names=names)
    except (UnknownEngine, LookupError, ValueError, TypeError):
        return str(message.get("k", "")) if isinstance(message, dict) else ""
    if names and message.get("k") == "literal":
        return with_names(rendered, names)
    return rendered


def entry_text(entry, viewer_seat: int | None, *, language: str | None = None,
               names: Mapping[int, str] | None = None, engine_slug: str | None = None) -> str:
    """A log entry as `viewer_seat` may read it, in `language` (default: the active one)."""
    return message_text(engine_slug or entry.game.engine, entry.text_for(viewer_seat),
                        language=language, names=names)


def english_text(engine, message: dict[str, Any]) -> str:
    """The engine's English sentence for `message` (what `describe` returns)."""
    return render(engine.text_catalog or _NO_CATALOG, message)


def took_back_texts(seat_number: int, target) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The public and the actor's text of an undo entry: "Seat N took back a move: " and the
    move's own text."""
    public = text("took_back", seat=seat_number, move=target.text_for(None))
    if not target.hides_something:
        return public, None
    return public, text("took_back", seat=seat_number, move=target.text_for(target.seat_number))
