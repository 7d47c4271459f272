"""Small wording helpers shared by the engine renderers.

Every word is marked for translation and rendered in the active language (the recipient's: the
emails are built inside `translation.override`); numbers read in that language's digits."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext, pgettext

from accounts.templatetags.language_tags import localized_digits
from games.presentation.texts import component_name


def say(template: str, **values: Any) -> str:
    """A translated `template` with its named placeholders filled, numbers in the reader's
    digits."""
    return template % {key: localized_digits(value) if isinstance(value, int) else value
                       for key, value in values.items()}


def comma() -> str:
    """What separates the items of a list in the reader's language ("، " in Persian)."""
    return pgettext("list separator", ", ")


def semicolon() -> str:
    """What separates longer items, each a list of its own ("؛ " in Persian)."""
    return pgettext("list separator", "; ")


class Names:
    """Who a seat is, for a reader sitting at `viewer`: "You" for themselves, else a name; and
    the game's components (goods, colours) named in the reader's language."""

    def __init__(self, names: Mapping[int, str], viewer: int | None, engine: str = ""):
        self.names = dict(names)
        self.viewer = viewer
        self.engine = engine

    def __call__(self, seat: int | None) -> str:
        if seat is None:
            return gettext("nobody")
        return self.names.get(seat) or say(gettext("player %(number)s"), number=seat + 1)

    def who(self, seat: int | None) -> str:
        """The subject of a player's line: "You" for the reader."""
        return gettext("You") if seat is not None and seat == self.viewer else self(seat)

    def thing(self, kind: str, component: Any) -> str:
        """A component by its id ("wild_boar"), as the engine's catalog names it."""
        named = component_name(self.engine, kind, component) if self.engine else str(component)
        return named.replace("_", " ")


def amount(count: int, what: str) -> str:
    """"2 wood": a number of a thing already named in the reader's language."""
    return say("%(count)s %(what)s", count=count, what=what)


def goods(counts: Mapping[str, int], name: Names, kind: str = "good",
          order: Iterable[str] | None = None, *, keep_zero: bool = False) -> str:
    """{"wood": 2, "wild_boar": 1} → "2 wood, 1 wild boar" (zeros left out unless kept)."""
    keys = list(order) if order is not None else list(counts)
    parts = [amount(counts.get(key, 0), name.thing(kind, key)) for key in keys
             if keep_zero or counts.get(key, 0)]
    return comma().join(parts) or gettext("nothing")


def listing(items: Iterable[str], empty: str | None = None) -> str:
    items = [item for item in items if item]
    return comma().join(items) if items else (empty if empty is not None else gettext("none"))


def final_scores(scores: Iterable[tuple[int, int]], winners: Iterable[int], name: Names) -> str:
    """The result line every engine ends with: (seat, points) pairs and the winning seats."""
    return say(gettext("Final scores: %(scores)s; won: %(winners)s"),
               scores=comma().join(say("%(player)s %(points)s", player=name(seat), points=points)
                                for seat, points in scores),
               winners=listing(name(seat) for seat in winners))
