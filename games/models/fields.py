"""Model fields of the games app."""

from __future__ import annotations

import json
from typing import Any

from django.db import models

from games.log import payloads


class CompactJSONField(models.TextField):
    """JSON kept as its shortest text (no spaces, UTF-8 as it is) in a text column: for rows
    written by the hundred per game and never queried by their content, where PostgreSQL's
    jsonb costs a third more. None is SQL NULL; any other JSON value round-trips."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(value)

    def to_python(self, value):
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                return value
        return value

    def get_prep_value(self, value: Any):
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def value_to_string(self, obj) -> str | None:
        return self.get_prep_value(self.value_from_object(obj))


class ActionPayloadField(CompactJSONField):
    """An action log payload, in the short form of games.logpayloads; reads back as the
    action itself."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else payloads.unpack(json.loads(value))

    def to_python(self, value):
        # A string is the stored text (value_to_string, a fixture); anything else the payload.
        return payloads.unpack(super().to_python(value)) if isinstance(value, str) else value

    def get_prep_value(self, value: Any):
        return None if value is None else super().get_prep_value(payloads.pack(value))
