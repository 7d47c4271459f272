"""Speed helper shared by the engines: an exact deep copy of JSON-shaped data.

It rests on `marshal`: for plain dicts, lists, tuples, str, int, float, bool and None its bytes
are an exact image of the value (types included: True, 1 and 1.0 are three different codes), and
a round trip through them is the fastest deep copy the standard library offers.
"""

from __future__ import annotations

import marshal
from typing import Any

#: The marshal format; fixed so that equal values give equal bytes within one process.
_VERSION = 4


def deep_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (several times faster than copy.deepcopy or pickle)."""
    return marshal.loads(marshal.dumps(value, _VERSION))
