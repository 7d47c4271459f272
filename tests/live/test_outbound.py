"""Outbound requests cannot be turned inward, for webhooks and Web Push alike (config/outbound.py):
a name that rebinds to loopback after its check is never connected to; a redirect is a failure,
never followed; inward addresses in any spelling are refused at registration and at delivery;
https keeps the name (SNI, certificate, Host); an answer that trickles or floods ends within the
caps; the delivery log keeps a status line, never the body; and a push device is not taken
over by whoever knows its endpoint. Every connect made during a delivery is watched (and any
outside the machine refused) by tests/live/outbound.py's guard."""

from __future__ import annotations

import ast
import json
import socket
import time

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction
from django.test import Client

from notifications.channels import push, webhooks
from notifications.models import (
    EmailStatus,
    Notification,
    NotificationKind,
    PushSubscription,
    Webhook,
    WebhookDelivery,
)
from notifications.services import notify
from tests.api.clients import token_client
from tests.factories import UserFactory
from tests.live.outbound import (
    Answering,
    ConnectGuard,
    Redirector,
    Resolver,
    Trickle,
    certificate_for,
)
from tests.live.pushstub import Browser, PushService, b64url
from tests.live.receiver import Receiver

pytestmark = [pytest.mark.django_db]

#: A public address (the guard refuses every connect outside the machine: it cannot be reached).
PUBLIC = "93.184.216.34"
REBINDING = "rebinding.turnpost.test"
#: Addresses that reach inward, as the audit found them accepted, and other spellings.
INWARD_FOUND = ["https://[::127.0.0.1]/hook", "https://[64:ff9b::7f00:1]/hook",
                "https://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "https://[2002:7f00:1::]/hook",
                "https://224.0.0.1/hook"]
INWARD_MORE = ["https://[::ffff:127.0.0.1]/hook", "https://[::ffff:a9fe:a9fe]/hook",
               "https://[64:ff9b:1::a00:1]/hook", "https://[fec0::1]/hook",
               "https://[ff02::1]/hook", "https://2130706433/hook", "https://0x7f.1/hook",
               "https://127.1/hook", "https://100.64.0.1/hook", "https://0.0.0.0/hook"]


