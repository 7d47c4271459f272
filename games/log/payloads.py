"""How the action log stores its payloads: an action whose keys are those of one of the shipped
engines' action kinds (its shape) is stored as `[code, values...]`, the values in the order of
its keys' names (`{"type": "place", "location": "forest", "count": 3}` as `["0",3,"forest"]`);
any other payload as it is (a list as `[null, list]`). The shapes' codes are pinned in
games/logpayloads.json and only ever added to: an action kind whose keys change gets a new
shape, the old one still reads the payloads stored with it. `python -m games.logpayloads` pins
the shapes of the engines' action schemas."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.log.codec import codes, read_pinned, write_pinned

PINNED_PATH = Path(__file__).resolve().with_name("payloads.json")


@lru_cache(maxsize=1)
def pinned() -> dict[str, tuple[str, tuple[str, ...]]]:
    """code -> (action type, the other keys' names sorted)."""
    table = json.loads(PINNED_PATH.read_text(encoding="utf-8"))
    return {shape: (kind, tuple(names)) for shape, (kind, names) in table.items()}


@lru_cache(maxsize=1)
def _by_keys() -> dict[tuple[str, tuple[str, ...]], str]:
    return {entry: shape for shape, entry in pinned().items()}


def pack(payload: Any) -> Any:
    """The JSON value stored for `payload`."""
    if isinstance(payload, list):
        return [None, payload]
    if not isinstance(payload, dict) or not isinstance(payload.get("type"), str):
        return payload
    names = tuple(sorted(name for name in payload if name != "type"))
    shape = _by_keys().get((payload["type"], names))
    if shape is None:
        return payload
    return [shape, *(payload[name] for name in names)]


def unpack(stored: Any) -> Any:
    """The payload back from its stored JSON value; ValueError (KeyError for a shape that is
    not pinned) for what `pack` never wrote."""
    if not isinstance(stored, list):
        return stored
    if len(stored) == 2 and stored[0] is None:
        return stored[1]
    if not stored or not isinstance(stored[0], str):
        raise ValueError(f"not a stored payload: {stored!r}")
    kind, names = pinned()[stored[0]]
    if len(stored) != len(names) + 1:
        raise ValueError(f"{stored[0]!r} has {len(names)} values, not {stored[1:]!r}")
    return {"type": kind, **dict(zip(names, stored[1:], strict=True))}


# ---- pinning ------------------------------------------------------------------------------------


def shipped_shapes() -> list[tuple[str, list[str]]]:
    """(action type, other keys sorted) of each kind in the engines' schemas, with each choice
    of its optional keys (up to four of them: all or none beyond that)."""
    from games.engines.registry import BUILTIN_ENGINE_MODULES

    shapes = []
    for path in BUILTIN_ENGINE_MODULES:
        engine = importlib.import_module(path).engine
        for kind in engine.action_schema().get("oneOf", []):
            properties = kind.get("properties", {})
            action_type = properties.get("type", {}).get("const")
            if not isinstance(action_type, str):
                continue
            required = [name for name in kind.get("required", properties) if name != "type"]
            optional = [name for name in properties if name not in required and name != "type"]
            choices = ([combination for size in range(len(optional) + 1)
                        for combination in itertools.combinations(optional, size)]
                       if len(optional) <= 4 else [(), tuple(optional)])
            shapes += [(action_type, sorted([*required, *chosen])) for chosen in choices]
    return shapes


def with_new_shapes(table: dict[str, list], shapes: list[tuple[str, list[str]]]
                    ) -> dict[str, list]:
    """`table` with each shape it lacks, in the order of `shapes`, each with the first code no
    shape has."""
    table = dict(table)
    known = {(kind, tuple(names)) for kind, names in table.values()}
    free = (code for code in codes() if code not in table)
    for kind, names in shapes:
        if (kind, tuple(names)) not in known:
            table[next(free)] = [kind, names]
            known.add((kind, tuple(names)))
    return table


def main() -> None:
    table = read_pinned(PINNED_PATH)
    updated = with_new_shapes(table, shipped_shapes())
    write_pinned(PINNED_PATH, updated)
    sys.stdout.write(f"{len(updated) - len(table)} shape(s) pinned in {PINNED_PATH.name}\n")


if __name__ == "__main__":
    main()
