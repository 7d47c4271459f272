"""A webhook's signing secret is shown once, to whoever registered the webhook: in the answer
that made it and in the answer of an explicit rotate, never in a list, on turning it back on,
in the delivery log, to a moderator or host who did not register it, on the settings page after
the first time, or in the admin. A rotated secret signs at once, and the old one signs nothing
(checked on a real HTTP receiver)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import transaction
from rest_framework.test import APIClient

from notifications.channels import webhooks
from notifications.models import NotificationKind, Webhook, WebhookDelivery
from notifications.services import notify
from tests.api.clients import token_client
from tests.factories import UserFactory, open_game
from tests.live.receiver import Receiver
from tests.live.test_webhooks import local_targets, verify  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db]


def manager(user) -> APIClient:
    """A client with the password login's token: every scope, as a player's own program has."""
    return token_client(user)


def moderator_user():
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    return moderator


def deliver_one(player) -> dict:
    """Notifies `player` once and delivers it; returns what the receiver got."""
    with transaction.atomic():
        notify(user=player, kind=NotificationKind.INVITATION, context={"inviter": "Ann"})
    delivery = WebhookDelivery.objects.filter(webhook__user=player).latest("id")
    assert webhooks.deliver(delivery_id=delivery.pk) == "delivered"
    return delivery


def test_the_secret_is_in_the_creation_and_rotate_answers_only(local_targets):  # noqa: F811
    player = UserFactory()
    client = manager(player)
    with Receiver() as receiver:
        created = client.post("/api/v1/me/webhooks/", {"url": receiver.url,
                                                        "kinds": ["invitation"]}, format="json")
        assert created.status_code == 201, created.content
        hook = created.json()
        first = hook["secret"]
        assert len(first) == 64
        deliver_one(player)
        listed = client.get("/api/v1/me/webhooks/")
        assert [row["id"] for row in listed.json()] == [hook["id"]]
        assert "secret" not in listed.json()[0] and first not in listed.content.decode()
        enabled = client.post(f"/api/v1/me/webhooks/{hook['id']}/enable/")
        assert enabled.status_code == 200 and "secret" not in enabled.json()
        log = client.get(f"/api/v1/me/webhooks/{hook['id']}/deliveries/")
        assert len(log.json()) == 1 and first not in log.content.decode()

        rotated = client.post(f"/api/v1/me/webhooks/{hook['id']}/rotate-secret/")
        assert rotated.status_code == 200, rotated.content
        second = rotated.json()["secret"]
        assert second != first and rotated.json()["id"] == hook["id"]
        assert second not in client.get("/api/v1/me/webhooks/").content.decode()
        deliver_one(player)
    before, after = receiver.requests
    assert verify(first, before["headers"]["Turnpost-Signature"], before["body"])
    # The old secret stops at once: what is signed after the rotate is the new one's alone.
    assert verify(second, after["headers"]["Turnpost-Signature"], after["body"])
    assert not verify(first, after["headers"]["Turnpost-Signature"], after["body"])


def test_a_moderator_manages_a_games_webhook_but_never_sees_or_rotates_its_secret(
        local_targets):  # noqa: F811
    game, (host, _) = open_game(2)
    url = f"/api/v1/games/{game.pk}/webhooks/"
    host_client, moderator = manager(host), manager(moderator_user())
    created = host_client.post(url, {"url": "http://127.0.0.1:9/hook", "kinds": ["turn"]},
                               format="json")
    assert created.status_code == 201 and created.json()["secret"]
    hook = Webhook.objects.get(pk=created.json()["id"])
    secret = hook.secret
    listed = moderator.get(url)
    assert listed.status_code == 200 and [row["id"] for row in listed.json()] == [hook.pk]
    assert "secret" not in listed.json()[0] and secret not in listed.content.decode()
    enabled = moderator.post(f"{url}{hook.pk}/enable/")
    assert enabled.status_code == 200 and secret not in enabled.content.decode()
    refused = moderator.post(f"{url}{hook.pk}/rotate-secret/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    hook.refresh_from_db()
    assert hook.secret == secret
    # A webhook a moderator registered: the host lists it, without its secret, and cannot
    # rotate it either; the moderator can.
    theirs = moderator.post(url, {"url": "http://127.0.0.1:9/mod", "kinds": ["turn"]},
                            format="json").json()
    assert theirs["secret"] not in host_client.get(url).content.decode()
    assert host_client.post(f"{url}{theirs['id']}/rotate-secret/").status_code == 403
    rotated = moderator.post(f"{url}{theirs['id']}/rotate-secret/")
    assert rotated.status_code == 200 and rotated.json()["secret"] != theirs["secret"]
    assert host_client.post(f"{url}{hook.pk}/rotate-secret/").status_code == 200
    assert moderator.delete(f"{url}{hook.pk}/").status_code == 204


def test_the_settings_page_shows_a_secret_once_after_adding_or_rotating(client,
                                                                        local_targets):  # noqa: F811
    player = UserFactory()
    client.force_login(player)
    added = client.post("/notifications/webhooks/", {"url": "http://127.0.0.1:9/hook",
                                                     "kinds": ["your_turn"], "format": "json"})
    hook = Webhook.objects.get(user=player)
    page = added.content.decode()
    assert added.status_code == 200 and "Webhook added." in page
    assert f'value="{hook.secret}"' in page and 'data-copy="#webhook-secret"' in page
    assert "no-store" in added["Cache-Control"]
    first = hook.secret
    assert first not in client.get("/notifications/live/").content.decode()
    rotated = client.post(f"/notifications/webhooks/{hook.pk}/", {"do": "rotate"})
    hook.refresh_from_db()
    assert hook.secret != first and f'value="{hook.secret}"' in rotated.content.decode()
    assert first not in rotated.content.decode()
    later = client.get("/notifications/live/").content.decode()
    assert hook.secret not in later and first not in later
    # Someone else's webhook cannot be rotated.
    client.force_login(UserFactory())
    assert client.post(f"/notifications/webhooks/{hook.pk}/", {"do": "rotate"}).status_code == 404
    assert Webhook.objects.get(pk=hook.pk).secret == hook.secret


def test_the_admin_never_shows_a_webhooks_secret(client, local_targets):  # noqa: F811
    game, (host, _) = open_game(2)
    own = webhooks.webhook_create(user=host, url="http://127.0.0.1:9/own", kinds=["your_turn"])
    hosted = webhooks.webhook_create(user=host, game=game, url="http://127.0.0.1:9/game",
                                     kinds=["turn"])
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for page in (f"/admin/games/game/{game.pk}/change/", f"/admin/accounts/user/{host.pk}/change/",
                 "/admin/"):
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert own.secret not in answer.content.decode()
        assert hosted.secret not in answer.content.decode()
    assert client.get("/admin/notifications/webhook/").status_code == 404
