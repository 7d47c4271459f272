"""ASGI entry point: the site, and its event streams on a lighter path.

Event streams (`/api/v1/games/{id}/stream`, `/api/v1/stream/events`) stay open for hours.
Django's handler gives every request a thread of its own for its synchronous parts (request
signals, middleware hooks) that lives as long as the response: one parked thread per open
stream. So streams are served by a handler without middleware and without that per-request
thread (its few synchronous calls share one thread); the stream views check the host, the token
or the session cookie themselves (games/api/streams.py) and hold no thread while they wait.

Without middleware and Django's own error conversion (its HTML debug pages under DEBUG), every
error on a stream path is answered here as the API's JSON error body: a disallowed Host, a
method other than GET, a control character in the query, anything unexpected.
"""

import os
import re

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
site = get_asgi_application()

import logging  # noqa: E402
import sys  # noqa: E402

from asgiref.sync import sync_to_async  # noqa: E402
from django.core.exceptions import PermissionDenied, SuspiciousOperation  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402 - after Django is set up
from django.http import Http404, JsonResponse  # noqa: E402
from django.utils import translation  # noqa: E402
from django.utils.log import log_response  # noqa: E402
from django.utils.translation import gettext  # noqa: E402
from django_guid.middleware import guid_middleware  # noqa: E402
from rest_framework.exceptions import MethodNotAllowed  # noqa: E402

from config.request_checks import control_character_problem, refusal  # noqa: E402
from config.throttling import describe_budget  # noqa: E402
from games.api import errors  # noqa: E402

STREAM_PATHS = re.compile(r"^/api/v1/(games/[0-9]+/stream|stream/events)/?$")


def _refusal_before_the_view(request):
    """What middleware and the view's decorators would refuse, as JSON; None to go on."""
    request.get_host()  # raises DisallowedHost: answered below
    if request.method != "GET":  # the views' require_GET would answer without a body
        response = JsonResponse(errors.error_body(
            "method_not_allowed", str(MethodNotAllowed(request.method[:20]).detail)),
            status=405)
        response["Allow"] = "GET"
        return response
    problem = control_character_problem(request)
    return refusal(request, problem) if problem is not None else None


def _error_response(request, exc):
    """The JSON answer to an exception, logged as Django logs it (called in `except`)."""
    if isinstance(exc, Http404):
        return errors.page_not_found(request, exc)
    if isinstance(exc, PermissionDenied):
        return errors.permission_denied(request, exc)
    if isinstance(exc, SuspiciousOperation):
        response = errors.bad_request(request, exc)
        log_response(str(exc), exception=exc, request=request, response=response,
                     level="error",
                     logger=logging.getLogger(f"django.security.{type(exc).__name__}"))
        return response
    response = errors.server_error(request)
    log_response("Internal Server Error: %s", request.path, response=response,
                 request=request, exc_info=sys.exc_info())
    return response


def rate_limit_headers(get_response):
    """Every stream answer says the caller's rate limits, as the site's middleware does."""

    async def respond(request):
        response = await get_response(request)
        await sync_to_async(describe_budget, thread_sensitive=False)(request, response)
        return response

    return respond


def json_errors(get_response):
    async def respond(request):
        with translation.override(translation.get_language_from_request(request)):
            try:
                return _refusal_before_the_view(request) or await get_response(request)
            except Exception as exc:
                return _error_response(request, exc)

    return respond


class StreamHandler(ASGIHandler):
    async def __call__(self, scope, receive, send):
        await self.handle(scope, receive, send)

    def load_middleware(self, is_async=False):
        self._view_middleware, self._template_response_middleware = [], []
        self._exception_middleware = []
        # The site's first middleware too: every stream answer carries its X-Request-ID, and
        # its rate limits.
        self._middleware_chain = guid_middleware(
            rate_limit_headers(json_errors(self._get_response_async)))

    def create_request(self, scope, body_file):
        """A request Django cannot even build (a body too large, a path that is not UTF-8) is
        answered in JSON as well."""
        request, error = super().create_request(scope, body_file)
        if request is None:
            error = JsonResponse(errors.error_body(
                "bad_request", gettext("The request could not be understood.")),
                status=error.status_code)
        return request, error


streams = StreamHandler()


async def application(scope, receive, send):
    if scope["type"] == "http" and STREAM_PATHS.match(scope.get("path", "")):
        return await streams(scope, receive, send)
    return await site(scope, receive, send)
