"""Player-facing engine texts as message keys with parameters, and their rendering.

An engine describes a move, a choice or a score line as a *text*: `{"k": key, "p": params}`
(compact, because the action log stores it). Parameters name seats by number and components by
their stable ids; the engine's `Catalog` says which parameter is which kind of thing. Rendering
goes through a gettext-like translator (`pgettext`/`npgettext`, as stdlib `gettext` offers):
with `gettext.NullTranslations` it gives the engine's English sentence, exactly what `describe`
returns; the presentation layer passes a catalog for the viewer's language and its own seat
names (the players'). Stdlib only, like every engine module.

Parameter values: an int (a number, or a seat when its kind is "seat"), a str (a component id
of the parameter's kind, or a literal when the parameter has no kind), a nested text, or a list
of those joined by the parameter's separator (itself translated, context "separator").
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Text = dict[str, Any]

#: Context of the list separators' msgids (", ", " and ", " + ", ...).
SEPARATOR_CONTEXT = "separator"
#: Seat kinds and their English form; the presentation layer puts players' names instead.
SEAT_KINDS = {"seat": "Seat {number}", "seat_lower": "seat {number}"}
#: Texts every engine may use: several sentences, a sentence kept as it was (a line an engine
#: could not give a key to; the tests make sure none is produced), a score category's label.
SHARED_MESSAGES = {"sentences": "{sentences}", "literal": "{text}", "category": "{category}",
                   "took_back": "{seat} took back a move: {move}",
                   # Refusals every engine may give (games.engines.base).
                   "refuse_not_listed": "That action is not one of the legal actions now.",
                   "refuse_game_over": "The game is over.",
                   "refuse_not_object": "An action must be a JSON object.",
                   "refuse_too_deep": "That action is nested too deeply to be any legal action.",
                   "refuse_not_json": "An action must contain only JSON values.",
                   "refuse_not_turn": "It is not {who}'s turn to act.",
                   "refuse_nothing_to_resolve": "Nothing is waiting to be resolved.",
                   "refuse_nothing_to_decide": "{seat} has nothing to decide now.",
                   "refuse_empty_seed": "A game needs a non-empty seed.",
                   # Options and standing orders refused (Engine.validate_options and
                   # validate_orders); names and values are what the request sent.
                   "options_players_whole": "The number of players must be a whole number.",
                   "options_players_exactly":
                       "This game is played by exactly {players} players, not {count}.",
                   "options_players_span":
                       "This game is played by {low} to {high} players, not {count}.",
                   "options_not_object": "Options must be an object of name: value pairs.",
                   "options_unknown": "Unknown option(s) for this game: {names}.",
                   "options_choice": "Option {option} must be one of: {choices}.",
                   "options_bool": "Option {option} must be true or false.",
                   "options_whole": "Option {option} must be a whole number.",
                   "options_range": "Option {option} must be between {low} and {high}.",
                   "orders_not_object":
                       "Standing orders must be an object of name: value pairs.",
                   "orders_unknown": "Unknown standing order(s) for this game: {names}.",
                   "orders_choice": "Standing order {order} must be one of: {choices}."}
#: Shared texts that are only their parameters, so there is nothing to translate.
_BARE = {"sentences", "literal", "category"}
SHARED_SEPARATORS = {"sentences": " "}

_FIELD = re.compile(r"\{(\w+)\}")


def text(key: str, **params: Any) -> Text:
    """A text; parameters with the value None are left out."""
    if None in params.values():  # (most texts have none: no new dict for them)
        params = {name: value for name, value in params.items() if value is not None}
    return {"k": key, "p": params} if params else {"k": key}


def option_words(options: list[dict[str, Any]]) -> dict[str, str]:
    """The English words of an engine's options (`Engine.options`) as names a catalog holds:
    "<option>" its label, "<option>.help" its help, "<option>.<value>" a choice's label."""
    words = {}
    for option in options:
        name = option["name"]
        words[name] = option["label"]
        if option.get("help"):
            words[f"{name}.help"] = option["help"]
        for value, label in option.get("choice_labels", {}).items():
            words[f"{name}.{value}"] = label
    return words


def sentences(parts: list[Text]) -> Text:
    """Several sentences read as one text (one sentence stays itself)."""
    return parts[0] if len(parts) == 1 else text("sentences", sentences=parts)


