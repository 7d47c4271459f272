"""Webhooks: a player's notifications of the kinds they chose, POSTed as JSON to an address of
theirs (their own program, a Discord or Slack channel).

A delivery row is written with the notification, in the same transaction, with the exact body
rendered from what the notification already says to that player (so a webhook never tells more
than the player's own notification list). Celery sends it after commit and retries with
exponential backoff; a webhook whose deliveries keep failing is turned off and its owner told.

Every body is signed: `Turnpost-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
"<t>.<body>" with the webhook's secret>` (docs/webhooks.md shows how to check it).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import random
import secrets
import socket
import time
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from config.celery import publish_after_commit
from notifications.models import (
    Notification,
    NotificationKind,
    Webhook,
    WebhookDelivery,
    WebhookFormat,
    WebhookStatus,
)

#: Kinds a webhook may choose (the notice about webhooks themselves is not sent to them).
WEBHOOK_KINDS = [kind for kind in NotificationKind if kind != NotificationKind.WEBHOOK_DISABLED]
SIGNATURE_HEADER = "Turnpost-Signature"
#: At most this many webhooks per player.
MAX_WEBHOOKS = 10
CLAIM_LEASE = timedelta(minutes=2)


class WebhookRefused(ValueError):
    """An address or choice that cannot be a webhook; the message says why."""


class WebhookFailed(Exception):
    """One attempt failed; the task retries later."""


# ---- addresses ----------------------------------------------------------------------------------


def _local_targets_allowed() -> bool:
    return settings.ALLOW_LOCAL_DELIVERY_TARGETS


def check_target(url: str) -> None:
    """HTTPS to a public address only: never our own machine or network (loopback, private,
    link-local, reserved ranges), whatever the name resolves to. ALLOW_LOCAL_DELIVERY_TARGETS
    lifts this for development and tests."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise WebhookRefused(gettext("A webhook address must be an https:// URL."))
    if _local_targets_allowed():
        return
    if parts.scheme != "https":
        raise WebhookRefused(gettext("A webhook address must be an https:// URL."))
    try:
        port = parts.port or 443
        infos = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, ValueError, UnicodeError):
        raise WebhookRefused(gettext("%(parts_hostname)s cannot be resolved.")
                                 % {"parts_hostname": parts.hostname}) from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
        if not address.is_global:
            raise WebhookRefused(gettext(
                "%(parts_hostname)s points at an internal address (%(address)s); "
                                 "webhooks only go to public addresses.")
                                     % {"parts_hostname": parts.hostname, "address": address})


# ---- registering --------------------------------------------------------------------------------


def webhook_create(*, user, url: str, kinds: list[str], format: str = WebhookFormat.JSON
                   ) -> Webhook:
    url = url.strip()
    if format not in WebhookFormat.values:
        raise WebhookRefused(gettext("Unknown format %(format)s: json, discord or slack.")
                                 % {"format": f"{format!r}"})
    unknown = sorted(set(kinds) - {kind.value for kind in WEBHOOK_KINDS})
    if unknown or not kinds:
        raise WebhookRefused("Choose at least one kind of notification"
                             + (f"; unknown: {', '.join(unknown)}." if unknown else "."))
    if len(url) > 500:
        raise WebhookRefused(gettext("The address is too long (500 characters at most)."))
    check_target(url)
    if Webhook.objects.filter(user=user).count() >= MAX_WEBHOOKS:
        raise WebhookRefused(gettext(
            "You have %(max_webhooks)s webhooks already; delete one first.")
                                 % {"max_webhooks": MAX_WEBHOOKS})
    return Webhook.objects.create(user=user, url=url, format=format,
                                  kinds=sorted(set(kinds)), secret=secrets.token_hex(32))


def webhook_enable(*, webhook: Webhook) -> None:
    webhook.active, webhook.consecutive_failures, webhook.disabled_reason = True, 0, ""
    webhook.save(update_fields=["active", "consecutive_failures", "disabled_reason"])


# ---- what is sent -------------------------------------------------------------------------------


def _sentence(notification: Notification, game_name: str) -> str:
    """One line, as a chat channel shows it: "Alice's turn in 7 Wonders #12 — deadline Tue
    18:00" (times in the player's time zone)."""
    user, facts = notification.user, notification.context
    name = user.public_name
    deadline = ""
    if facts.get("deadline_at"):
        moment = datetime.fromisoformat(facts["deadline_at"]).astimezone(user.zone)
        deadline = f" — deadline {moment:%a %H:%M}"
    kind = notification.kind
    if kind == NotificationKind.YOUR_TURN:
        return f"{name}'s turn in {game_name}{deadline}"
    if kind == NotificationKind.REMINDER:
        return f"Reminder: {name}'s move in {game_name} is due{deadline}"
    if kind == NotificationKind.GAME_STARTED:
        return f"{game_name} has started" + (f": {name} moves first" if facts.get("your_move")
                                              else "")
    if kind == NotificationKind.GAME_FINISHED:
        return f"{game_name} is over"
    if kind == NotificationKind.TIMED_OUT:
        return f"{name} ran out of time in {game_name}"
    if kind == NotificationKind.INVITATION:
        return f"{facts.get('inviter', 'Someone')} invited {name} to {game_name}"
    if kind == NotificationKind.MENTION:
        return f"{facts.get('author', 'Someone')} mentioned {name} in {game_name}: " \
               f"{facts.get('text', '')[:200]}"
    return f"{NotificationKind(kind).label}: {facts.get('text', '')[:200]}".rstrip(": ")


