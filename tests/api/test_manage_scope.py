"""Least privilege for tokens: making, listing and revoking tokens, webhooks (a player's and a
game's), push devices and account settings need the `manage` scope or a browser session. A
token with every other scope (`read`, `play`, `chat`), as a leaked bot token would be, is
refused with 403 `insufficient_scope` naming `manage`, and changes nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import PersonalAccessToken
from accounts.tokens import token_create
from notifications.channels import webhooks
from notifications.models import PushSubscription, Webhook
from tests.api.clients import token_client
from tests.factories import UserFactory, open_game

pytestmark = pytest.mark.django_db

#: Every scope but `manage`: what a bot gets, and what leaks with it.
BOT_SCOPES = ["read", "play", "chat"]


def scoped(user, scopes: list[str]) -> tuple[APIClient, PersonalAccessToken]:
    token, raw = token_create(user=user, name="test", scopes=scopes, via="test")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client, token


def session(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def assert_needs_manage(answer) -> None:
    assert answer.status_code == 403, answer.content
    assert answer.json()["code"] == "insufficient_scope", answer.json()
    assert answer.json()["details"] == {"required_scope": "manage"}


def test_a_token_without_manage_cannot_make_list_or_revoke_tokens():
    user = UserFactory()
    _, other = scoped(user, ["read"])
    leaked, _ = scoped(user, BOT_SCOPES)
    assert_needs_manage(leaked.get("/api/v1/tokens/"))
    assert_needs_manage(leaked.post("/api/v1/tokens/", {"name": "successor", "scopes": ["read"]},
                                    format="json"))
    assert_needs_manage(leaked.delete(f"/api/v1/tokens/{other.pk}/"))
    other.refresh_from_db()
    assert other.revoked_at is None
    assert PersonalAccessToken.objects.filter(user=user).count() == 2


def test_a_token_may_revoke_itself_without_manage():
    user = UserFactory()
    reader, token = scoped(user, ["read"])
    assert reader.delete(f"/api/v1/tokens/{token.pk}/").status_code == 204
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert reader.get("/api/v1/me/").status_code == 401


def test_a_manage_token_and_the_session_make_list_and_revoke_tokens():
    user = UserFactory()
    _, other = scoped(user, ["read"])
    manager, _ = scoped(user, ["read", "manage"])
    made = manager.post("/api/v1/tokens/", {"name": "bot", "scopes": ["read", "manage"]},
                        format="json")
    assert made.status_code == 201, made.content
    assert made.json()["scopes"] == ["read", "manage"]
    # Still only within its own scopes.
    stronger = manager.post("/api/v1/tokens/", {"name": "x", "scopes": ["play"]}, format="json")
    assert stronger.status_code == 403 and stronger.json()["details"] == {"required_scope": "play"}
    assert len(manager.get("/api/v1/tokens/").json()) == 3
    assert manager.delete(f"/api/v1/tokens/{other.pk}/").status_code == 204
    browser = session(user)
    assert browser.post("/api/v1/tokens/", {"name": "from the page", "scopes": ["manage"]},
                        format="json").status_code == 201
    assert browser.delete(f"/api/v1/tokens/{made.json()['id']}/").status_code == 204
    assert len(browser.get("/api/v1/tokens/").json()) == 4


def test_the_password_login_token_has_every_scope_manage_included():
    user = UserFactory()
    client = token_client(user)
    assert PersonalAccessToken.objects.get(user=user).scopes == [
        "read", "play", "chat", "manage"]
    made = client.post("/api/v1/tokens/", {"name": "bot", "scopes": ["read", "play", "manage"]},
                       format="json")
    assert made.status_code == 201, made.content


def test_the_account_page_offers_the_manage_scope(client):
    user = UserFactory()
    client.force_login(user)
    page = client.post("/settings/tokens/", {"name": "admin script", "scopes": ["manage"],
                                             "expires_in_days": ""})
    assert page.status_code == 200 and page.context["new_token"]
    assert PersonalAccessToken.objects.get(user=user).scopes == ["manage"]


def test_changing_account_settings_needs_manage_reading_them_needs_read():
    user = UserFactory(timezone="UTC")
    bot, _ = scoped(user, BOT_SCOPES)
    assert bot.get("/api/v1/me/").status_code == 200
    assert_needs_manage(bot.patch("/api/v1/me/", {"timezone": "Europe/Rome"}, format="json"))
    user.refresh_from_db()
    assert user.timezone == "UTC"
    manager, _ = scoped(user, ["manage"])
    changed = manager.patch("/api/v1/me/", {"timezone": "Europe/Rome"}, format="json")
    assert changed.status_code == 200 and changed.json()["timezone"] == "Europe/Rome"
    assert session(user).patch("/api/v1/me/", {"language": "it"}, format="json").status_code == 200
    user.refresh_from_db()
    assert (user.timezone, user.language) == ("Europe/Rome", "it")


def webhook_requests(own: Webhook, hosted: Webhook) -> list[tuple[str, str, dict | None]]:
    """Every webhook operation, on a player's own webhook and on a game's."""
    body = {"url": "http://127.0.0.1:9/hook", "kinds": ["your_turn"]}
    game_body = {"url": "http://127.0.0.1:9/hook", "kinds": ["turn"]}
    mine, games = "/api/v1/me/webhooks/", f"/api/v1/games/{hosted.game_id}/webhooks/"
    return [
        ("get", mine, None), ("post", mine, body), ("post", f"{mine}{own.pk}/enable/", None),
        ("post", f"{mine}{own.pk}/rotate-secret/", None),
        ("get", f"{mine}{own.pk}/deliveries/", None), ("delete", f"{mine}{own.pk}/", None),
        ("get", games, None), ("post", games, game_body),
        ("post", f"{games}{hosted.pk}/enable/", None),
        ("post", f"{games}{hosted.pk}/rotate-secret/", None),
        ("get", f"{games}{hosted.pk}/deliveries/", None),
        ("delete", f"{games}{hosted.pk}/", None),
    ]


@pytest.fixture
def hooks(settings):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = True
    game, (host, _) = open_game(2)
    own = webhooks.webhook_create(user=host, url="http://127.0.0.1:9/own", kinds=["your_turn"])
    hosted = webhooks.webhook_create(user=host, game=game, url="http://127.0.0.1:9/game",
                                     kinds=["turn"])
    return host, own, hosted


def test_a_token_without_manage_cannot_touch_webhooks_or_see_their_secrets(hooks):
    host, own, hosted = hooks
    bot, _ = scoped(host, BOT_SCOPES)
    for method, url, body in webhook_requests(own, hosted):
        answer = getattr(bot, method)(url, body, format="json")
        assert_needs_manage(answer)
        assert own.secret not in answer.content.decode()
        assert hosted.secret not in answer.content.decode()
    assert {(hook.pk, hook.secret) for hook in Webhook.objects.all()} == {
        (own.pk, own.secret), (hosted.pk, hosted.secret)}


@pytest.mark.parametrize("who", ["manage token", "session"])
def test_a_manage_token_and_the_session_manage_webhooks(hooks, who):
    host, own, hosted = hooks
    client = scoped(host, ["manage"])[0] if who == "manage token" else session(host)
    for method, url, body in webhook_requests(own, hosted):
        answer = getattr(client, method)(url, body, format="json")
        assert answer.status_code in (200, 201, 204), (method, url, answer.content)
    assert not Webhook.objects.filter(pk__in=[own.pk, hosted.pk]).exists()
    assert Webhook.objects.count() == 2  # the two registered above


def test_push_devices_are_not_managed_with_a_token():
    """Push subscriptions are made and removed by the browser that receives them (a session);
    no token reaches them, whatever its scopes."""
    user = UserFactory()
    device = {"endpoint": "https://push.example.com/send/abc",
              "keys": {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-"
                                 "Ts1XbjhazAkj7I99e8QcYP7DkM", "auth": "tBHItJI5svbpez7KI4CCXg"}}
    every_scope, _ = scoped(user, ["read", "play", "chat", "manage"])
    answer = every_scope.post("/notifications/push/subscribe/", device, format="json")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert not PushSubscription.objects.exists()


def test_the_password_logins_earlier_tokens_get_manage_chosen_scopes_stay():
    """accounts/migrations/0010: live tokens the password login made before `manage` existed
    had every scope there was, and keep having them; tokens made with chosen scopes do not
    gain it, nor do revoked ones."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module("accounts.migrations.0010_password_login_tokens_manage")
    user = UserFactory()
    earlier = token_create(user=user, name="Password login", scopes=BOT_SCOPES,
                           via="password login")[0]
    revoked = token_create(user=user, name="Password login", scopes=BOT_SCOPES,
                           via="password login")[0]
    PersonalAccessToken.objects.filter(pk=revoked.pk).update(revoked_at=revoked.created_at)
    chosen = token_create(user=user, name="bot", scopes=BOT_SCOPES, via="api")[0]
    migration.grant_manage(apps, None)
    scopes = dict(PersonalAccessToken.objects.values_list("pk", "scopes"))
    assert scopes == {earlier.pk: [*BOT_SCOPES, "manage"], revoked.pk: BOT_SCOPES,
                      chosen.pk: BOT_SCOPES}


