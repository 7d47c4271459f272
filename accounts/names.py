"""Display names that cannot pass for someone else.

A display name is refused when it contains direction controls (which can make it read as
another text), control characters, or nothing visible at all, and when it looks like another
player's username or display name: the comparison is on a "skeleton" of each name (Unicode
NFKC, case folded, invisible characters, spaces and separators dropped, and every character
replaced by one representative of its class of look-alikes from the Unicode confusables data
shipped with confusable_homoglyphs), so "Alice", "ALlCE", "Аlice" with a Cyrillic A and
"a l i c e" all meet.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables
from django.utils.translation import gettext

#: Characters that reorder or isolate text: LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI,
#: LRM, RLM and the Arabic letter mark.
BIDI_CONTROLS = frozenset(
    [chr(code) for code in range(0x202A, 0x202F)]
    + [chr(code) for code in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"]
)
#: Letters that render as blank space although Unicode files them as letters or symbols.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
#: Separators that do not make a name different to the eye.
SEPARATORS = frozenset("_-.·'’")


class NameProblem(ValueError):
    """Why a display name cannot be used; the message is for the player."""


def _invisible(char: str) -> bool:
    category = unicodedata.category(char)
    return (
        char.isspace() or char in BLANK_LOOKING
        or category in ("Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me", "Co", "Cn")
    )


def check_characters(name: str) -> None:
    """Raises NameProblem for direction controls, control characters, or a name (not empty)
    with nothing visible in it."""
    if any(char in BIDI_CONTROLS for char in name):
        raise NameProblem(gettext(
            "Display names cannot contain text-direction control characters."))
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise NameProblem(gettext("Display names cannot contain control characters."))
    if name and all(_invisible(char) for char in name):
        raise NameProblem(gettext("A display name needs at least one visible character."))


@cache
def _look_alike_representatives() -> dict[str, str]:
    """Each character with known look-alikes -> one representative of its class (ASCII when
    the class has one, else the lowest code point). Only single-character look-alikes count."""
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    def better(a: str, b: str) -> str:
        return min(a, b, key=lambda char: (not char.isascii(), ord(char)))

    for char, homoglyphs in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for glyph in homoglyphs:
            other = glyph["c"]
            if len(other) != 1:
                continue
            root_a, root_b = find(char), find(other)
            if root_a != root_b:
                keep = better(root_a, root_b)
                parent[root_a] = parent[root_b] = keep
    return {char: find(char) for char in parent}


def _fold(text: str) -> str:
    representatives = _look_alike_representatives()
    kept = [char for char in text if not _invisible(char) and char not in SEPARATORS]
    return unicodedata.normalize("NFKC", "".join(representatives.get(c, c) for c in kept))


def skeletons(name: str) -> tuple[str, str]:
    """What a name looks like, for comparing names: two readings, one with the case folded
    before look-alikes are merged ("ALICE" meets "alice") and one after ("AIice" with a capital
    I meets "Alice", since I and l look alike while i and l do not)."""
    text = unicodedata.normalize("NFKC", name)
    return _fold(_fold(text.casefold()).casefold()), _fold(text).casefold()


def imitated_name(name: str, others) -> str | None:
    """The first of `others` (names of other players) that `name` looks like, or None."""
    wanted = skeletons(name)
    if not any(wanted):
        return None
    for other in others:
        if other and any(a == b and a for a, b in zip(wanted, skeletons(other), strict=True)):
            return other
    return None
