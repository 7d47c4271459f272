"""`/api/v1/games/1/actions` and `/api/v1/games/1/actions/` are one resource.

The API's routes end in "/" (Django's convention, and the paths clients have called since v1
began); the OpenAPI schema names them without it, as OpenAPI tools expect (Redocly's
no-path-trailing-slash). A path under /api/v1/ without the final slash is served as the slashed
one, in place: no redirect, which would turn a POST into a GET in many clients."""

from __future__ import annotations

API_PREFIX = "/api/v1/"


class ApiTrailingSlashMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info.startswith(API_PREFIX) and not request.path_info.endswith("/"):
            request.path_info += "/"
            request.path += "/"
        return self.get_response(request)
