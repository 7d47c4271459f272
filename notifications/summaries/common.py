"""Small wording helpers shared by the engine renderers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class Names:
    """Who a seat is, for a reader sitting at `viewer`: "You" for themselves, else a name."""

    def __init__(self, names: Mapping[int, str], viewer: int | None):
        self.names = dict(names)
        self.viewer = viewer

    def __call__(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.names.get(seat, f"player {seat + 1}")

    def who(self, seat: int | None) -> str:
        """The subject of a player's line: "You" for the reader."""
        return "You" if seat is not None and seat == self.viewer else self(seat)


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def goods(counts: Mapping[str, int], order: Iterable[str] | None = None,
          *, keep_zero: bool = False) -> str:
    """{"wood": 2, "wild_boar": 1} → "2 wood, 1 wild boar" (zeros left out unless kept)."""
    keys = list(order) if order is not None else list(counts)
    parts = [f"{counts.get(key, 0)} {key.replace('_', ' ')}" for key in keys
             if keep_zero or counts.get(key, 0)]
    return ", ".join(parts) or "nothing"


def listing(items: Iterable[str], empty: str = "none") -> str:
    items = [item for item in items if item]
    return ", ".join(items) if items else empty
