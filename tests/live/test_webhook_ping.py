"""A webhook's ping and a delivery sent again (GitHub's ping and redeliver), each signed and
received by a real HTTP receiver through the delivery path every event takes."""

from __future__ import annotations

import json

import pytest

from notifications.channels import webhooks
from notifications.models import WebhookDelivery
from tests.api.clients import token_client
from tests.factories import UserFactory, committed, open_game
from tests.live.receiver import Receiver
from tests.live.test_webhooks import local_targets, verify  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db]


def _delivered(answer) -> WebhookDelivery:
    assert answer.status_code == 202, answer.content
    delivery = WebhookDelivery.objects.get(pk=answer.json()["id"])
    assert webhooks.deliver(delivery_id=delivery.pk) == "delivered"
    return delivery


def test_a_ping_and_a_redelivery_reach_the_receiver_signed(local_targets):  # noqa: F811
    player = UserFactory()
    client = token_client(player)
    with Receiver() as receiver:
        hook = client.post("/api/v1/me/webhooks/", {"url": receiver.url, "kinds": ["your_turn"]},
                           format="json").json()
        base = f"/api/v1/me/webhooks/{hook['id']}"
        with committed():
            ping = _delivered(client.post(f"{base}/ping/"))
        received = receiver.requests[-1]
        assert received["headers"]["Turnpost-Event"] == "ping"
        assert verify(hook["secret"], received["headers"]["Turnpost-Signature"],
                      received["body"])
        body = json.loads(received["body"])
        assert body["event"] == "ping" and body["webhook"]["id"] == hook["id"] and body["text"]

        with committed():
            again = _delivered(client.post(f"{base}/deliveries/{ping.pk}/redeliver/"))
        assert again.pk != ping.pk and again.body == ping.body and again.kind == "ping"
        assert receiver.requests[-1]["body"] == received["body"]
        assert receiver.requests[-1]["headers"]["Turnpost-Delivery"] == str(again.pk)
        log = client.get(f"{base}/deliveries/").json()
        assert [row["id"] for row in log][:2] == [again.pk, ping.pk]

    # Someone else's delivery, an unknown one, and a webhook that is off are refused.
    assert client.post(f"{base}/deliveries/999999/redeliver/").status_code == 404
    stranger = token_client(UserFactory())
    assert stranger.post(f"{base}/ping/").status_code == 404
    client.delete(base)
    assert client.post(f"{base}/ping/").status_code == 404


def test_a_webhook_that_is_off_is_not_pinged(local_targets):  # noqa: F811
    player = UserFactory()
    client = token_client(player)
    hook = client.post("/api/v1/me/webhooks/", {"url": "http://127.0.0.1:9/", "kinds":
                                                ["your_turn"]}, format="json").json()
    webhooks.Webhook.objects.filter(pk=hook["id"]).update(active=False)
    refused = client.post(f"/api/v1/me/webhooks/{hook['id']}/ping/")
    assert refused.status_code == 409 and refused.json()["code"] == "webhook_disabled"


def test_a_games_webhook_is_pinged_by_its_host(local_targets):  # noqa: F811
    game, users = open_game(2)
    host = token_client(users[0])
    with Receiver() as receiver:
        hook = host.post(f"/api/v1/games/{game.pk}/webhooks/",
                         {"url": receiver.url, "kinds": ["game_started"]}, format="json")
        assert hook.status_code == 201, hook.content
        assert hook["Location"].endswith(f"/api/v1/games/{game.pk}/webhooks/{hook.json()['id']}/")
        with committed():
            _delivered(host.post(f"/api/v1/games/{game.pk}/webhooks/{hook.json()['id']}/ping/"))
        assert json.loads(receiver.requests[-1]["body"])["webhook"]["game"] == game.pk
