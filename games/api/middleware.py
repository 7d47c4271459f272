"""`/api/v1/games/1/actions` and `/api/v1/games/1/actions/` are one resource.

The API's routes end in "/" (Django's convention, and the paths clients have called since v1
began); the OpenAPI schema names them without it, as OpenAPI tools expect (Redocly's
no-path-trailing-slash). A path under /api/v1/ without the final slash is served as the slashed
one, in place: no redirect, which would turn a POST into a GET in many clients."""

from __future__ import annotations

from django.http import JsonResponse

from games.api import errors

API_PREFIX = "/api/v1/"


class ApiTrailingSlashMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info.startswith(API_PREFIX) and not request.path_info.endswith("/"):
            request.path_info += "/"
            request.path += "/"
        return self.get_response(request)


class ApiJsonErrorsMiddleware:
    """Every error answer under /api/ is the API's JSON body, whichever part of Django made it
    and in every settings mode: the DEBUG pages (technical 404 and 500), a view's bare 405, an
    error DRF rendered as the browsable page for an `Accept: text/html` client. Outside the
    project's own error views (games.api.errors), this is the last line."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.status_code < 400 or not request.path.startswith("/api/")
                or response.get("Content-Type", "").startswith("application/json")):
            return response
        body = getattr(response, "data", None)
        if not (isinstance(body, dict) and {"code", "message", "details"} <= body.keys()):
            body = errors.status_error_body(response.status_code)
        answer = JsonResponse(body, status=response.status_code)
        for header in ("Allow", "Retry-After", "WWW-Authenticate", "Vary"):
            if header in response:
                answer[header] = response[header]
        return answer
