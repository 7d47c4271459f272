"""The engines' texts (message keys with parameters) in the reader's language, with players'
names for seats: the presentation side of games.engines.texts.

Each engine has its own gettext domain, named by its slug, compiled from
games/engines/locale/<lang>/LC_MESSAGES/<slug>.po by config/catalogs.py; it is read with the
stdlib's gettext (Django loads only its "django" domain), in the language Django has active
unless one is given. English is the engines' own text."""

from __future__ import annotations

import gettext
import hashlib
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.core.cache import caches
from django.utils import translation

from games.engines.registry import UnknownEngine, get_engine
from games.engines.texts import ENGLISH, SEAT_KINDS, SHARED_MESSAGES, Catalog, render, text
from games.presentation.names import with_names
from games.presentation.titles import engine_name

LOCALE_DIR = Path(__file__).resolve().parents[1] / "engines" / "locale"
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


def _renderer(engine_slug: str, language: str | None,
              names: Mapping[int, str] | None) -> Callable[[dict[str, Any]], str]:
    """Renders texts of `engine_slug`'s engine in `language` (default: the active one), each
    seat read as its player's name from `names` (a seat without a name: "Seat N", translated)."""
    catalog = get_engine(engine_slug).text_catalog or _NO_CATALOG
    language = language or translation.get_language() or "en"
    translations = translations_for(engine_slug, language)
    number = number_format(language)

    def seat_name(kind: str, seat: int) -> str:
        if names and seat in names:
            return names[seat]
        return translations.pgettext(kind, SEAT_KINDS[kind]).replace("{number}", number(seat))

    return lambda message: render(catalog, message, translations, seat_name, number)


def render_text(engine_slug: str, message: dict[str, Any], *, language: str | None = None,
                names: Mapping[int, str] | None = None) -> str:
    """`message` of `engine_slug`'s engine in `language` (default: the active one), each seat
    read as its player's name from `names` (a seat without a name: "Seat N", translated)."""
    return _renderer(engine_slug, language, names)(message)


def category_label(engine_slug: str, category: str, *, language: str | None = None) -> str:
    """A row of the score breakdown (`result()["breakdown"]`) as the reader calls it: "Military"
    for "military", "نظامی" in Persian; a category the engine does not name reads as itself."""
    try:
        return render_text(engine_slug, get_engine(engine_slug).category_text(category),
                           language=language)
    except (UnknownEngine, LookupError):
        return category


def breakdown_in_order(engine_slug: str, breakdown: dict[str, Any]) -> dict[str, Any]:
    """A score breakdown in the engine's order of its categories (its scoring pad's, as its
    catalog names them): a result stored as JSONB comes back with its keys reordered."""
    try:
        catalog = get_engine(engine_slug).text_catalog
    except UnknownEngine:
        return breakdown
    order = {category: index for index, category
             in enumerate(catalog.names.get("category", {}) if catalog is not None else ())}
    return dict(sorted(breakdown.items(), key=lambda item: order.get(item[0], len(order))))


def reason_text(engine_slug: str, error: Exception) -> str:
    """An engine's refusal (IllegalAction, InvalidOptions) in the active language: its text
    rendered there; its English words in English, or when the engine gave no text."""
    language = translation.get_language() or "en"
    message = getattr(error, "text", None)
    if message is None or language.split("-")[0] == "en":
        return str(error)
    return render_text(engine_slug, message, language=language)


def is_text(value: Any, catalog: Catalog) -> bool:
    """Whether a view's value is a text of the engine (a key it knows, nothing but "k" and
    "p"), not a dict of its own that merely has a "k"."""
    key = value.get("k")
    return (isinstance(key, str) and set(value) <= {"k", "p"}
            and (key in catalog.messages or key in SHARED_MESSAGES))


#: Texts of views already rendered, by engine, language, players' names and text, kept per
#: process (CACHES["texts"]: LRU, cleared between tests): views repeat the same texts within one
#: view and from one request to the next (card names, cell labels, tile effects), and a text
#: reads the same for as long as the process runs.
TEXTS = "texts"
_NESTED = (dict, list)


