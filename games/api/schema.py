"""The OpenAPI schema says what the API does: every operation lists the errors it can answer,
all with one `Error` component, the body every API error has ({code, message, details})."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from rest_framework import permissions, serializers

ERROR_DESCRIPTIONS = {
    400: "The request is malformed or a field is invalid (`details.fields` names them).",
    401: "No valid credentials: a missing, unknown, revoked or expired token.",
    403: "Not allowed: not your seat, a token without the needed scope "
         "(`insufficient_scope`, `details.required_scope` names it), or a sanction.",
    404: "There is no such object, or the caller may not see it (or no such page).",
    409: "The game moved on (`stale_version`) or is not in a state that allows this.",
    422: "Well-formed but refused: an illegal action, or an Idempotency-Key reused "
         "with another body.",
    429: "Too many requests; the Retry-After header (and `details.retry_after_seconds`) say "
         "when to try again.",
}


class ErrorSerializer(serializers.Serializer):
    """Every API error answers with this body."""

    code = serializers.CharField(help_text="Machine-readable, e.g. `stale_version`.")
    message = serializers.CharField(help_text="A sentence for people.")
    details = serializers.DictField(
        help_text="More facts: `fields` for invalid input, `retry_after_seconds` for 429, "
                  "`required_scope` for `insufficient_scope`.")


class ErrorDocumentingSchema(AutoSchema):
    """AutoSchema plus the error responses each operation can give.

    A view names its actions that can answer 409 (writes that depend on the game's state) in
    `schema_conflicts`, and those that can refuse a well-formed body with 422 in
    `schema_unprocessable`; `schema_more_errors` adds codes to every operation of a view."""

    def _error_codes(self) -> set[int]:
        codes = {429}
        method = self.method
        if method in ("POST", "PUT", "PATCH") or self._get_parameters():
            codes.add(400)
        if self.view.get_authenticators():
            codes.add(401)
            if not all(isinstance(permission, permissions.AllowAny)
                       for permission in self.view.get_permissions()):
                codes.add(403)
        if "{" in self.path or (method == "GET" and self._is_list_view()
                                and self._get_paginator() is not None):
            codes.add(404)  # the object, or a page past the end
        action = getattr(self.view, "action", None)
        if method == "POST" and action in getattr(self.view, "schema_conflicts", ()):
            codes.add(409)
        if method == "POST" and action in getattr(self.view, "schema_unprocessable", ()):
            codes.add(422)
        return codes | set(getattr(self.view, "schema_more_errors", ()))

    def _resolve_path_parameters(self, variables):
        # Ids in paths are digits (lookup_value_regex): say integer, so clients take numbers.
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            if parameter["schema"].get("pattern") == "^[0-9]+$":
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        error = self.resolve_serializer(ErrorSerializer, "response")
        for code in sorted(self._error_codes()):
            responses.setdefault(str(code), {
                "description": ERROR_DESCRIPTIONS[code],
                "content": {"application/json": {"schema": error.ref}},
            })
        return responses


def declare_nullable_types(result, generator, request, public):
    """The schema is OpenAPI 3.1 (SPECTACULAR_SETTINGS["OAS_VERSION"]), where a field that may be
    null says so in its type: `type: [string, "null"]`, or `oneOf: [{$ref}, {type: "null"}]` for
    an object (what drf-spectacular writes, and what openapi-python-client and
    openapi-typescript turn into `Model | None`; 3.0's `allOf` + `nullable` made the Python
    client crash on null). Schemas written by hand in 3.0's words (the pagination's
    `next`/`previous`) are put in 3.1's here."""

    def visit(node):
        if isinstance(node, dict):
            if node.pop("nullable", False):
                kind = node.get("type")
                if isinstance(kind, str):
                    node["type"] = [kind, "null"]
                elif isinstance(kind, list) and "null" not in kind:
                    kind.append("null")
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(result)
    return result


def paths_without_trailing_slash(result, generator, request, public):
    """The schema names each path without its final "/" (both forms are served:
    games.api.middleware), as OpenAPI tools expect."""
    result["paths"] = {path.rstrip("/") if path.startswith("/api/v1/") else path: item
                       for path, item in result["paths"].items()}
    return result
