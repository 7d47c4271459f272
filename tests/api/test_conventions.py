"""The API's conventions a client author relies on: one error shape in every settings mode, the
rate limits on every answer (a 304 free), Link pages with an empty page past the end, and
X-Request-ID on every answer and in the logs."""

from __future__ import annotations

import logging
import re
import uuid

import pytest
from rest_framework.test import APIClient

from games.api.errors import ERROR_CODES, field_errors
from tests.api.clients import token_client
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def _json_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["code"] == code and body["message"] and isinstance(body["details"], dict)
    assert body["code"] in ERROR_CODES
    return body


# ---- one error shape ------------------------------------------------------------------------


@pytest.mark.parametrize("debug", [True, False], ids=["DEBUG", "production"])
@pytest.mark.parametrize(("method", "path", "extra", "status", "code"), [
    ("get", "/api/no-such-thing/", {}, 404, "not_found"),
    ("get", "/api/v1/no-such-thing/", {}, 404, "not_found"),
    ("get", "/api/v1/games/abc/", {}, 404, "not_found"),
    ("delete", "/api/v1/engines/", {}, 405, "method_not_allowed"),
    ("post", "/api/v1/games/1/stream/", {}, 405, "method_not_allowed"),
    ("get", "/api/v1/engines/", {"HTTP_ACCEPT": "application/xml"}, 406, "not_acceptable"),
    ("post", "/api/v1/auth/token/",
     {"data": "username=a", "content_type": "application/x-www-form-urlencoded"},
     415, "unsupported_media_type"),
])
def test_every_error_under_api_is_json_in_every_settings_mode(settings, debug, method, path,
                                                               extra, status, code):
    settings.DEBUG = debug  # `make run` has DEBUG on: Django's own pages are HTML there
    _json_error(getattr(APIClient(), method)(path, **extra), status, code)


def test_a_body_over_the_limit_is_json_with_debug_on(settings):
    settings.DEBUG = True
    settings.API_MAX_BODY_BYTES = 100
    user = UserFactory()
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/v1/games/", '{"engine": "' + "x" * 500 + '"}',
                           content_type="application/json")
    _json_error(response, 413, "request_too_large")


def test_a_browser_asking_for_html_gets_json_errors():
    response = APIClient().delete("/api/v1/engines/", HTTP_ACCEPT="text/html")
    _json_error(response, 405, "method_not_allowed")


@pytest.mark.parametrize(("detail", "fields"), [
    ({"status": ["Bad."]}, {"status": ["Bad."]}),
    ({"status": "Bad."}, {"status": ["Bad."]}),
    (["Bad."], {"non_field_errors": ["Bad."]}),
    ({"options": {"rounds": ["Too many."]}}, {"options.rounds": ["Too many."]}),
    ({"kinds": {2: ["Not a kind."]}}, {"kinds.2": ["Not a kind."]}),
    ({"options": {"non_field_errors": ["Unknown."]}}, {"options": ["Unknown."]}),
])
def test_field_errors_have_one_shape(detail, fields):
    assert field_errors(detail) == fields


def test_invalid_fields_answer_lists_of_messages():
    user = UserFactory()
    client = APIClient()
    client.force_authenticate(user)
    # A dict of strings (a query check), a list (a body that is not an object), a nested field.
    listing = _json_error(client.get("/api/v1/games/?status=nope"), 400, "invalid")
    assert listing["details"]["fields"] == {"status": [listing["message"].split(": ", 1)[1]]}
    not_an_object = _json_error(client.post("/api/v1/games/", [1, 2], format="json"), 400,
                                "invalid")
    assert list(not_an_object["details"]["fields"]) == ["non_field_errors"]
    for body in (listing, not_an_object):
        for messages in body["details"]["fields"].values():
            assert isinstance(messages, list) and all(isinstance(m, str) for m in messages)


