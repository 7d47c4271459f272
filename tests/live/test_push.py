"""Phone push through the real protocol, to a push service on loopback that verifies the VAPID
signature and decrypts the payload; the same choices, quiet hours and digest as email;
expired subscriptions pruned; at most five devices; the manifest and service worker."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from django.utils import timezone

from notifications.channels import push
from notifications.models import (
    EmailStatus,
    Notification,
    NotificationKind,
    PushDigestDay,
    PushSubscription,
)
from notifications.policy import preference_set
from notifications.services import notify
from tests.factories import UserFactory, committed, started_game
from tests.live.pushstub import PushService, b64url, vapid_problem

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def push_service(settings):
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_SUBJECT = "mailto:ops@turnpost.test"
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = True
    with PushService(push.public_key()) as service:
        yield service


def _subscribe(user, service, name):
    client = Client()
    client.force_login(user)
    response = client.post("/notifications/push/subscribe/",
                           json.dumps(service.subscription(name)),
                           content_type="application/json", HTTP_USER_AGENT="Phone")
    assert response.status_code == 201, response.content
    return client


def test_your_turn_reaches_the_phone_signed_and_encrypted(push_service):
    first, second = UserFactory(), UserFactory()
    for user, name in ((first, "first"), (second, "second")):
        _subscribe(user, push_service, name)
    game, users = started_game(2, engine="stone_age", seed="push-turn",
                               make_user=iter([first, second]).__next__)
    assert push_service.problems == []
    by_endpoint = {item["endpoint"]: item["payload"] for item in push_service.received}
    assert set(by_endpoint) == {"first", "second"}  # "game started" to both
    payload = by_endpoint["first"]
    assert payload["title"] == NotificationKind.GAME_STARTED.label
    assert payload["url"].endswith(f"/games/{game.pk}/")
    assert f"Stone Age #{game.pk}" in payload["body"]
    # The ciphertext is not the payload: only the browser's key opens it.
    assert b"Stone Age" not in push_service.received[0]["ciphertext"]
    assert Notification.objects.filter(push_status=EmailStatus.SENT).count() == 2


def test_the_stub_refuses_a_push_signed_by_another_key(push_service):
    from py_vapid import Vapid

    stranger = Vapid()
    stranger.generate_keys()
    header = stranger.sign({"aud": push_service.origin, "sub": "mailto:x@y.z",
                            "exp": int(timezone.now().timestamp()) + 600})["Authorization"]
    assert vapid_problem(header, push_service.origin, push_service.server_key) is not None
    own = push.vapid().sign({"aud": push_service.origin, "sub": "mailto:x@y.z",
                             "exp": int(timezone.now().timestamp()) + 600})["Authorization"]
    assert vapid_problem(own, push_service.origin, push_service.server_key) is None
    assert vapid_problem(own, "https://elsewhere.example", push_service.server_key) == (
        f"aud '{push_service.origin}'")


def test_push_follows_the_email_choices_quiet_hours_and_digest(push_service):
    player = UserFactory(digest_hour=8, timezone="UTC")
    _subscribe(player, push_service, "phone")
    # "Never" for a kind: no push either.
    preference_set(user=player, kind=NotificationKind.INVITATION, delivery="never")
    with committed():
        silent = notify(user=player, kind=NotificationKind.INVITATION, context={"inviter": "A"})
    silent.refresh_from_db()
    assert silent.push_status == EmailStatus.SKIPPED and push_service.received == []

    # Quiet hours hold the push back and move it to when they end.
    now = timezone.now().replace(hour=23, minute=0, second=0, microsecond=0)
    player.quiet_hours_start, player.quiet_hours_end = 22, 7
    player.save()
    with committed():
        held = notify(user=player, kind=NotificationKind.MENTION, now=now,
                      context={"author": "Ann", "text": "hello"})
    assert push.deliver(notification_id=held.pk, now=now) == "deferred"
    held.refresh_from_db()
    assert held.push_status == EmailStatus.PENDING and held.send_after.hour == 7
    assert push_service.received == []
    assert push.deliver(notification_id=held.pk, now=held.send_after) == "sent"
    assert push_service.received[-1]["payload"]["body"].endswith("hello")

    # Digest: nothing at once, one push on the day's digest, never twice a day.
    preference_set(user=player, kind=NotificationKind.MENTION, delivery="digest")
    player.quiet_hours_start = player.quiet_hours_end = None
    player.save()
    for text in ("one", "two"):
        with committed():
            notify(user=player, kind=NotificationKind.MENTION,
                   context={"author": "Ann", "text": text})
    assert len(push_service.received) == 1
    morning = timezone.now().replace(hour=9, minute=0)
    assert push.digests_send(now=morning) == 1
    assert push_service.received[-1]["payload"]["body"] == "2 updates since yesterday"
    with committed():
        notify(user=player, kind=NotificationKind.MENTION, context={"author": "A", "text": "3"})
    assert push.digests_send(now=morning + timedelta(hours=1)) == 0
    assert PushDigestDay.objects.filter(user=player).count() == 1
    assert len(push_service.received) == 2


#: The digest push in each language: (title, body for 3 updates).
DIGEST_PUSH = {
    "fa": ("چکیدهٔ Turnpost شما", "۳ رویداد تازه از دیروز"),
    "zh-hans": ("你的 Turnpost 摘要", "自昨天以来有 3 条更新"),
    "it": ("Il tuo riepilogo Turnpost", "3 novità da ieri"),
    "en": ("Your Turnpost digest", "3 updates since yesterday"),
}


@pytest.mark.parametrize("language", sorted(DIGEST_PUSH))
def test_the_digest_push_reads_in_the_players_language(push_service, language):
    player = UserFactory(digest_hour=8, timezone="UTC", language=language)
    _subscribe(player, push_service, "phone")
    preference_set(user=player, kind=NotificationKind.MENTION, delivery="digest")
    for text in ("one", "two", "three"):
        with committed():
            notify(user=player, kind=NotificationKind.MENTION,
                   context={"author": "Ann", "text": text})
    assert push_service.received == []
    assert push.digests_send(now=timezone.now().replace(hour=9, minute=0)) == 1
    payload = push_service.received[-1]["payload"]
    assert (payload["title"], payload["body"]) == DIGEST_PUSH[language]
    assert payload["url"].endswith("/notifications/")


def test_expired_subscriptions_are_pruned_and_others_still_get_the_push(push_service):
    player = UserFactory()
    _subscribe(player, push_service, "old-phone")
    _subscribe(player, push_service, "new-phone")
    push_service.gone.add("old-phone")
    with committed():
        notify(user=player, kind=NotificationKind.INVITATION, context={"inviter": "Ann"})
    assert [item["endpoint"] for item in push_service.received] == ["new-phone"]
    assert list(PushSubscription.objects.filter(user=player).values_list("endpoint", flat=True)
                ) == [f"{push_service.origin}/push/new-phone"]


def test_at_most_five_devices_and_bad_subscriptions_refused(push_service, settings):
    player = UserFactory()
    for index in range(6):
        client = _subscribe(player, push_service, f"device-{index}")
    endpoints = set(PushSubscription.objects.filter(user=player).values_list("endpoint",
                                                                             flat=True))
    assert len(endpoints) == 5 and f"{push_service.origin}/push/device-0" not in endpoints
    bad = client.post("/notifications/push/subscribe/", json.dumps({"endpoint": "x"}),
                      content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = False
    internal = client.post("/notifications/push/subscribe/",
                           json.dumps(push_service.subscription("internal")),
                           content_type="application/json")
    assert internal.status_code == 400
    assert client.post("/notifications/push/unsubscribe/", json.dumps(
        {"endpoint": f"{push_service.origin}/push/device-5"}),
        content_type="application/json").json() == {"devices": 4}


def test_the_site_is_installable_manifest_and_service_worker():
    client = Client()
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        assert client.get(icon["src"]).status_code == 200
    persian = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fa").json()
    assert persian["lang"] == "fa" and persian["dir"] == "rtl"
    assert persian["description"] == "بازی‌های رومیزی سنگین، آرام بازی‌شده: روزی یک نوبت."
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("push"' in b"".join(worker)
    page = client.get("/accounts/login/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
