"""OAuth apps (accounts.oauth): registered on the settings pages, their tokens held to the scopes
the player granted exactly as personal tokens are, the token check (GET /api/v1/token/), and the
consent page in every language. The whole flow with a real OAuth client against a live server:
tests/live/test_oauth_flow.py."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model
from rest_framework.test import APIClient

from accounts.oauth import application_register, authorization_revoke, new_access_token
from accounts.tokens import token_create
from games.api.stream_access import access_of, lost_access
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def app_of(owner=None):
    return application_register(user=owner or UserFactory(), name="Board bot",
                                redirect_uris="http://127.0.0.1/callback",
                                confidential=False)[0]


def oauth_token(user, scope: str, *, app=None, expires_in=timedelta(hours=1)):
    """An access token as the token endpoint issues it (the live test goes through it)."""
    raw = new_access_token(None)
    token = get_access_token_model()(user=user, application=app or app_of(), scope=scope,
                                     expires=timezone.now() + expires_in)
    token.token = raw
    token.save()
    return token, raw


def bearer(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def test_an_app_token_holds_only_its_scopes_as_a_personal_token_does():
    game, (player, _) = started_game(2)
    _, raw = oauth_token(player, "read")
    client = bearer(raw)
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 200
    for method, path, body in [
            ("post", f"/api/v1/games/{game.pk}/actions/", {"action": {}, "version": 0}),
            ("post", "/api/v1/tokens/", {"name": "x", "scopes": ["read"]}),
            ("get", "/api/v1/tokens/", None),
            ("patch", "/api/v1/me/", {"timezone": "UTC"})]:
        answer = getattr(client, method)(path, body, format="json")
        assert answer.status_code == 403, (path, answer.content)
        assert answer.json()["code"] == "insufficient_scope"


def test_an_app_token_with_manage_makes_tokens_within_its_own_scopes_and_lifetime():
    player = UserFactory()
    token, raw = oauth_token(player, "read manage")
    client = bearer(raw)
    wider = client.post("/api/v1/tokens/", {"name": "x", "scopes": ["read", "play"]},
                        format="json")
    assert wider.status_code == 403 and wider.json()["details"]["required_scope"] == "play"
    made = client.post("/api/v1/tokens/", {"name": "x", "scopes": ["read"]}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["expires_at"] is not None
    assert abs((timezone.datetime.fromisoformat(made.json()["expires_at"])
                - token.expires).total_seconds()) < 1


@pytest.mark.parametrize("expires_in", [timedelta(seconds=-1)])
def test_an_expired_or_revoked_app_token_is_a_401_never_anonymous(expires_in):
    player = UserFactory()
    _, expired = oauth_token(player, "read", expires_in=expires_in)
    answer = bearer(expired).get("/api/v1/engines/")
    assert answer.status_code == 401 and "expired" in answer.json()["message"]
    token, raw = oauth_token(player, "read")
    authorization_revoke(user=player, application_id=token.application_id)
    assert bearer(raw).get("/api/v1/engines/").status_code == 401
    assert bearer("tpo_unknown").get("/api/v1/engines/").status_code == 401


def test_the_token_check_tells_user_scopes_expiry_and_app():
    player = UserFactory()
    token, raw = oauth_token(player, "play read")
    info = bearer(raw).get("/api/v1/token/")
    assert info.status_code == 200, info.content
    body = info.json()
    assert body["kind"] == "oauth" and body["user_id"] == player.pk
    assert body["username"] == player.username and body["scopes"] == ["read", "play"]
    assert body["application"] == "Board bot" and body["client_id"] == token.application.client_id
    assert timezone.datetime.fromisoformat(body["expires_at"]) == token.expires
    _, personal = token_create(user=player, name="bot", scopes=["chat"], via="test")
    body = bearer(personal).get("/api/v1/token/").json()
    assert (body["kind"], body["scopes"], body["expires_at"], body["application"]) == (
        "personal", ["chat"], None, None)
    session = APIClient()
    session.force_login(player)
    assert session.get("/api/v1/token/").json()["kind"] == "session"
    anonymous = APIClient().get("/api/v1/token/")
    assert anonymous.status_code == 401


def test_a_stream_opened_with_an_app_token_closes_when_the_player_takes_access_back():
    player = UserFactory()
    token, _ = oauth_token(player, "read")
    access = access_of(None, player, token)
    assert lost_access([access]) == {}
    authorization_revoke(user=player, application_id=token.application_id)
    assert lost_access([access]) == {0: "token_revoked"}


def test_apps_are_registered_listed_and_deleted_on_the_settings_pages():
    player = UserFactory()
    page = Client()
    page.force_login(player)
    refused = page.post("/settings/apps/", {"name": "Bot", "redirect_uris": "ftp://x/cb"})
    assert refused.status_code == 200 and not get_application_model().objects.exists()
    # Plain http only back to the player's own machine: anywhere else the code is readable.
    for uri in ("http://apps.example.org/cb", "http://127.0.0.1.example.org/cb"):
        plain = page.post("/settings/apps/", {"name": "Bot", "redirect_uris": uri})
        assert plain.status_code == 200 and b"must be https" in plain.content
    assert not get_application_model().objects.exists()
    made = page.post("/settings/apps/", {"name": "Bot", "redirect_uris":
                                         "http://127.0.0.1/callback", "confidential": "on"})
    app = get_application_model().objects.get()
    assert (app.user, app.client_type, app.authorization_grant_type) == (
        player, "confidential", "authorization-code")
    secret = re.search(r'<code style="word-break: break-all">([^<]+)</code>',
                       made.content.decode()).group(1)
    assert len(secret) > 40 and secret not in app.client_secret  # shown once, stored hashed
    assert app.client_id in page.get("/settings/apps/").content.decode()
    other = Client()
    other.force_login(UserFactory())
    other.post(f"/settings/apps/{app.pk}/delete/")
    assert get_application_model().objects.filter(pk=app.pk).exists()
    page.post(f"/settings/apps/{app.pk}/delete/")
    assert not get_application_model().objects.filter(pk=app.pk).exists()


@pytest.mark.parametrize("language, allow", [("en", "Allow"), ("fa", "اجازه"),
                                              ("zh-hans", "允许"), ("it", "Consenti")])
def test_the_consent_page_speaks_the_players_language(language, allow):
    app = app_of()
    player = UserFactory(language=language)
    page = Client()
    page.force_login(player)
    answer = page.get("/oauth/authorize/", {
        "response_type": "code", "client_id": app.client_id, "scope": "read play",
        "redirect_uri": "http://127.0.0.1/callback", "code_challenge": "x" * 43,
        "code_challenge_method": "S256", "state": "s"})
    assert answer.status_code == 200, answer.content
    html = answer.content.decode()
    assert "Board bot" in html and allow in html
