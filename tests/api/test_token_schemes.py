"""API tokens sent as `Token <key>` or `Bearer <key>`; a bad token of either scheme is a 401
with a JSON error, never an anonymous request."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.clients import token_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def me(header: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    # Creating a game needs an authenticated user: an anonymous request would get 401/403
    # without a token error, an authenticated one gets past authentication.
    return client.post("/api/v1/games/", {"engine": "toy", "num_players": 2}, format="json")


@pytest.mark.parametrize("scheme", ["Token", "Bearer", "bearer", "TOKEN"])
def test_both_schemes_authenticate(scheme):
    user = UserFactory()
    response = me(f"{scheme} {token_of(user)}")
    assert response.status_code == 201, response.content
    assert response.json()["created_by"] == user.username


@pytest.mark.parametrize("header", [
    "Bearer not-a-token", "Token not-a-token", "Bearer", "Bearer two tokens",
    "Bearer t\u00f6ken",
])
def test_a_bad_token_of_either_scheme_is_401_not_anonymous(header):
    response = me(header)
    assert response.status_code == 401, response.content
    body = response.json()
    assert body["code"] and body["message"], body
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_anonymous_writes_are_told_to_authenticate_with_a_bearer_challenge():
    response = APIClient().post("/api/v1/games/", {"engine": "toy", "num_players": 2},
                                format="json")
    assert response.status_code == 401, response.content
    assert response["WWW-Authenticate"].startswith("Bearer")
