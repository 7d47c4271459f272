"""How the action log stores the engines' texts: short JSON in a text column, decoded back to
exactly the text the engine gave (`{"k": key, "p": params}`, games.engines.texts).

A text is stored as `{code: [values]}`: `code` the key's code (one or two letters or digits)
and the values in the order of the key's parameter names, both pinned in games/logtexts.json
(see `pinned`). A value is null
when the log entry's row already holds it: the parameter `seat` when it is the entry's seat, any
other parameter when the entry's payload has the same value under its name (`{"type": "place",
"count": 2, ...}` and "places {count} people"); trailing nulls are dropped. Nested texts are
stored the same way, lists as lists; an entry of several sentences is the list of them. A text
that does not fit (a key that is not pinned, a parameter outside its key's names, a None value,
a parameter left out that the row would supply) is stored as it is, as `{"k": ..., "p": ...}`.

The pinned table only grows: a pinned key keeps its parameter names and its code for as long as
entries may hold it (tests/services/test_logtexts.py checks the engines' catalogs still
have every pinned key with those names). After adding keys to an engine's catalog run
`python -m games.logtexts` to pin them."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.engines.texts import SHARED_MESSAGES, Catalog, placeholders

PINNED_PATH = Path(__file__).resolve().with_name("codec.json")
_SENTENCES = "sentences"
_ABSENT = object()


def key_parameters(template: Any) -> list[str]:
    """The parameter names of a catalog template (a string, or singular, plural and the name
    of the count), sorted: the order a stored text lists their values in."""
    if isinstance(template, tuple):
        singular, plural, count = template
        return sorted(placeholders(singular) | placeholders(plural) | {count})
    return sorted(placeholders(template))


@lru_cache(maxsize=1)
def pinned() -> dict[str, tuple[str, tuple[str, ...]]]:
    """key -> (code, parameter names), as stored entries use them."""
    table = json.loads(PINNED_PATH.read_text(encoding="utf-8"))
    return {key: (code, tuple(names)) for key, (code, names) in table.items()}


@lru_cache(maxsize=1)
def _by_code() -> dict[str, tuple[str, tuple[str, ...]]]:
    return {code: (key, names) for key, (code, names) in pinned().items()}


def _row_values(seat: int | None, payload: Any) -> dict[str, Any]:
    values = {name: value for name, value in payload.items() if value is not None} \
        if isinstance(payload, dict) else {}
    if seat is not None:
        values["seat"] = seat
    return values


def _same(a: Any, b: Any) -> bool:
    return (json.dumps(a, sort_keys=True, separators=(",", ":"))
            == json.dumps(b, sort_keys=True, separators=(",", ":")))


def _pack_text(message: Any, row: dict[str, Any]) -> Any:
    if not isinstance(message, dict) or not isinstance(message.get("k"), str):
        raise TypeError(f"not a text: {message!r}")
    entry = pinned().get(message.get("k")) if set(message) <= {"k", "p"} else None
    params = message.get("p", {})
    if (entry is None or not isinstance(params, dict) or ("p" in message and not params)
            or not set(params) <= set(entry[1])):
        return message
    code, names = entry
    values = []
    for name in names:
        value = params.get(name, _ABSENT)
        if value is None or (value is _ABSENT and name in row):
            return message  # null would read as the row's value
        if value is _ABSENT or (name in row and _same(value, row[name])):
            values.append(None)
        else:
            values.append(_pack_value(value, row))
    while values and values[-1] is None:
        values.pop()
    return {code: values}


def _pack_value(value: Any, row: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        return _pack_text(value, row)
    if isinstance(value, list):
        return [_pack_value(item, row) for item in value]
    return value


def pack(message: dict[str, Any] | None, *, seat: int | None, payload: Any) -> str | None:
    """`message` as the log entry with this seat and payload stores it."""
    if message is None:
        return None
    row = _row_values(seat, payload)
    parts = message.get("p", {}).get(_SENTENCES) if message.get("k") == _SENTENCES else None
    if (set(message) == {"k", "p"} and set(message["p"]) == {_SENTENCES}
            and isinstance(parts, list) and all(isinstance(part, dict) for part in parts)):
        stored: Any = [_pack_text(part, row) for part in parts]
    else:
        stored = _pack_text(message, row)
    return json.dumps(stored, ensure_ascii=False, separators=(",", ":"))


def _unpack_text(stored: Any, row: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(stored, dict) or "k" in stored:
        if not isinstance(stored, dict):
            raise ValueError(f"not a stored text: {stored!r}")
        return stored  # kept as the engine gave it
    if len(stored) != 1:
        raise ValueError(f"not a stored text: {stored!r}")
    (code, values), = stored.items()
    key, names = _by_code()[code]
    if not isinstance(values, list) or len(values) > len(names):
        raise ValueError(f"{code!r} has {len(names)} parameters, not {values!r}")
    params = {}
    for index, name in enumerate(names):
        value = values[index] if index < len(values) else None
        if value is not None:
            params[name] = _unpack_value(value, row)
        elif name in row:
            params[name] = row[name]
    return {"k": key, "p": params} if params else {"k": key}


def _unpack_value(value: Any, row: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        return _unpack_text(value, row)
    if isinstance(value, list):
        return [_unpack_value(item, row) for item in value]
    return value


def unpack(stored: str | None, *, seat: int | None, payload: Any) -> dict[str, Any] | None:
    """The engine's text back from what the entry with this seat and payload stores. Raises
    ValueError (or KeyError for a code that is not pinned) for what `pack` never wrote."""
    if stored is None:
        return None
    data = json.loads(stored)
    row = _row_values(seat, payload)
    if isinstance(data, list):
        return {"k": _SENTENCES, "p": {_SENTENCES: [_unpack_text(part, row) for part in data]}}
    return _unpack_text(data, row)


def literal(sentence: str) -> dict[str, Any]:
    """A sentence kept as it is (entries written before texts were stored)."""
    return {"k": "literal", "p": {"text": sentence}}


# ---- pinning ------------------------------------------------------------------------------------


def shipped_catalogs() -> list[Catalog]:
    from games.engines.registry import BUILTIN_ENGINE_MODULES

    catalogs = [importlib.import_module(path).engine.text_catalog
                for path in BUILTIN_ENGINE_MODULES]
    return [catalog for catalog in catalogs if catalog is not None]


def catalog_keys() -> dict[str, list[str]]:
    """Every key the shipped engines can write, with its parameter names: the shared ones,
    then each engine's in the registry's order."""
    keys = {key: key_parameters(template) for key, template in SHARED_MESSAGES.items()}
    for catalog in shipped_catalogs():
        for key, template in catalog.messages.items():
            keys[key] = key_parameters(template)
    return keys


CODE_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def codes():
    """"0" … "Z", "00" … "ZZ", "000" …: the codes in the order they are given out."""
    for length in itertools.count(1):
        for digits in itertools.product(CODE_DIGITS, repeat=length):
            yield "".join(digits)


def with_new_keys(table: dict[str, list], keys: dict[str, list[str]]) -> dict[str, list]:
    """`table` with each key it lacks pinned, in the order of `keys`, each with the first code
    no key has ("k" marks a text kept as it is)."""
    table = dict(table)
    taken = {code for code, _names in table.values()} | {"k"}
    free = (code for code in codes() if code not in taken)
    for key in (key for key in keys if key not in table):
        table[key] = [next(free), keys[key]]
    return table


def read_pinned(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def write_pinned(path: Path, table: dict[str, Any]) -> None:
    """One entry a line, so a new pin is a one-line diff."""
    lines = ",\n".join(f" {json.dumps(name)}: {json.dumps(entry, separators=(', ', ': '))}"
                       for name, entry in table.items())
    path.write_text("{\n" + lines + "\n}\n", encoding="utf-8")


def main() -> None:
    table = read_pinned(PINNED_PATH)
    updated = with_new_keys(table, catalog_keys())
    write_pinned(PINNED_PATH, updated)
    sys.stdout.write(f"{len(updated) - len(table)} key(s) pinned in {PINNED_PATH.name}\n")


if __name__ == "__main__":
    main()