def test_the_schema_documents_manage_and_shows_the_secret_in_two_answers_only(hooks):
    import jsonschema

    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    components, paths = schema["components"]["schemas"], schema["paths"]
    assert "manage" in components["ScopesEnum"]["enum"]
    assert "`manage`" in schema["components"]["securitySchemes"]["bearerAuth"]["description"]
    with_secret = set()
    for path, methods in paths.items():
        for method, operation in methods.items():
            for code, response in operation["responses"].items():
                body = response.get("content", {}).get("application/json", {}).get("schema", {})
                ref = body.get("$ref", body.get("items", {}).get("$ref", ""))
                if "secret" in components.get(ref.rsplit("/", 1)[-1], {}).get("properties", {}):
                    with_secret.add((method, path, code))
    assert with_secret == {
        ("post", "/api/v1/me/webhooks", "201"),
        ("post", "/api/v1/me/webhooks/{id}/rotate-secret", "200"),
        ("post", "/api/v1/games/{game_id}/webhooks", "201"),
        ("post", "/api/v1/games/{game_id}/webhooks/{id}/rotate-secret", "200")}
    for path, method in [("/api/v1/tokens", "get"), ("/api/v1/tokens", "post"),
                         ("/api/v1/me", "patch"), ("/api/v1/me/webhooks", "get")]:
        assert "403" in paths[path][method]["responses"], (method, path)
        assert "`manage`" in paths[path][method]["description"], (method, path)
    assert "insufficient_scope" in paths["/api/v1/tokens"]["get"]["responses"]["403"][
        "description"]
    host, _, _ = hooks
    refused = scoped(host, BOT_SCOPES)[0].get("/api/v1/me/webhooks/")
    jsonschema.validate(refused.json(), {"$ref": "#/components/schemas/Error",
                                         "components": schema["components"]})