def test_the_error_code_is_an_enum_in_the_schema():
    schema = APIClient().get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    error = components["Error"]["properties"]
    code = components[error["code"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert set(code["enum"]) == set(ERROR_CODES)
    details = components[error["details"]["$ref"].rsplit("/", 1)[1]]
    assert details["properties"]["fields"]["additionalProperties"]["type"] == "array"


def test_the_response_headers_are_documented_where_they_are_sent():
    schema = APIClient().get("/api/schema/?format=json").json()
    headers, paths = schema["components"]["headers"], schema["paths"]

    def named(path, method, status):
        refs = paths[path][method]["responses"][status].get("headers", {})
        assert all(ref["$ref"].rsplit("/", 1)[1] in headers for ref in refs.values())
        return set(refs)

    every = {"X-Request-ID", "RateLimit-Policy", "RateLimit", "X-RateLimit-Remaining"}
    for path, item in paths.items():
        for method, operation in item.items():
            # The event streams too (served outside the middleware: config/asgi.py).
            for status in operation.get("responses", {}):
                assert every <= named(path, method, status), (method, path, status)
    assert "Link" in named("/api/v1/me/games", "get", "200")
    assert "ETag" in named("/api/v1/games/{id}", "get", "200")
    assert "Retry-After" in named("/api/v1/games", "post", "429")
    for path in ("/api/v1/games", "/api/v1/tokens", "/api/v1/me/webhooks", "/api/v1/reports",
                 "/api/v1/games/{id}/chat"):
        assert {"Location", "Idempotent-Replayed"} <= named(path, "post", "201"), path
        assert "422" in paths[path]["post"]["responses"], path


def test_every_code_the_project_raises_is_in_the_enum():
    """Every GameError (and DRF-side refusal) of the loaded apps names a listed code."""
    from django.apps import apps  # noqa: F401 - the apps (and their exceptions) are loaded

    import accounts.api.views  # noqa: F401
    import games.services  # noqa: F401
    import notifications.api  # noqa: F401
    from games.exceptions import GameError

    pending, seen = [GameError], set()
    while pending:
        cls = pending.pop()
        seen.add(cls.code)
        pending.extend(cls.__subclasses__())
    assert seen <= set(ERROR_CODES), seen - set(ERROR_CODES)


# ---- limits a client can see ------------------------------------------------------------------


def _remaining(response) -> int:
    policy = response["RateLimit-Policy"]
    assert re.fullmatch(r'"user";q=\d+;w=\d+', policy), policy
    match = re.fullmatch(r'"user";r=(\d+);t=(\d+)', response["RateLimit"])
    assert match, response["RateLimit"]
    assert int(response["X-RateLimit-Remaining"]) == int(match[1])
    assert int(response["X-RateLimit-Limit"]) == int(policy.split("q=")[1].split(";")[0])
    assert int(response["X-RateLimit-Reset"]) > 1_700_000_000
    return int(match[1])


def test_every_answer_says_what_is_left_and_a_304_costs_nothing():
    game, users = started_game(2)
    client = token_client(users[0])
    url = f"/api/v1/games/{game.pk}/"
    first = client.get(url)
    left = _remaining(first)
    for _ in range(3):  # revalidating: each 304 is given back its request
        unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert unchanged.status_code == 304
        assert _remaining(unchanged) == left
    assert _remaining(client.get(url)) == left - 1
    # An answer refused before the throttles ran (no such game: 404) says it too.
    assert _remaining(client.get("/api/v1/games/999999999/")) == left - 2


def test_the_anonymous_limit_is_shown_and_a_304_of_any_answer_is_free():
    client = APIClient()
    response = client.get("/api/v1/engines/")
    assert response["RateLimit-Policy"].startswith('"anon";q=')
    assert response["X-RateLimit-Resource"] == "anon"
    left = int(response["X-RateLimit-Remaining"])
    # The ETag every other GET answer has (ConditionalGetMiddleware): its 304 is free too.
    unchanged = client.get("/api/v1/engines/", HTTP_IF_NONE_MATCH=response["ETag"])
    assert unchanged.status_code == 304
    assert int(unchanged["X-RateLimit-Remaining"]) == left
    assert int(client.get("/api/v1/engines/")["X-RateLimit-Remaining"]) == left - 1


# ---- pages ------------------------------------------------------------------------------------


def _links(response) -> dict[str, str]:
    return {rel: url for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', response["Link"])}


def test_lists_carry_link_headers_and_a_page_past_the_end_is_empty():
    from games import services

    user = UserFactory()
    for _ in range(3):
        services.game_create(creator=user, engine_slug="toy", num_players=2)
    client = token_client(user)
    first = client.get("/api/v1/me/games/?page_size=2")
    assert first.status_code == 200
    links = _links(first)
    assert set(links) == {"first", "next", "last"}
    assert "page=2" in links["next"] and links["last"] == links["next"]
    second = client.get(links["next"])
    assert set(_links(second)) == {"first", "prev", "last"}
    assert len(second.json()["results"]) == 1
    beyond = client.get("/api/v1/me/games/?page_size=2&page=7")
    assert beyond.status_code == 200
    assert beyond.json()["results"] == [] and beyond.json()["count"] == 3
    assert _links(beyond)["prev"] == links["last"]
    _json_error(client.get("/api/v1/me/games/?page=zero"), 400, "invalid")


# ---- request ids ------------------------------------------------------------------------------


class _Lines(logging.Handler):
    """The log lines as the console handler formats them (settings.LOGGING)."""

    def __init__(self):
        from django.conf import settings

        super().__init__()
        self.lines: list[str] = []
        console = settings.LOGGING["handlers"]["console"]
        formatter = settings.LOGGING["formatters"][console["formatter"]]["format"]
        self.setFormatter(logging.Formatter(formatter))
        for name in console["filters"]:
            factory = settings.LOGGING["filters"][name]["()"]
            module, _, attribute = factory.rpartition(".")
            self.addFilter(getattr(__import__(module, fromlist=[attribute]), attribute)())

    def emit(self, record):
        self.lines.append(self.format(record))


def test_every_answer_has_a_request_id_that_the_logs_name():
    made = APIClient().get("/api/v1/games/999999999/")
    assert uuid.UUID(made["X-Request-ID"])
    mine = str(uuid.uuid4())
    lines, logger = _Lines(), logging.getLogger("django.request")
    logger.addHandler(lines)
    try:
        answered = APIClient().get("/api/v1/no-such-thing/", HTTP_X_REQUEST_ID=mine)
    finally:
        logger.removeHandler(lines)
    assert answered["X-Request-ID"] == mine
    assert any(mine in line and "no-such-thing" in line for line in lines.lines), lines.lines
    # Not a UUID: replaced (a client cannot put arbitrary text into our logs).
    odd = APIClient().get("/api/v1/engines/", HTTP_X_REQUEST_ID="x\r\ninjected")
    assert uuid.UUID(odd["X-Request-ID"])
