"""CORS for the API only, for the configured origins only, without credentials."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.clients import token_client
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ALLOWED = "https://client.example"


@pytest.fixture(autouse=True)
def allowed_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = [ALLOWED]


def preflight(path: str, origin: str):
    return APIClient().options(path, HTTP_ORIGIN=origin,
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
                               HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, "
                                                                  "content-type, idempotency-key")


def test_a_configured_origin_may_call_the_api_with_a_token():
    answer = preflight("/api/v1/games/1/actions/", ALLOWED)
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == ALLOWED
    allowed = answer["Access-Control-Allow-Headers"].lower()
    for header in ("authorization", "content-type", "idempotency-key", "if-none-match"):
        assert header in allowed
    assert "Access-Control-Allow-Credentials" not in answer  # tokens, never our cookies

    user = UserFactory()
    client = token_client(user)
    created = client.post("/api/v1/games/", {"engine": "toy", "num_players": 2},
                          format="json", HTTP_ORIGIN=ALLOWED)
    assert created.status_code == 201
    assert created["Access-Control-Allow-Origin"] == ALLOWED
    assert "etag" in created["Access-Control-Expose-Headers"].lower()


@pytest.mark.parametrize("origin", ["https://evil.example", "http://client.example",
                                    "https://client.example.evil.example"])
def test_other_origins_get_no_cors_headers(origin):
    answer = preflight("/api/v1/games/", origin)
    assert "Access-Control-Allow-Origin" not in answer
    got = APIClient().get("/api/v1/engines/", HTTP_ORIGIN=origin)
    assert got.status_code == 200 and "Access-Control-Allow-Origin" not in got


def test_pages_outside_the_api_are_never_shared():
    answer = APIClient().get("/", HTTP_ORIGIN=ALLOWED)
    assert "Access-Control-Allow-Origin" not in answer
