"""The API's one request parser: JSON only, bounded in size and in depth.

A body larger than API_MAX_BODY_BYTES is refused with 413 after reading at most one byte past the
limit; nesting deeper than API_MAX_JSON_DEPTH is refused with 400 (no action, option set or chat
message of this API comes near it, and deep nesting costs recursion in every later reader).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "request_too_large"


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def json_depth_exceeds(value, limit: int) -> bool:
    """True when containers nest deeper than `limit` (iterative: no recursion to exhaust)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.API_MAX_BODY_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge(gettext("The request body is larger than %(limit)s bytes.")
                                      % {"limit": limit})
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError(gettext("JSON nested too deeply.")) from None
        except (ValueError, UnicodeDecodeError) as error:
            raise ParseError(gettext("JSON parse error - %(error)s") % {"error": error}) from None
        if json_depth_exceeds(data, settings.API_MAX_JSON_DEPTH):
            raise ParseError(
                gettext("JSON nested deeper than %(settings_api_max_json_depth)s levels.")
                    % {"settings_api_max_json_depth": settings.API_MAX_JSON_DEPTH}
            )
        return data
