"""A control character in any query parameter is a clear 400, signed in or not, on the API and
on pages (`GET /api/v1/games/?player=a%00b` was a 500: PostgreSQL refuses a NUL in text)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.mark.parametrize("query", ["player=a%00b", "status=%01", "engine=stone%7Fage",
                                   "page=1&ordering=a%0Ab", "a%00=1"])
def test_api_lists_refuse_control_characters_with_json_400(query):
    started_game(2)
    response = APIClient().get(f"/api/v1/games/?{query}")
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == "invalid_query" and "control character" in body["message"]


def test_signed_in_callers_get_the_same_400():
    _, users = started_game(2)
    client = APIClient()
    client.force_authenticate(users[0])
    response = client.get("/api/v1/games/?player=a%00b")
    assert response.status_code == 400 and response.json()["code"] == "invalid_query"


@pytest.mark.parametrize("path", ["/games/?player=a%00b", "/players/?q=%00", "/?next=%1b"])
def test_pages_refuse_control_characters_with_400(path):
    response = Client().get(path)
    assert response.status_code == 400
    assert b"control character" in response.content


@pytest.mark.parametrize("query", ["engine=toy", "q=%E4%BD%A0%E5%A5%BD", "engine=toy&page=1"])
def test_ordinary_queries_still_pass(query):
    started_game(2)
    response = APIClient().get(f"/api/v1/games/?{query}")
    assert response.status_code == 200, response.content[:300]
    assert response.json()["results"]

