"""Small builders for the JSON Schemas (draft 2020-12) engines publish of their actions and
views (GET /api/v1/engines/{slug}/). Stdlib only, like every engine module."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
INT: Schema = {"type": "integer"}
COUNT: Schema = {"type": "integer", "minimum": 0}
STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
NULL: Schema = {"type": "null"}
OBJECT: Schema = {"type": "object"}
ANY_LIST: Schema = {"type": "array"}


def enum(values) -> Schema:
    return {"enum": list(values)}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, NULL]}


def array(items: Schema, **limits: int) -> Schema:
    return {"type": "array", "items": items, **{
        {"min": "minItems", "max": "maxItems"}[key]: value for key, value in limits.items()}}


def obj(properties: dict[str, Schema], *, optional: tuple[str, ...] = (),
        closed: bool = True) -> Schema:
    """An object with these properties, all required but `optional`; no others when closed."""
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional],
            "additionalProperties": not closed}


def counts(names) -> Schema:
    """An object mapping some of `names` to counts (a payment, a choice of goods)."""
    return {"type": "object", "properties": {name: COUNT for name in names},
            "additionalProperties": False}


def action(kind: str, **properties: Schema) -> Schema:
    """One kind of action: {"type": kind, ...properties}, nothing else."""
    schema = obj({"type": {"const": kind}, **properties})
    schema["title"] = kind
    return schema


def actions(title: str, *kinds: Schema) -> Schema:
    return {"$schema": DIALECT, "title": title, "oneOf": list(kinds)}


def view(title: str, properties: dict[str, Schema], *, optional: tuple[str, ...] = ()) -> Schema:
    return {"$schema": DIALECT, "title": title, **obj(properties, optional=optional)}
