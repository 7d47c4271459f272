"""Refuses a request whose query string carries control characters (`?player=a%00b`).

No form field, name, id or search term of this site holds one, and PostgreSQL refuses a NUL in
a text parameter (a database error, a 500 where the mistake is the caller's). Checked once here
for every path, pages and API alike, instead of in each view and serializer: a clear 400 (JSON
under /api/, the error page elsewhere) before any view runs. The event streams, served without
middleware (config/asgi.py), call `control_character_problem` themselves.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext

#: C0 controls and DEL (tab and newline included: no query value here is multi-line text).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def control_character_problem(request: HttpRequest) -> str | None:
    """Why the request's query string is refused, naming the parameter, or None if it is not.
    Decoded as Django decodes it (percent escapes and "+"), names and values alike."""
    raw = request.META.get("QUERY_STRING", "")
    if not raw:
        return None
    for name, value in parse_qsl(raw, keep_blank_values=True, encoding="utf-8",
                                 errors="replace"):
        if CONTROL_CHARACTERS.search(name) or CONTROL_CHARACTERS.search(value):
            shown = CONTROL_CHARACTERS.sub("?", name)[:40]
            return gettext("The query parameter “%(name)s” holds a control character "
                           "(such as %%00); no parameter takes one.") % {"name": shown}
    return None


def refusal(request: HttpRequest, message: str) -> HttpResponse:
    """The 400 for `message`: the API's JSON error body under /api/, a plain page elsewhere."""
    if request.path.startswith("/api/"):
        from games.api.errors import error_body

        return JsonResponse(error_body("invalid_query", message), status=400)
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class RefuseControlCharactersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = control_character_problem(request)
        if problem is not None:
            return refusal(request, problem)
        return self.get_response(request)