def payload_for(notification: Notification, webhook: Webhook) -> dict:
    from notifications.services import absolute
    from notifications.streams import notice

    body = notice(notification)
    game_name = body.get("game", {}).get("name", "")
    if "game" in body:
        body["game"]["url"] = absolute(reverse("games:detail", args=[notification.game_id]))
    text = _sentence(notification, game_name)
    if webhook.format == WebhookFormat.DISCORD:
        return {"content": text, "allowed_mentions": {"parse": []}}
    if webhook.format == WebhookFormat.SLACK:
        return {"text": text}
    return {"event": notification.kind, "text": text, "notification": body,
            "player": notification.user.public_name}


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def queue_for(notification: Notification) -> int:
    """Writes one delivery per webhook of the player that chose this kind (in the caller's
    transaction) and queues each after commit. Returns how many."""
    webhooks = [hook for hook in Webhook.objects.filter(user_id=notification.user_id, active=True)
                if notification.kind in hook.kinds]
    from notifications import tasks

    for webhook in webhooks:
        body = json.dumps(payload_for(notification, webhook), separators=(",", ":"),
                          ensure_ascii=False)
        delivery = WebhookDelivery.objects.create(webhook=webhook, kind=notification.kind,
                                                  body=body, next_attempt_at=timezone.now())
        publish_after_commit(tasks.deliver_webhook, delivery.pk)
    return len(webhooks)


# ---- delivering ---------------------------------------------------------------------------------


def retry_delay(attempt: int) -> float:
    """Seconds before the next attempt: WEBHOOK_RETRY_BASE_SECONDS doubled per attempt made,
    at most an hour, with a little jitter so that failing receivers are not hit in step."""
    delay = min(settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (attempt - 1), 3600)
    return delay * random.uniform(1.0, 1.1)


def deliver(*, delivery_id: int, now: datetime | None = None) -> str:
    """One attempt. Returns "delivered", "failed" (for good) or "nothing to do"; raises
    WebhookFailed with the delay before the next attempt."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("webhook").filter(pk=delivery_id).first())
        if (delivery is None or delivery.status != WebhookStatus.PENDING
                or (delivery.claimed_until and delivery.claimed_until > now)):
            return "nothing to do"
        if not delivery.webhook.active:
            delivery.status, delivery.last_error = WebhookStatus.FAILED, "The webhook is off."
            delivery.save(update_fields=["status", "last_error"])
            return "failed"
        delivery.attempts += 1
        delivery.claimed_until = now + CLAIM_LEASE
        delivery.save(update_fields=["attempts", "claimed_until"])
    webhook = delivery.webhook
    body = delivery.body.encode()
    error, status = None, None
    try:
        check_target(webhook.url)
        response = requests.post(
            webhook.url, data=body, timeout=settings.WEBHOOK_TIMEOUT, allow_redirects=False,
            headers={"Content-Type": "application/json", "User-Agent": "Turnpost-Webhooks/1",
                     SIGNATURE_HEADER: signature(webhook.secret, int(time.time()), body),
                     "Turnpost-Event": delivery.kind, "Turnpost-Delivery": str(delivery.pk)})
        status = response.status_code
        if not 200 <= status < 300:
            error = f"HTTP {status}: {response.text[:200]}"
    except WebhookRefused as refused:
        error = str(refused)
    except requests.RequestException as problem:
        error = f"{type(problem).__name__}: {problem}"[:500]
    return _record(delivery, error, status, now)


def _record(delivery: WebhookDelivery, error: str | None, status: int | None,
            now: datetime) -> str:
    delivery.claimed_until = None
    delivery.response_status = status
    webhook = delivery.webhook
    if error is None:
        delivery.status, delivery.delivered_at, delivery.last_error = (
            WebhookStatus.DELIVERED, now, "")
        delivery.save()
        Webhook.objects.filter(pk=webhook.pk).update(consecutive_failures=0)
        return "delivered"
    delivery.last_error = error
    if delivery.attempts < settings.WEBHOOK_MAX_ATTEMPTS:
        delay = retry_delay(delivery.attempts)
        delivery.next_attempt_at = now + timedelta(seconds=delay)
        delivery.save()
        raise WebhookFailed(delay)
    delivery.status = WebhookStatus.FAILED
    delivery.save()
    with transaction.atomic():
        webhook = Webhook.objects.select_for_update().get(pk=webhook.pk)
        webhook.consecutive_failures += 1
        fields = ["consecutive_failures"]
        if webhook.active and webhook.consecutive_failures >= settings.WEBHOOK_DISABLE_AFTER:
            webhook.active = False
            webhook.disabled_reason = error
            fields += ["active", "disabled_reason"]
            _tell_owner(webhook, error)
        webhook.save(update_fields=fields)
    return "failed"


def _tell_owner(webhook: Webhook, error: str) -> None:
    from notifications.services import absolute, notify

    notify(user=webhook.user, kind=NotificationKind.WEBHOOK_DISABLED,
           context={"url": urlsplit(webhook.url).hostname or webhook.url,
                    "failures": webhook.consecutive_failures, "error": error[:300],
                    "settings_url": absolute(reverse("notifications:live"))})


def pending_ids(now: datetime, limit: int = 500) -> list[int]:
    """Deliveries due again whose retry task was lost (a worker died, the broker was down)."""
    return list(WebhookDelivery.objects.filter(
        status=WebhookStatus.PENDING, next_attempt_at__lte=now - timedelta(minutes=5))
        .order_by("next_attempt_at").values_list("pk", flat=True)[:limit])