def view_texts(engine_slug: str, view: Any, *, language: str | None = None,
               names: Mapping[int, str] | None = None) -> Any:
    """`view` (an engine's view, or any part of it) with every text in it rendered in
    `language` (default: the active one), seats named from `names`: what a page, an email or
    an API client reads. The engine's own view is left as it was."""
    catalog = get_engine(engine_slug).text_catalog
    if catalog is None:
        return view
    language = language or translation.get_language() or "en"
    names_key = tuple(sorted(names.items())) if names else ()
    kept = caches[TEXTS]
    prefix = repr((engine_slug, language, names_key))
    # A text repeated within this view is looked up once.
    within: dict[str, str] = {}
    read = None

    def rendered(value: Any) -> Any:
        nonlocal read
        if isinstance(value, dict):
            if "k" in value and is_text(value, catalog):
                said = repr(value)
                text = within.get(said)
                if text is not None:
                    return text
                key = hashlib.blake2b(f"{prefix}{said}".encode(), digest_size=20).hexdigest()
                text = kept.get(key)
                if text is None:
                    if read is None:
                        read = _renderer(engine_slug, language, names)
                    text = read(value)
                    kept.set(key, text)
                within[said] = text
                return text
            # Numbers and strings, most of a view, are kept without a call each.
            return {key: rendered(item) if isinstance(item, _NESTED) else item
                    for key, item in value.items()}
        if isinstance(value, list):
            return [rendered(item) if isinstance(item, _NESTED) else item for item in value]
        return value

    return rendered(view)


def _catalog_words(engine_slug: str, kind: str,
                   language: str | None) -> Callable[[str], str] | None:
    """English words -> their translation, read by context "<slug>.<kind>" from the engine's
    catalog where it names them (its names of `kind`); words it does not name stay English.
    None when the catalog names none of that kind."""
    catalog = get_engine(engine_slug).text_catalog
    known = set(catalog.names.get(kind, {}).values()) if catalog is not None else set()
    if not known:
        return None
    translations = translations_for(engine_slug, language or translation.get_language() or "en")
    context = catalog.name_context(kind)
    return lambda english: (translations.pgettext(context, english) if english in known
                            else english)


def standing_orders_in(engine_slug: str, orders: list[dict[str, Any]], *,
                       language: str | None = None) -> list[dict[str, Any]]:
    """An engine's standing orders with their label, help and choices in `language` (default:
    the active one), as its catalog names them (names of kind "order")."""
    words = _catalog_words(engine_slug, "order", language)
    if words is None:
        return orders
    return [{**order, "label": words(order["label"]), "help": words(order["help"]),
             "choices": [{**choice, "label": words(choice["label"])}
                         for choice in order["choices"]]} for order in orders]


def options_in(engine_slug: str, options: list[dict[str, Any]], *,
               language: str | None = None) -> list[dict[str, Any]]:
    """An engine's options (`Engine.options`) with their label, help and choice labels in
    `language` (default: the active one), as its catalog names them (names of kind
    "option"); copies, the engine's own list is left as it is."""
    words = _catalog_words(engine_slug, "option", language) or (lambda english: english)
    translated = []
    for option in options:
        shown = {**option, "label": words(option["label"])}
        if option.get("help"):
            shown["help"] = words(option["help"])
        if "choice_labels" in option:
            shown["choice_labels"] = {value: words(label)
                                      for value, label in option["choice_labels"].items()}
        translated.append(shown)
    return translated


def engine_described(engine, *, language: str | None = None) -> dict[str, Any]:
    """`Engine.describe_engine()` in `language` (default: the active one): the game's name
    as the published editions print it and its options' words translated; the same keys."""
    language = language or translation.get_language() or "en"
    with translation.override(language):
        name = engine_name(engine.slug)
    return {**engine.describe_engine(), "name": name,
            "options": options_in(engine.slug, engine.options, language=language)}


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


def component_name(engine_slug: str, kind: str, component: Any, *,
                   language: str | None = None) -> str:
    """A component of `engine_slug`'s game named by its id (a good, a colour, a score
    category: the kinds of its catalog) in `language` (default: the active one); the id itself
    for one the catalog does not name."""
    catalog = get_engine(engine_slug).text_catalog
    table = catalog.names.get(kind, {}) if catalog is not None else {}
    if component not in table:
        return str(component)
    translations = translations_for(engine_slug, language or translation.get_language() or "en")
    return translations.pgettext(catalog.name_context(kind), table[component])
