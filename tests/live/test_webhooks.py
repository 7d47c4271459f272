"""Webhooks against a real HTTP receiver on loopback: signed JSON, the Discord and Slack
presets, retries with exponential backoff by a real Celery worker, turning a failing webhook
off with a notice, internal addresses refused, and nothing hidden in any payload."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest
from django.core import mail
from django.db import transaction

from games import services
from games.engines.registry import get_engine
from notifications.channels import webhooks
from notifications.models import (
    Notification,
    NotificationKind,
    Webhook,
    WebhookDelivery,
    WebhookStatus,
)
from notifications.services import notify
from tests.api.clients import token_client
from tests.conftest import wait_for
from tests.factories import UserFactory, committed, started_game
from tests.live.receiver import Receiver

pytestmark = [pytest.mark.django_db]


def verify(secret: str, header: str, body: bytes, tolerance: int = 300) -> bool:
    """The check docs/webhooks.md describes, written from the docs."""
    fields = dict(part.split("=", 1) for part in header.split(","))
    timestamp = int(fields["t"])
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body,
                        hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - timestamp) < tolerance


@pytest.fixture
def local_targets(settings):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = True
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0
    return settings


def test_a_registered_webhook_gets_a_signed_json_payload_and_logs_the_delivery(local_targets):
    player = UserFactory()
    client = token_client(player)
    with Receiver() as receiver:
        created = client.post("/api/v1/me/webhooks/", {"url": receiver.url,
                                                        "kinds": ["your_turn", "game_started"]},
                              format="json")
        assert created.status_code == 201, created.content
        secret = created.json()["secret"]
        game, users = started_game(2, engine="stone_age", seed="hook-json",
                                   make_user=iter([player, UserFactory()]).__next__)
        assert len(receiver.requests) == 1
    request = receiver.requests[0]
    assert verify(secret, request["headers"]["Turnpost-Signature"], request["body"])
    assert not verify("another-secret", request["headers"]["Turnpost-Signature"],
                      request["body"])
    assert not verify(secret, request["headers"]["Turnpost-Signature"], request["body"] + b" ")
    payload = json.loads(request["body"])
    assert payload["event"] == "game_started" == request["headers"]["Turnpost-Event"]
    assert payload["notification"]["game"]["id"] == game.pk
    assert payload["notification"]["game"]["url"].endswith(f"/games/{game.pk}/")
    log = client.get(f"/api/v1/me/webhooks/{created.json()['id']}/deliveries/").json()
    assert [(row["kind"], row["status"], row["attempts"], row["response_status"])
            for row in log] == [("game_started", "delivered", 1, 200)]
    # Nobody else reads the log or removes the webhook.
    other = token_client(UserFactory())
    assert other.get(f"/api/v1/me/webhooks/{created.json()['id']}/deliveries/"
                     ).status_code == 404
    assert other.delete(f"/api/v1/me/webhooks/{created.json()['id']}/").status_code == 404


@pytest.mark.parametrize(("preset", "field"), [("discord", "content"), ("slack", "text")])
def test_discord_and_slack_presets_say_whose_turn_and_the_deadline(local_targets, preset, field):
    game, users = started_game(2, engine="stone_age", seed=f"hook-{preset}")
    game.refresh_from_db()
    engine = get_engine("stone_age")
    mover = engine.active_seats(game.state)[0]
    waiting = users[1 - mover]
    waiting.timezone = "Europe/Rome"
    waiting.save()
    with Receiver() as receiver:
        webhooks.webhook_create(user=waiting, url=receiver.url, kinds=["your_turn"],
                                format=preset)
        with committed():
            services.game_action_submit(
                game_id=game.pk, user=users[mover], expected_version=game.version,
                action=engine.legal_actions(game.state, mover)[0])
        assert len(receiver.requests) == 1
    body = json.loads(receiver.requests[0]["body"])
    seat = game.seats.get(user=waiting)
    deadline = seat.deadline_at.astimezone(waiting.zone)
    assert body[field] == (f"{waiting.public_name}'s turn in Stone Age #{game.pk} — "
                           f"deadline {deadline:%a %H:%M}")


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_failed_deliveries_are_retried_by_the_worker_with_growing_delays(worker_queue):
    worker_queue["env"].update(ALLOW_LOCAL_DELIVERY_TARGETS="true",
                               WEBHOOK_RETRY_BASE_SECONDS="1")
    worker_queue["start"]()
    assert worker_queue["wait_ready"]()
    player = UserFactory()
    with Receiver(statuses=[500, 503]) as receiver:
        hook = Webhook.objects.create(user=player, url=receiver.url, kinds=["invitation"],
                                      secret="s" * 64)
        with transaction.atomic():
            notify(user=player, kind=NotificationKind.INVITATION, context={"inviter": "Ann"})
        assert wait_for(lambda: len(receiver.requests) >= 3, timeout=60), receiver.requests
        delivery = WebhookDelivery.objects.get(webhook=hook)
        assert wait_for(lambda: WebhookDelivery.objects.get(pk=delivery.pk).status
                        == WebhookStatus.DELIVERED, timeout=20)
    times = [request["at"] for request in receiver.requests]
    first_gap, second_gap = times[1] - times[0], times[2] - times[1]
    assert first_gap >= 1.0 and second_gap >= 2.0, (first_gap, second_gap)
    # The same signed body each time.
    assert len({request["body"] for request in receiver.requests}) == 1
    delivery.refresh_from_db()
    assert delivery.attempts == 3 and delivery.response_status == 200
    assert len(receiver.requests) == 3


def test_a_webhook_that_keeps_failing_is_turned_off_and_its_owner_told(local_targets):
    local_targets.WEBHOOK_MAX_ATTEMPTS = 2
    local_targets.WEBHOOK_DISABLE_AFTER = 2
    player = UserFactory()
    with Receiver(statuses=[500] * 10) as receiver:
        hook = webhooks.webhook_create(user=player, url=receiver.url, kinds=["invitation"])
        for _ in range(2):
            with transaction.atomic():
                notify(user=player, kind=NotificationKind.INVITATION,
                       context={"inviter": "Ann"})
            delivery = WebhookDelivery.objects.get(status=WebhookStatus.PENDING)
            with committed():  # the notice to the owner is sent as a real commit would
                with pytest.raises(webhooks.WebhookFailed):
                    webhooks.deliver(delivery_id=delivery.pk)
                assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
        assert len(receiver.requests) == 4  # two deliveries, two attempts each, then off
    hook.refresh_from_db()
    assert not hook.active and "HTTP 500" in hook.disabled_reason
    notice = Notification.objects.get(user=player, kind=NotificationKind.WEBHOOK_DISABLED)
    assert notice.context["url"] == "127.0.0.1"
    assert any("turned off" in message.subject for message in mail.outbox)
    # Off means off: nothing more is queued until the owner turns it back on.
    with transaction.atomic():
        notify(user=player, kind=NotificationKind.INVITATION, context={"inviter": "Ann"})
    assert WebhookDelivery.objects.filter(status=WebhookStatus.PENDING).count() == 0


def test_internal_and_plain_http_addresses_are_refused_in_production(settings):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = False
    client = token_client(UserFactory())
    for url in ["https://127.0.0.1/hook", "https://localhost/hook", "https://10.1.2.3/hook",
                "https://192.168.0.10/hook", "https://169.254.169.254/latest",
                "https://[::1]/hook", "http://93.184.216.34/hook", "ftp://93.184.216.34/x"]:
        response = client.post("/api/v1/me/webhooks/", {"url": url, "kinds": ["your_turn"]},
                               format="json")
        assert response.status_code == 400, url
        assert response.json()["code"] == "invalid", response.json()
    accepted = client.post("/api/v1/me/webhooks/", {"url": "https://93.184.216.34/hook",
                                                     "kinds": ["your_turn"]}, format="json")
    assert accepted.status_code == 201, accepted.content


def test_an_address_turned_internal_is_refused_at_delivery(settings):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = True
    player = UserFactory()
    with Receiver() as receiver:
        hook = webhooks.webhook_create(user=player, url=receiver.url, kinds=["invitation"])
        settings.ALLOW_LOCAL_DELIVERY_TARGETS = False
        settings.WEBHOOK_MAX_ATTEMPTS = 1
        with transaction.atomic():
            notify(user=player, kind=NotificationKind.INVITATION, context={"inviter": "Ann"})
        delivery = WebhookDelivery.objects.get(webhook=hook)
        assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
        assert receiver.requests == []
    delivery.refresh_from_db()
    assert "https://" in delivery.last_error


def test_webhooks_never_carry_hidden_picks(local_targets):
    """Seat 1's webhook hears about the 7 Wonders game (its turn, chat) but never what seat 0
    picked."""
    game, users = started_game(3, engine="seven_wonders", seed="hook-secret")
    engine = get_engine("seven_wonders")
    with Receiver() as receiver:
        webhooks.webhook_create(user=users[1], url=receiver.url,
                                kinds=[kind.value for kind in webhooks.WEBHOOK_KINDS])
        game.refresh_from_db()
        others_see = json.dumps(engine.view(game.state, 1))
        pick = next(action for action in engine.legal_actions(game.state, 0)
                    if action["card"] not in others_see)
        with committed():
            services.game_action_submit(game_id=game.pk, user=users[0], action=pick,
                                        expected_version=game.version)
            services.chat_post(game_id=game.pk, user=users[0],
                               body=f"@{users[1].username} your move")
        assert receiver.requests, "the mention was delivered"
        bodies = b"".join(request["body"] for request in receiver.requests).decode()
    card_name = engine.describe(game.state, 0, pick, viewer=0).split(":")[0].split(" ", 1)[1]
    assert pick["card"] not in bodies and card_name not in bodies
    assert "your move" in bodies
