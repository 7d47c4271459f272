"""The OpenAPI schema says what the API does: every operation lists the errors it can answer,
all with one `Error` component, the body every API error has ({code, message, details}), and
the response headers each answer carries (components/headers)."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from rest_framework import permissions, serializers

from games.api.errors import ERROR_CODES

ERROR_DESCRIPTIONS = {
    400: "The request does not match this schema: malformed, or a field of the wrong type or "
         "out of range (`details.fields` names them).",
    401: "No valid credentials: a missing, unknown, revoked or expired token.",
    403: "Not allowed: not your seat, a token without the needed scope "
         "(`insufficient_scope`, `details.required_scope` names it), or a sanction.",
    404: "There is no such object, or the caller may not see it (or no such page).",
    409: "The game moved on (`stale_version`) or is not in a state that allows this.",
    422: "The request matches this schema but the rules refuse it: an illegal action, a setup "
         "or an order the game does not offer, inviting oneself, reporting what is not there, "
         "or an Idempotency-Key reused with another request (`idempotency_key_reused`).",
    429: "Too many requests; the Retry-After header (and `details.retry_after_seconds`) say "
         "when to try again.",
}


class ErrorDetailsSerializer(serializers.Serializer):
    """Facts beside the message; each key only where it applies, others may come."""

    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="Invalid input (400 `invalid`): each field's messages, always a list. A nested "
                  "field is named by its path (`options.rounds`, `kinds.0`); what concerns the "
                  "whole body is under `non_field_errors`.")
    retry_after_seconds = serializers.IntegerField(
        required=False, help_text="429 and 503: when to try again (as the Retry-After header).")
    required_scope = serializers.CharField(
        required=False, help_text="`insufficient_scope`: the token scope the request needs.")
    version = serializers.IntegerField(
        required=False, help_text="`stale_version`: the game's version now.")


class ErrorSerializer(serializers.Serializer):
    """Every API error answers with this body."""

    code = serializers.ChoiceField(choices=ERROR_CODES,
                                   help_text="Machine-readable, e.g. `stale_version`.")
    message = serializers.CharField(help_text="A sentence for people, in the caller's language.")
    details = ErrorDetailsSerializer()


def _header(description: str, type_: str = "string") -> dict:
    return {"description": description, "schema": {"type": type_}}


#: The response headers, described once (components/headers) and referred to by each answer.
RESPONSE_HEADERS = {
    "X-Request-ID": _header("This request's id, in our logs too: quote it when reporting a "
                            "problem. A UUID the client sent in X-Request-ID is kept."),
    "RateLimit-Policy": _header("The limits that counted this request (IETF httpapi draft): "
                                "`\"user\";q=600;w=60` is 600 requests per 60 seconds."),
    "RateLimit": _header("What is left of each (IETF httpapi draft): `\"user\";r=599;t=60` is "
                         "599 more requests, the whole quota back in 60 seconds. A 304 costs "
                         "nothing."),
    "X-RateLimit-Limit": _header("The tightest limit's quota per window.", "integer"),
    "X-RateLimit-Remaining": _header("Requests left in it.", "integer"),
    "X-RateLimit-Reset": _header("When it is whole again, in UTC epoch seconds.", "integer"),
    "X-RateLimit-Resource": _header("Its name: `user`, `anon`, `chat` or `token`."),
    "Retry-After": _header("Seconds to wait before trying again.", "integer"),
    "ETag": _header("A validator of this answer: send it back in If-None-Match for a 304 while "
                    "nothing it shows has changed."),
    "Link": _header("RFC 8288 links to the `first`, `prev`, `next` and `last` pages."),
    "Location": _header("The address of what this request made."),
    "Idempotent-Replayed": _header("`true` when this answer repeats the first answer to the "
                                   "request's Idempotency-Key (nothing was done again)."),
}
EVERY_ANSWER = ("X-Request-ID", "RateLimit-Policy", "RateLimit", "X-RateLimit-Limit",
                "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Resource")


def _header_refs(names) -> dict:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


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
        if self._takes_idempotency_key():
            codes.add(422)  # the key reused with another request
        return codes | set(getattr(self.view, "schema_more_errors", ()))

    def _takes_idempotency_key(self) -> bool:
        return any(getattr(parameter, "name", None) == "Idempotency-Key"
                   for parameter in self.get_override_parameters())

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
                "headers": self._get_response_headers_for_code(str(code), direction),
            })
        return responses

    def _get_response_headers_for_code(self, status_code, direction="response"):
        names = list(EVERY_ANSWER)
        if status_code in ("429", "503"):
            names.append("Retry-After")
        elif status_code == "201":
            names.append("Location")
        if status_code.startswith("2") and self._takes_idempotency_key():
            names.append("Idempotent-Replayed")
        elif status_code in ("200", "304") and self.method == "GET":
            if not getattr(self.view, "streamed", False):  # no ETag on a streamed body
                names.append("ETag")
            if status_code == "200" and self._is_list_view() and self._get_paginator():
                names.append("Link")
        return {**_header_refs(names),
                **super()._get_response_headers_for_code(status_code, direction)}


def declare_response_headers(result, generator, request, public):
    """The headers the operations refer to, described once."""
    result.setdefault("components", {})["headers"] = RESPONSE_HEADERS
    return result


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
