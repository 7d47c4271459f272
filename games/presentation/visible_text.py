"""What of a player's text is visible: whitespace and characters that draw nothing (zero-width
spaces and joiners, word joiners, byte-order marks, bidi marks and overrides, fillers) do not
make a message."""

from __future__ import annotations

import regex

# Unicode's own classes, so new invisible characters are covered when the tables are updated:
# white space, default-ignorable code points (zero-width, fillers, variation selectors, tags),
# control and format characters (bidi marks, embeddings, overrides, isolates) and separators,
# plus the blank Braille pattern, which fonts draw as nothing.
INVISIBLE = r"[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Z}\u2800]"
_INVISIBLE_RUN = regex.compile(rf"{INVISIBLE}*")


def visible_text(text: str) -> str:
    """`text` without invisible characters at either end; empty when nothing in it is visible.
    Each end is matched from its side only, so the time stays linear in the length."""
    text = text or ""
    start = _INVISIBLE_RUN.match(text).end()
    if start == len(text):
        return ""
    end = len(text) - _INVISIBLE_RUN.match(text[::-1]).end()
    return text[start:end]
