"""Speed helpers shared by the engines: an exact deep copy of JSON-shaped data, and a memo that
lets `apply` reuse the legal-action list just computed for the same state and seat.

Both rest on `marshal`: for plain dicts, lists, tuples, str, int, float, bool and None its bytes
are an exact image of the value (types included: True, 1 and 1.0 are three different codes), and
a round trip through them is the fastest deep copy the standard library offers.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import Any

#: The marshal format; fixed so that equal values give equal bytes within one process.
_VERSION = 4


def freeze(value: Any) -> bytes | None:
    """The marshal bytes of a JSON-shaped value, or None for anything marshal cannot carry."""
    try:
        return marshal.dumps(value, _VERSION)
    except ValueError:
        return None


def thaw(frozen: bytes) -> Any:
    """A fresh deep copy of the value `frozen` was made from."""
    return marshal.loads(frozen)


def deep_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (several times faster than copy.deepcopy or pickle)."""
    return marshal.loads(marshal.dumps(value, _VERSION))


class LegalActionsMemo:
    """The last legal-action list an engine computed, with the exact bytes of the state and the
    seat it was for. A random or bot player, the conformance kit and the services all ask for
    the legal actions and then apply one of them to the same state: `apply` finds them here
    instead of computing them a second time.

    The key is the state's full marshal image, not its identity, so a caller that changes a
    state in place between the two calls simply misses; and the list is kept as bytes, so a
    caller that changes the list it was handed cannot change what `apply` validates against.
    One entry per engine: a hit needs nothing older than the last call."""

    __slots__ = ("_compute", "_last")

    def __init__(self, compute: Callable[[Any, int], list]) -> None:
        self._compute = compute
        self._last: tuple[int, bytes, bytes] | None = None

    def legal_actions(self, state: Any, seat: int) -> list:
        """`compute(state, seat)`, remembered for the next `for_apply`."""
        legal = self._compute(state, seat)
        if type(seat) is int:  # never True for 1: an engine may tell them apart
            frozen, frozen_legal = freeze(state), freeze(legal)
            if frozen is not None and frozen_legal is not None:
                self._last = (seat, frozen, frozen_legal)
        return legal

    def for_apply(self, state: Any, seat: int) -> tuple[list, bytes | None]:
        """(the legal actions of `seat` in `state`, the state's marshal bytes or None): the
        remembered list when the last call was for this very state and seat, else computed.
        The bytes serve `thaw` for the copy `apply` makes."""
        frozen = freeze(state)
        last = self._last  # read once: another thread may replace it meanwhile
        if (frozen is not None and last is not None and type(seat) is int and last[0] == seat
                and last[1] == frozen):
            return marshal.loads(last[2]), frozen
        return self._compute(state, seat), frozen
