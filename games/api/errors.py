"""Every API error as JSON: {"code": machine-readable, "message": for people, "details": {}}."""

from __future__ import annotations

import logging
import sys

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext
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


def error_body(code: str, message: str, details=None) -> dict:
    return {"code": code, "message": message, "details": details or {}}


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for field, value in detail.items():
            text = _first_message(value)
            return text if field in ("non_field_errors", "detail") else f"{field}: {text}"
        return gettext("Invalid input.")
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else gettext("Invalid input.")
    return str(detail)


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
        body = error_body(code, _first_message(exc.detail), {"fields": exc.detail})
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
