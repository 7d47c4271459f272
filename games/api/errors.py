"""Every API error as JSON: {"code": machine-readable, "message": for people, "details": {}}."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.exceptions import GameError

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
}


def error_body(code: str, message: str, details=None) -> dict:
    return {"code": code, "message": message, "details": details or {}}


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for field, value in detail.items():
            text = _first_message(value)
            return text if field in ("non_field_errors", "detail") else f"{field}: {text}"
        return "Invalid input."
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "Invalid input."
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, GameError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
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
        response.data["message"] = f"The request body is not valid JSON: {exc.detail}"
    return response