@pytest.fixture
def resolver(monkeypatch):
    fake = Resolver(socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake


@pytest.fixture
def push_keys(settings):
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_SUBJECT = "mailto:ops@turnpost.test"


@pytest.fixture
def one_attempt(settings):
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0
    return settings


def _hook(url: str, user=None) -> Webhook:
    """A webhook row as if registered earlier (delivery checks it again)."""
    return Webhook.objects.create(user=user or UserFactory(), url=url, kinds=["invitation"],
                                  secret="s" * 64)


def _notify(user) -> Notification:
    """An invitation for `user`, its deliveries written but not sent (the test sends them)."""
    with transaction.atomic():
        return notify(user=user, kind=NotificationKind.INVITATION, context={"inviter": "Ann"})


def _delivery(hook: Webhook) -> WebhookDelivery:
    _notify(hook.user)
    return WebhookDelivery.objects.get(webhook=hook)


def _device(url: str, user=None) -> Notification:
    """A push subscription row for `url` (as if registered earlier) and a push due to it."""
    user = user or UserFactory()
    PushSubscription.objects.create(user=user, endpoint=url, **Browser().keys())
    notification = _notify(user)
    assert notification.push_status == EmailStatus.PENDING
    return notification


def _subscribe(user, subscription: dict):
    client = Client()
    client.force_login(user)
    return client.post("/notifications/push/subscribe/", json.dumps(subscription),
                       content_type="application/json")


# ---- a name that rebinds ------------------------------------------------------------------------


def test_a_webhook_name_rebound_to_loopback_after_its_check_is_never_connected_to(
        one_attempt, resolver):
    one_attempt.ALLOW_LOCAL_DELIVERY_TARGETS = False
    one_attempt.WEBHOOK_TIMEOUT = 2
    resolver.names[REBINDING] = [PUBLIC, "127.0.0.1"]
    with Receiver() as receiver:
        port = receiver.server.server_port
        delivery = _delivery(_hook(f"https://{REBINDING}:{port}/hook"))
        with ConnectGuard(port) as guard:
            assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
        assert receiver.requests == []
    assert guard.inward() == [] and guard.attempts == [(PUBLIC, port)]
    assert resolver.calls[REBINDING] == 1
    delivery.refresh_from_db()
    assert delivery.last_error == "ConnectionRefusedError"


def test_a_push_endpoint_rebound_to_loopback_after_its_check_is_never_connected_to(
        settings, push_keys, resolver):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = False
    settings.WEBHOOK_TIMEOUT = 2
    resolver.names[REBINDING] = [PUBLIC, "127.0.0.1"]
    with Receiver() as receiver:
        port = receiver.server.server_port
        notification = _device(f"https://{REBINDING}:{port}/push/phone")
        with ConnectGuard(port) as guard, pytest.raises(push.PushFailed):
            push.deliver(notification_id=notification.pk)
        assert receiver.requests == []
    assert guard.inward() == [] and guard.attempts == [(PUBLIC, port)]
    assert resolver.calls[REBINDING] == 1


# ---- redirects ----------------------------------------------------------------------------------


def test_a_webhook_answered_with_a_redirect_fails_and_the_redirect_is_not_followed(
        one_attempt):
    one_attempt.ALLOW_LOCAL_DELIVERY_TARGETS = True
    with Receiver() as inner:
        metadata = f"http://127.0.0.1:{inner.server.server_port}/latest/meta-data/"
        with Redirector(metadata) as redirector:
            hook = _hook(redirector.url)
            delivery = _delivery(hook)
            with ConnectGuard(redirector.port, inner.server.server_port) as guard:
                assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
        assert redirector.hits == 1 and inner.requests == []
    assert guard.attempts == [("127.0.0.1", redirector.port)]
    delivery.refresh_from_db()
    assert (delivery.response_status, delivery.last_error) == (307,
                                                               "HTTP 307 Temporary Redirect")


def test_a_push_answered_with_a_redirect_is_not_sent_and_the_redirect_not_followed(
        settings, push_keys):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = True
    player = UserFactory()
    with Receiver() as inner:
        metadata = f"http://127.0.0.1:{inner.server.server_port}/latest/meta-data/"
        with Redirector(metadata) as redirector:
            response = _subscribe(player, {"endpoint": redirector.url,
                                           "keys": Browser().keys()})
            assert response.status_code == 201, response.content
            notification = _notify(player)
            with (ConnectGuard(redirector.port, inner.server.server_port) as guard,
                  pytest.raises(push.PushFailed, match="HTTP 307 Temporary Redirect")):
                push.deliver(notification_id=notification.pk)
        assert redirector.hits == 1 and inner.requests == []
    assert guard.attempts == [("127.0.0.1", redirector.port)]
    notification.refresh_from_db()
    assert notification.push_status == EmailStatus.PENDING  # not sent: retried later


# ---- inward addresses ---------------------------------------------------------------------------


@pytest.mark.parametrize("url", INWARD_FOUND + INWARD_MORE)
def test_inward_addresses_are_refused_when_registering_a_webhook_or_a_push_device(settings,
                                                                                  url):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = False
    player = UserFactory()
    with ConnectGuard() as guard:
        response = token_client(player).post("/api/v1/me/webhooks/",
                                             {"url": url, "kinds": ["your_turn"]},
                                             format="json")
        device = _subscribe(player, {"endpoint": url, "keys": Browser().keys()})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    # (The API's URL field refuses the odd spellings of IPv4 before the address rules do.)
    assert ("points at an internal address" in response.json()["message"]
            or response.json()["message"] == "url: Enter a valid URL."), response.json()
    assert device.status_code == 400, device.content
    assert "points at an internal address" in device.json()["message"]
    assert guard.attempts == []
    assert not Webhook.objects.exists() and not PushSubscription.objects.exists()


@pytest.mark.parametrize("url", INWARD_FOUND)
def test_inward_addresses_registered_earlier_are_refused_at_delivery(one_attempt, push_keys,
                                                                     url):
    one_attempt.ALLOW_LOCAL_DELIVERY_TARGETS = False
    delivery = _delivery(_hook(url))
    notification = _device(url.replace("/hook", "/push/phone"))
    with ConnectGuard() as guard:
        assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
        with pytest.raises(push.PushFailed, match="points at an internal address"):
            push.deliver(notification_id=notification.pk)
    assert guard.attempts == []
    delivery.refresh_from_db()
    assert "points at an internal address" in delivery.last_error


# ---- https keeps the name -----------------------------------------------------------------------


def test_https_is_sent_to_the_checked_address_with_the_name_for_sni_certificate_and_host(
        one_attempt, resolver, tmp_path):
    one_attempt.ALLOW_LOCAL_DELIVERY_TARGETS = True
    ca_file, server_context = certificate_for("hooks.turnpost.test", tmp_path)
    one_attempt.OUTBOUND_CA_FILE = str(ca_file)
    resolver.names["hooks.turnpost.test"] = ["127.0.0.1"]
    resolver.names["other.turnpost.test"] = ["127.0.0.1"]
    with Answering(200, b"ok", tls=server_context) as server:
        named = _delivery(_hook(f"https://hooks.turnpost.test:{server.port}/hook"))
        misnamed = _delivery(_hook(f"https://other.turnpost.test:{server.port}/hook"))
        with ConnectGuard(server.port) as guard:
            assert webhooks.deliver(delivery_id=named.pk) == "delivered"
            assert webhooks.deliver(delivery_id=misnamed.pk) == "failed"
    assert server.server_names == ["hooks.turnpost.test", "other.turnpost.test"]
    assert server.hosts == [f"hooks.turnpost.test:{server.port}"]
    assert guard.attempts == [("127.0.0.1", server.port)] * 2
    assert resolver.calls == {"hooks.turnpost.test": 1, "other.turnpost.test": 1}
    misnamed.refresh_from_db()
    assert misnamed.last_error == "SSLCertVerificationError"


# ---- what is recorded ---------------------------------------------------------------------------


def test_the_delivery_log_keeps_a_status_line_never_the_receivers_body(one_attempt):
    one_attempt.ALLOW_LOCAL_DELIVERY_TARGETS = True
    one_attempt.WEBHOOK_DISABLE_AFTER = 1
    player = UserFactory()
    client = token_client(player)
    with Answering(500, b"ami-id: i-0SECRET\ninstance-type: m5.large\n" * 20) as server:
        created = client.post("/api/v1/me/webhooks/",
                              {"url": f"http://127.0.0.1:{server.port}/hook",
                               "kinds": ["invitation"]}, format="json")
        assert created.status_code == 201, created.content
        delivery = _delivery(Webhook.objects.get(pk=created.json()["id"]))
        assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
    delivery.refresh_from_db()
    assert (delivery.response_status, delivery.last_error) == (500,
                                                               "HTTP 500 Internal Server Error")
    assert delivery.webhook.disabled_reason == "HTTP 500 Internal Server Error"
    log = client.get(f"/api/v1/me/webhooks/{created.json()['id']}/deliveries/")
    listed = client.get("/api/v1/me/webhooks/")
    assert "SECRET" not in log.content.decode() + listed.content.decode()


# ---- caps ---------------------------------------------------------------------------------------


def test_an_answer_trickled_a_byte_at_a_time_is_cut_off_at_the_deadline(one_attempt,
                                                                         push_keys):
    one_attempt.ALLOW_LOCAL_DELIVERY_TARGETS = True
    one_attempt.WEBHOOK_TIMEOUT = 1
    head = b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"  # 8 s at 0.2 s a byte
    with Trickle(head, interval=0.2, for_seconds=10) as server:
        delivery = _delivery(_hook(f"http://127.0.0.1:{server.port}/hook"))
        notification = _device(f"http://127.0.0.1:{server.port}/push/phone")
        started = time.monotonic()
        assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
        webhook_took = time.monotonic() - started
        started = time.monotonic()
        with pytest.raises(push.PushFailed, match="TimeoutError"):
            push.deliver(notification_id=notification.pk)
        push_took = time.monotonic() - started
    assert webhook_took < 2.5 and push_took < 2.5, (webhook_took, push_took)
    delivery.refresh_from_db()
    assert delivery.last_error == "TimeoutError"


def test_a_flood_of_an_answer_is_not_read_beyond_a_small_cap(one_attempt):
    one_attempt.ALLOW_LOCAL_DELIVERY_TARGETS = True
    one_attempt.WEBHOOK_TIMEOUT = 8
    head = b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 1000000000\r\n\r\n"
    with Trickle(head, chunk=b"x" * 65536, for_seconds=8) as server:
        delivery = _delivery(_hook(f"http://127.0.0.1:{server.port}/hook"))
        started = time.monotonic()
        assert webhooks.deliver(delivery_id=delivery.pk) == "failed"
        took = time.monotonic() - started
    assert took < 2, took  # the time cap (8 s) is not what ended it
    delivery.refresh_from_db()
    assert delivery.last_error == "HTTP 500 Internal Server Error"


# ---- push devices belong to one player ----------------------------------------------------------


def test_a_push_device_is_not_taken_over_by_whoever_knows_its_endpoint(settings, push_keys):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = True
    owner, intruder, next_player = UserFactory(), UserFactory(), UserFactory()
    with PushService(push.public_key()) as service:
        phone = service.subscription("phone")
        assert _subscribe(owner, phone).status_code == 201
        forged = _subscribe(intruder, {"endpoint": phone["endpoint"], "keys": Browser().keys()})
        assert forged.status_code == 400
        assert forged.json()["message"] == (
            "This device already takes another account's notifications.")
        row = PushSubscription.objects.get(endpoint=phone["endpoint"])
        assert (row.user, row.auth) == (owner, phone["keys"]["auth"])
        assert not PushSubscription.objects.filter(user=intruder).exists()
        # The owner still gets their pushes on it.
        with transaction.atomic():
            notification = notify(user=owner, kind=NotificationKind.INVITATION,
                                  context={"inviter": "Ann"})
        assert push.deliver(notification_id=notification.pk) == "sent"
        assert [item["endpoint"] for item in service.received] == ["phone"]
        # The same browser (its own keys) changing hands: one player signs in after another.
        assert _subscribe(next_player, phone).status_code == 201
        assert PushSubscription.objects.get(endpoint=phone["endpoint"]).user == next_player


# ---- one module ---------------------------------------------------------------------------------

#: What makes an HTTP request.
HTTP_CLIENTS = {"requests", "urllib3", "httpx", "aiohttp", "http.client", "urllib.request"}


def test_every_outbound_request_goes_through_config_outbound():
    """No project module but config/outbound.py imports an HTTP client, and push takes only
    encryption from pywebpush, never its sending."""
    from tests.test_architecture import ROOT

    offenders = []
    for package in ("config", "games", "accounts", "notifications"):
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or relative.as_posix() == "config/outbound.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.Import):
                    names = {alias.name for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = {node.module} | {f"{node.module}.{alias.name}"
                                             for alias in node.names}
                else:
                    continue
                used = {name for name in names
                        if name in HTTP_CLIENTS or name.split(".")[0] in HTTP_CLIENTS - {
                            "http.client", "urllib.request"}}
                used |= names & {"pywebpush.webpush", "pywebpush.webpush_async"}
                if used:
                    offenders.append(f"{relative}: {sorted(used)}")
    assert offenders == []