@dataclass(frozen=True)
class Catalog:
    """One engine's messages and how its parameters read.

    messages:   key -> English template, or (singular, plural, name of the count parameter)
    kinds:      parameter name -> kind ("seat", "card", ...); parameters not listed are literal
    names:      kind -> {id: English name}; the msgid of a name, with context "<domain>.<kind>"
    separators: parameter name -> English separator of its list value
    bare:       keys whose template is only their parameters (a name, a list): nothing to
                translate, so they are rendered as they are and left out of the msgids
    """

    domain: str
    messages: Mapping[str, Any]
    kinds: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    separators: Mapping[str, str] = field(default_factory=dict)
    bare: frozenset[str] = frozenset()

    def template(self, key: str) -> Any:
        return self.messages[key] if key in self.messages else SHARED_MESSAGES[key]

    def separator(self, name: str) -> str:
        return self.separators.get(name) or SHARED_SEPARATORS[name]

    def name_context(self, kind: str) -> str:
        return f"{self.domain}.{kind}"

    def msgids(self) -> list[tuple[str, str, str | None]]:
        """Every (context, msgid, plural msgid) the catalog can render: what a translation of
        this engine must cover."""
        found: list[tuple[str, str, str | None]] = []
        shared = {key: template for key, template in SHARED_MESSAGES.items() if key not in _BARE}
        for key, template in {**self.messages, **shared}.items():
            if key in self.bare:
                continue
            if isinstance(template, tuple):
                found.append((key, template[0], template[1]))
            else:
                found.append((key, template, None))
        for kind, table in self.names.items():
            for name in dict.fromkeys(table.values()):
                found.append((self.name_context(kind), name, None))
        for separator in dict.fromkeys(list(self.separators.values())
                                       + list(SHARED_SEPARATORS.values())):
            found.append((SEPARATOR_CONTEXT, separator, None))
        for kind, template in SEAT_KINDS.items():
            found.append((kind, template, None))
        return found


ENGLISH = gettext.NullTranslations()


def render(catalog: Catalog, message: Text, translations: Any = ENGLISH,
           seat_name: Callable[[str, int], str] | None = None,
           number: Callable[[int], str] = str) -> str:
    """`message` as a sentence: in English with the defaults, else through `translations`
    (pgettext/npgettext), with `seat_name(kind, seat)` for seats and `number` for numbers."""
    key = message["k"]
    params = message.get("p", {})
    template = catalog.template(key)
    if isinstance(template, tuple):
        singular, plural, count = template
        pattern = translations.npgettext(key, singular, plural, params[count])
    else:
        pattern = (template if key in _BARE or key in catalog.bare
                   else translations.pgettext(key, template))

    def value_text(name: str, value: Any) -> str:
        if isinstance(value, dict):
            return render(catalog, value, translations, seat_name, number)
        if isinstance(value, list):
            separator = translations.pgettext(SEPARATOR_CONTEXT, catalog.separator(name))
            return separator.join(value_text(name, item) for item in value)
        kind = catalog.kinds.get(name)
        if kind in SEAT_KINDS:
            if seat_name is not None:
                return seat_name(kind, value)
            form = translations.pgettext(kind, SEAT_KINDS[kind])
            return form.replace("{number}", number(value))
        if kind is not None:
            return translations.pgettext(catalog.name_context(kind), catalog.names[kind][value])
        if isinstance(value, int) and not isinstance(value, bool):
            return number(value)
        return str(value)

    # A parameter left out (an optional part of the sentence) reads as nothing.
    return _FIELD.sub(lambda match: value_text(match[1], params[match[1]])
                      if match[1] in params else "", pattern)


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses."""
    return set(_FIELD.findall(template))


class Parser:
    """Reads the engine's English sentences back into texts, by the same templates they are
    written from: for log lines that the rules code writes as sentences. A seat or a component
    parameter is read by its exact English forms; any other parameter is a number unless
    `readers` gives it a reader (words -> value, raising ValueError when they do not fit)."""

    def __init__(self, catalog: Catalog, keys: list[str],
                 readers: Mapping[str, Callable[[str], Any]] | None = None) -> None:
        self.catalog = catalog
        self.readers = dict(readers or {})
        self.by_name = {kind: {name: item for item, name in reversed(table.items())}
                        for kind, table in catalog.names.items()}
        self.patterns: list[tuple[str, re.Pattern[str]]] = []
        for key in keys:
            template = catalog.messages[key]
            forms = [template] if isinstance(template, str) else [template[0], template[1]]
            self.patterns.extend((key, self._pattern(form)) for form in forms)

    def _group(self, name: str) -> str:
        kind = self.catalog.kinds.get(name)
        if kind in SEAT_KINDS:
            return r"[Ss]eat \d+"
        if kind is not None:
            names = sorted(self.by_name[kind], key=len, reverse=True)
            return "|".join(map(re.escape, names))
        return ".+?" if name in self.readers else r"-?\d+"

    def _pattern(self, template: str) -> re.Pattern[str]:
        pieces = []
        position = 0
        for match in _FIELD.finditer(template):
            pieces.append(re.escape(template[position:match.start()]))
            pieces.append(f"(?P<{match[1]}>{self._group(match[1])})")
            position = match.end()
        pieces.append(re.escape(template[position:]))
        return re.compile("".join(pieces) + r"\Z", re.DOTALL)

    def _read(self, name: str, words: str) -> Any:
        kind = self.catalog.kinds.get(name)
        if kind in SEAT_KINDS:
            return int(words.split()[-1])
        if kind is not None:
            return self.by_name[kind][words]
        if name in self.readers:
            return self.readers[name](words)
        return int(words)

    def parse(self, sentence: str) -> Text:
        """The text that renders back to `sentence` exactly; a literal text when none does."""
        for key, pattern in self.patterns:
            match = pattern.match(sentence)
            if match is None:
                continue
            try:
                params = {name: self._read(name, words)
                          for name, words in match.groupdict().items()}
            except (ValueError, KeyError):
                continue
            candidate = text(key, **params)
            if render(self.catalog, candidate) == sentence:
                return candidate
        return text("literal", text=sentence)
