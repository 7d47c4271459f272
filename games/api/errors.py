"""Every API error as JSON: {"code": machine-readable, "message": for people, "details": {}}."""

from __future__ import annotations

import logging
import sys

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext, gettext_lazy
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.api.parsers import RequestTooLarge
from games.exceptions import GameError

logger = logging.getLogger(__name__)

#: Seconds a client should wait before trying again while the database is unreachable.
RETRY_AFTER_SECONDS = 5

_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.ValidationError: "invalid",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    RequestTooLarge: "request_too_large",
}


#: Every `code` an API error can carry: the schema's ErrorCodeEnum (tests/api/test_conventions.py
#: checks that each code the project raises is here).
ERROR_CODES = (
    "bad_request", "malformed_request", "invalid", "invalid_query", "not_authenticated",
    "authentication_failed", "permission_denied", "insufficient_scope", "not_allowed",
    "not_found", "method_not_allowed", "not_acceptable", "unsupported_media_type",
    "request_too_large", "throttled", "too_many_login_attempts", "invalid_token_request",
    "idempotency_key_reused", "game_error", "invalid_game_setup", "lobby_error",
    "stale_version", "illegal_action", "game_not_running", "invalid_transition",
    "invalid_message", "invalid_report", "invalid_invitation", "engine_error", "undo_refused",
    "moderation_error", "invalid_queue", "invalid_orders", "your_move",
    "webhook_disabled", "database_unavailable", "server_error", "error",
)

#: The code of an error answer that carries no body of ours (a page from Django's machinery).
STATUS_CODES = {400: "bad_request", 403: "permission_denied", 404: "not_found",
                405: "method_not_allowed", 406: "not_acceptable", 413: "request_too_large",
                415: "unsupported_media_type", 429: "throttled", 503: "database_unavailable"}

#: `details.fields` key for what concerns the request as a whole (DRF's own name).
NON_FIELD = "non_field_errors"


def error_body(code: str, message: str, details=None) -> dict:
    return {"code": code, "message": message, "details": details or {}}


def field_errors(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's error detail in one shape, `{field: [messages]}`: a nested field is named by its
    path (`options.rounds`, `kinds.0`), messages about the whole body go under
    `non_field_errors`. DRF gives dicts of lists, dicts of strings or plain lists."""
    if isinstance(detail, dict):
        fields: dict[str, list[str]] = {}
        for name, value in detail.items():
            inner = prefix if name in (NON_FIELD, "detail") and prefix else (
                f"{prefix}.{name}" if prefix else str(name))
            for field, messages in field_errors(value, inner).items():
                fields.setdefault(field, []).extend(messages)
        return fields
    if isinstance(detail, (list, tuple)):
        if all(not isinstance(item, (dict, list, tuple)) for item in detail):
            return {prefix or NON_FIELD: [str(item) for item in detail]} if detail else {}
        fields = {}
        for index, item in enumerate(detail):
            # A list of objects (a ListField of dicts): each item named by its index.
            path = f"{prefix}.{index}" if prefix else str(index)
            for field, messages in field_errors(item, path).items():
                fields.setdefault(field, []).extend(messages)
        return fields
    return {prefix or NON_FIELD: [str(detail)]}


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for field, value in detail.items():
            text = _first_message(value)
            return text if field in ("non_field_errors", "detail") else f"{field}: {text}"
        return gettext("Invalid input.")
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else gettext("Invalid input.")
    return str(detail)


_STATUS_MESSAGES = {
    404: gettext_lazy("There is nothing at this address."),
    405: gettext_lazy("This method is not allowed here."),
    406: gettext_lazy("This address answers JSON only (Accept: application/json)."),
    413: RequestTooLarge.default_detail,
    415: gettext_lazy("Send the body as JSON (Content-Type: application/json)."),
}


def status_error_body(status_code: int) -> dict:
    """The body of an error answer that Django's machinery made without one of ours."""
    if status_code >= 500:
        return _server_error_body()
    message = _STATUS_MESSAGES.get(status_code) or gettext("The request could not be understood.")
    return error_body(STATUS_CODES.get(status_code, "bad_request"), str(message))


def _database_unavailable_body() -> dict:
    return error_body("database_unavailable",
                      gettext("The service cannot reach its database right now; nothing was "
                              "changed. Try again in a moment."),
                      {"retry_after_seconds": RETRY_AFTER_SECONDS})


def _server_error_body() -> dict:
    return error_body("server_error",
                      gettext("Something went wrong on our side; it has been logged."))


def exception_handler(exc, context):
    if isinstance(exc, GameError):
        # Every 429 says when to come back, in the header as well as in the body.
        wait = exc.details.get("retry_after_seconds") if exc.status == 429 else None
        headers = {"Retry-After": str(max(1, int(wait)))} if wait is not None else None
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status,
                        headers=headers)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge()
    response = drf_exception_handler(exc, context)
    if response is None:
        # Not an API error: still answer in JSON, never Django's HTML page.
        if isinstance(exc, (OperationalError, InterfaceError)):
            logger.error("Database unreachable during an API request: %s", exc)
            return Response(_database_unavailable_body(), status=503,
                            headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
        logger.error("Unhandled error in an API request", exc_info=exc)
        return Response(_server_error_body(), status=500)
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        body = error_body(code, _first_message(exc.detail), {"fields": field_errors(exc.detail)})
    else:
        body = error_body(code, _first_message(exc.detail))
    if isinstance(exc, exceptions.Throttled) and exc.wait:
        body["details"]["retry_after_seconds"] = int(exc.wait)
    response.data = body
    malformed = isinstance(exc, exceptions.ParseError)
    if response.status_code == status.HTTP_400_BAD_REQUEST and malformed:
        response.data["message"] = gettext("The request body is not valid JSON: %(problem)s") % {
            "problem": exc.detail}
    return response


# ---- Django's own error views: JSON under /api/, the HTML pages elsewhere --------------------


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request, exception):
    if _is_api(request):
        return JsonResponse(error_body("not_found", gettext("There is nothing at this address.")),
                            status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request, exception):
    if _is_api(request):
        return JsonResponse(error_body("bad_request",
                                       gettext("The request could not be understood.")),
                            status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if _is_api(request):
        return JsonResponse(error_body("permission_denied", gettext("You may not do that.")),
                            status=403)
    return defaults.permission_denied(request, exception)


def server_error(request):
    """Django calls this inside its `except` block, so the exception is still at hand: an
    unreachable database answers 503 with Retry-After, in JSON under /api/."""
    error = sys.exc_info()[1]
    database_down = isinstance(error, (OperationalError, InterfaceError)) or (
        isinstance(error, DatabaseError) and "connection" in str(error).lower()
    )
    if _is_api(request):
        if database_down:
            return JsonResponse(_database_unavailable_body(), status=503,
                                headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
        return JsonResponse(_server_error_body(), status=500)
    if database_down:
        response = defaults.server_error(request)
        response.status_code = 503
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return defaults.server_error(request)
