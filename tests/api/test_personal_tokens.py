"""Personal access tokens: made, listed and revoked through the API and the account page;
scopes enforced; stored as digests only; every creation and revocation audited; a revoked,
expired or unknown token is a 401, never an anonymous request."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import PersonalAccessToken, TokenEvent
from accounts.tokens import token_create
from games import selectors
from tests.api.clients import token_client
from tests.factories import PASSWORD, UserFactory, confirm_email, started_game

pytestmark = pytest.mark.django_db


def bearer(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def make(user, scopes, **extra) -> str:
    return token_create(user=user, name="test", scopes=scopes, via="test", **extra)[1]


def test_a_token_is_made_shown_once_listed_and_stored_as_a_digest_only():
    user = UserFactory()
    session = APIClient()
    session.force_login(user)
    made = session.post("/api/v1/tokens/", {"name": "my bot", "scopes": ["read", "play"],
                                            "expires_in_days": 30}, format="json")
    assert made.status_code == 201, made.content
    raw = made.json()["token"]
    assert raw.startswith("tp_") and len(raw) > 40
    stored = PersonalAccessToken.objects.get(pk=made.json()["id"])
    assert stored.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in {str(value) for value in stored.__dict__.values()}
    assert stored.expires_at > timezone.now() + timedelta(days=29)
    listed = session.get("/api/v1/tokens/").json()
    assert [(t["name"], t["scopes"], t["revoked"]) for t in listed] == [
        ("my bot", ["read", "play"], False)]
    assert "token" not in listed[0] and listed[0]["last_used_at"] is None
    assert bearer(raw).get("/api/v1/me/").json()["username"] == user.username
    assert session.get("/api/v1/tokens/").json()[0]["last_used_at"] is not None
    event = TokenEvent.objects.get(token=stored)
    assert (event.kind, event.via) == ("created", "api")


def test_scopes_are_enforced():
    game, users = started_game(3, engine="seven_wonders", seed="scopes")
    alice = users[0]
    reader = bearer(make(alice, ["read"]))
    assert reader.get(f"/api/v1/games/{game.pk}/actions/").status_code == 200
    legal = selectors.legal_actions_for(game, alice)
    move = reader.post(f"/api/v1/games/{game.pk}/actions/",
                       {"action": legal[0]["action"], "version": game.version}, format="json")
    assert move.status_code == 403
    assert move.json()["code"] == "insufficient_scope"
    assert move.json()["details"] == {"required_scope": "play"}
    chat = reader.post(f"/api/v1/games/{game.pk}/chat/", {"body": "hi"}, format="json")
    assert (chat.status_code, chat.json()["details"]) == (403, {"required_scope": "chat"})
    player = bearer(make(alice, ["play"]))
    assert player.get("/api/v1/me/").status_code == 403  # reading needs `read`
    played = player.post(f"/api/v1/games/{game.pk}/actions/",
                         {"action": legal[0]["action"], "version": game.version}, format="json")
    assert played.status_code == 200, played.content
    chatter = bearer(make(alice, ["chat"]))
    assert chatter.post(f"/api/v1/games/{game.pk}/chat/", {"body": "hi"},
                        format="json").status_code == 201


def test_a_token_cannot_make_a_stronger_or_longer_lived_token():
    user = UserFactory()
    expiring = timezone.now() + timedelta(days=2)
    manager = bearer(make(user, ["read", "manage"], expires_at=expiring))
    stronger = manager.post("/api/v1/tokens/", {"name": "x", "scopes": ["read", "play"]},
                            format="json")
    assert stronger.status_code == 403 and stronger.json()["code"] == "insufficient_scope"
    weaker = manager.post("/api/v1/tokens/", {"name": "x", "scopes": ["read"],
                                              "expires_in_days": 90}, format="json")
    assert weaker.status_code == 201
    assert PersonalAccessToken.objects.get(pk=weaker.json()["id"]).expires_at == expiring


@pytest.mark.parametrize("problem", ["revoked", "expired", "unknown"])
def test_a_dead_token_is_a_401_never_anonymous(problem):
    user = UserFactory()
    raw = make(user, ["read"], expires_at=timezone.now() + timedelta(hours=1))
    if problem == "revoked":
        session = APIClient()
        session.force_login(user)
        token = PersonalAccessToken.objects.get(user=user)
        assert session.delete(f"/api/v1/tokens/{token.pk}/").status_code == 204
        assert TokenEvent.objects.filter(token=token, kind="revoked", via="api").exists()
    elif problem == "unknown":
        raw = raw[:-4] + "AAAA"
    with time_machine.travel(timezone.now() + timedelta(hours=2 if problem == "expired" else 0)):
        # /engines/ is public: a dead token there must still not pass as anonymous.
        answer = bearer(raw).get("/api/v1/engines/")
    assert answer.status_code == 401, answer.content
    assert answer["WWW-Authenticate"].startswith("Bearer")
    assert answer.json()["code"] == "authentication_failed"


def test_tokens_of_others_cannot_be_revoked_and_revoking_is_idempotent():
    alice, bob = UserFactory(), UserFactory()
    make(alice, ["read"])
    token = PersonalAccessToken.objects.get(user=alice)
    bob_client = bearer(make(bob, ["manage"]))
    assert bob_client.delete(f"/api/v1/tokens/{token.pk}/").status_code == 404
    assert PersonalAccessToken.objects.get(pk=token.pk).revoked_at is None
    alice_client = bearer(make(alice, ["manage"]))
    assert alice_client.delete(f"/api/v1/tokens/{token.pk}/").status_code == 204
    assert alice_client.delete(f"/api/v1/tokens/{token.pk}/").status_code == 204
    assert TokenEvent.objects.filter(token=token, kind="revoked").count() == 1


def test_the_password_login_needs_a_confirmed_address_when_verification_is_mandatory(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    user = UserFactory()
    login = {"username": user.username, "password": PASSWORD}
    refused = APIClient().post("/api/v1/auth/token/", login, format="json")
    assert refused.status_code == 403 and "Confirm your email" in refused.json()["message"]
    confirm_email(user)
    granted = APIClient().post("/api/v1/auth/token/", login, format="json")
    assert granted.status_code == 200
    token = PersonalAccessToken.objects.get(user=user)
    assert token.scopes == ["read", "play", "chat", "manage"]
    assert TokenEvent.objects.get(token=token).via == "password login"
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    other = UserFactory()
    assert APIClient().post("/api/v1/auth/token/", {"username": other.username,
                                                    "password": PASSWORD},
                            format="json").status_code == 200


def test_a_password_change_revokes_personal_tokens():
    user = UserFactory()
    raw = make(user, ["read"])
    user.set_password("another-long-password-42")
    user.save()
    assert bearer(raw).get("/api/v1/me/").status_code == 401
    assert TokenEvent.objects.filter(kind="revoked", via="password changed").count() == 1


def test_the_account_page_makes_lists_and_revokes_tokens(client):
    user = UserFactory()
    client.force_login(user)
    page = client.post("/settings/tokens/", {"name": "phone app", "scopes": ["read", "chat"],
                                             "expires_in_days": ""})
    assert page.status_code == 200
    raw = page.context["new_token"]
    assert raw.startswith("tp_") and raw in page.content.decode()
    token = PersonalAccessToken.objects.get(user=user)
    assert token.scopes == ["read", "chat"] and token.expires_at is None
    listing = client.get("/settings/tokens/").content.decode()
    assert "phone app" in listing and raw not in listing and token.prefix in listing
    revoked = client.post(f"/settings/tokens/{token.pk}/revoke/", follow=True)
    assert revoked.status_code == 200
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert TokenEvent.objects.filter(token=token, kind="revoked", via="account page").exists()
    assert bearer(raw).get("/api/v1/me/").status_code == 401


def test_tokens_from_earlier_password_logins_keep_working():
    from rest_framework.authtoken.models import Token

    user = UserFactory()
    legacy = Token.objects.create(user=user)
    assert bearer(legacy.key).get("/api/v1/me/").json()["username"] == user.username
    assert token_client(user).get("/api/v1/me/").status_code == 200  # today's login


def test_the_audit_is_readable_in_the_admin(client):
    user = UserFactory()
    token, _ = token_create(user=user, name="audited bot", scopes=["read"], via="api",
                            ip_address="198.51.100.4")
    admin_user = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    page = client.get("/admin/accounts/tokenevent/")
    assert page.status_code == 200
    assert "audited bot" in page.content.decode() and "198.51.100.4" in page.content.decode()
