"""API clients signed in the way third-party clients sign in: a token from /api/v1/auth/token/."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.factories import PASSWORD, confirm_email


def token_of(user) -> str:
    confirm_email(user)
    response = APIClient().post("/api/v1/auth/token/",
                                {"username": user.username, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


def token_client(user, scheme: str = "Bearer") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {token_of(user)}")
    return client
