"""Phone push (Web Push with VAPID, `pywebpush`): a second channel on each notification row,
beside the email, under the same rules (policy.py), at most once."""

# The same rules: the player's per-kind choice (right away, in the daily digest, never), quiet
# hours (the row's `send_after`), and "your turn" no longer sent once answered. Payloads are
# encrypted for each subscription (aes128gcm) and say only what the player's notification list
# says.
#
# Push is at most once: a send is claimed by moving the row from pending to sent in one statement,
# and put back to pending only when the push service refused it for a reason worth retrying. A
# subscription the push service says is gone (404, 410) is deleted. A player keeps at most
# MAX_SUBSCRIPTIONS devices; a new one replaces the oldest.
#
# A device (its endpoint) pushes to one player. Another player takes it over only from the same
# browser, which proves it by the subscription's `auth` secret (only that browser and we know
# it): one player signing in after another on a shared computer. Whoever merely knows the
# endpoint is refused, and its player keeps the device. Every push goes through
# config/outbound.py: a public address checked once and connected to, no redirect followed.

from __future__ import annotations

import base64
import hmac
import json
import logging
import time
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext
from py_vapid import Vapid, VapidException
from pywebpush import WebPusher, WebPushException

from config import outbound
from games.presentation.titles import engine_title
from notifications.channels.webhooks import WebhookRefused, check_target, refusal_message
from notifications.models import (
    EmailStatus,
    Notification,
    NotificationKind,
    PushDigestDay,
    PushSubscription,
)
from notifications.policy import digest_due, quiet_hours_end, still_relevant
from notifications.rendering import absolute, recipient_language, sentence

logger = logging.getLogger(__name__)

MAX_SUBSCRIPTIONS = 5
#: Seconds a push service keeps a push for a phone that is offline.
PUSH_TTL = 24 * 60 * 60
#: Seconds a VAPID signature is good for (push services refuse more than 24 hours).
VAPID_LIFETIME = 12 * 60 * 60


class PushFailed(Exception):
    """The push service refused for now; the task retries."""


class SubscriptionRefused(ValueError):
    pass


# ---- keys ---------------------------------------------------------------------------------------


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid() -> Vapid | None:
    """The server's VAPID key: VAPID_PRIVATE_KEY (base64url, raw or DER), or in development a
    key made once and kept in DATA_DIR; None where push is not configured."""
    if settings.VAPID_PRIVATE_KEY:
        return Vapid.from_string(settings.VAPID_PRIVATE_KEY)
    if not settings.DEBUG:
        return None
    path = Path(settings.DATA_DIR) / "vapid-private.pem"
    if not path.exists():
        key = Vapid()
        key.generate_keys()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(key.private_pem())
    return Vapid.from_file(str(path))


def public_key() -> str | None:
    """The application server key browsers subscribe with (base64url, uncompressed point)."""
    key = vapid()
    if key is None:
        return None
    from cryptography.hazmat.primitives import serialization

    return _b64url(key.public_key.public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint))


# ---- subscriptions ------------------------------------------------------------------------------


def subscription_save(*, user, data: dict, user_agent: str = "") -> PushSubscription:
    """Saves what the browser's PushSubscription.toJSON() gave: {"endpoint", "keys": {"p256dh",
    "auth"}}. The endpoint must be a public https address (as webhooks)."""
    try:
        endpoint = str(data["endpoint"])
        p256dh, auth = str(data["keys"]["p256dh"]), str(data["keys"]["auth"])
    except (KeyError, TypeError):
        raise SubscriptionRefused(gettext("Expected {endpoint, keys: {p256dh, auth}}.")) from None
    if len(endpoint) > 1000 or len(p256dh) > 200 or len(auth) > 100:
        raise SubscriptionRefused(gettext("The subscription is too long to be a browser's."))
    try:
        check_target(endpoint)
    except WebhookRefused as refused:
        raise SubscriptionRefused(str(refused)) from None
    with transaction.atomic():
        subscription = (PushSubscription.objects.select_for_update()
                        .filter(endpoint=endpoint).first())
        if subscription is None:
            subscription = PushSubscription(endpoint=endpoint)
        elif subscription.user_id != user.pk and not hmac.compare_digest(
                subscription.auth.encode(), auth.encode()):
            raise SubscriptionRefused(gettext(
                "This device already takes another account's notifications."))
        subscription.user, subscription.p256dh, subscription.auth = user, p256dh, auth
        subscription.user_agent = user_agent[:300]
        subscription.save()
        extra = list(PushSubscription.objects.filter(user=user).order_by("-created_at", "-id")
                     .values_list("pk", flat=True)[MAX_SUBSCRIPTIONS:])
        PushSubscription.objects.filter(pk__in=extra).delete()
    return subscription


def subscription_delete(*, user, endpoint: str) -> int:
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0]


# ---- writing: the second channel of notify() ----------------------------------------------------


def users_with_devices(user_ids) -> set[int]:
    """Which of these players have a device to push to (one query for a whole batch)."""
    return set(PushSubscription.objects.filter(user_id__in=user_ids)
               .values_list("user_id", flat=True).distinct())


def initial_status(*, has_device: bool, delivery: str) -> str:
    """The push status a new notification starts with: the player's choice for the kind, if
    they have a device to push to."""
    from notifications.models import Delivery

    if not has_device:
        return EmailStatus.SKIPPED
    return {Delivery.IMMEDIATE: EmailStatus.PENDING, Delivery.DIGEST: EmailStatus.DIGEST,
            Delivery.NEVER: EmailStatus.SKIPPED}[delivery]


# ---- sending ------------------------------------------------------------------------------------


def payload_for(notification: Notification) -> dict:
    """What the service worker shows: a title, a line, where a tap leads."""
    game_name = ""
    url = absolute(reverse("notifications:list"))
    if notification.game_id is not None:
        url = absolute(reverse("games:detail", args=[notification.game_id]))
    # A push is read by its recipient: the title (the kind's lazy label), the game's name and
    # the line in their language.
    with translation.override(recipient_language(notification.user)):
        if notification.game_id is not None:
            game_name = engine_title(notification.game.engine, notification.game_id)
        title = str(NotificationKind(notification.kind).label)
        body = sentence(notification, game_name)
    return {"title": title, "body": body, "url": url,
            "tag": f"{notification.kind}-{notification.game_id or notification.pk}"}


def _push_request(subscription: PushSubscription, payload: dict, key: Vapid
                  ) -> tuple[bytes, dict]:
    """One push's body and headers: the payload encrypted for the browser (aes128gcm, by
    pywebpush) and signed for the push service (VAPID, RFC 8292), as pywebpush's webpush()
    builds them; sent by config/outbound.py, which follows no redirect."""
    pusher = WebPusher({"endpoint": subscription.endpoint,
                        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}})
    body = pusher.encode(json.dumps(payload, separators=(",", ":")).encode(),
                         "aes128gcm")["body"]
    parts = urlsplit(subscription.endpoint)
    claims = {"sub": settings.VAPID_SUBJECT, "aud": f"{parts.scheme}://{parts.netloc}",
              "exp": int(time.time()) + VAPID_LIFETIME}
    headers = {**key.sign(claims), "Content-Encoding": "aes128gcm", "TTL": str(PUSH_TTL)}
    return body, headers


def _send(subscription: PushSubscription, payload: dict) -> str:
    """Returns "sent" or "gone" (the subscription was deleted); raises PushFailed or
    outbound.OutboundRefused."""
    key = vapid()
    if key is None:
        raise PushFailed("VAPID_PRIVATE_KEY is not set.")
    where = outbound.target(subscription.endpoint)  # before anything is built for it
    try:
        body, headers = _push_request(subscription, payload, key)
    except (WebPushException, VapidException, ValueError):
        raise PushFailed("The subscription's keys are not valid.") from None  # the worker's log
    try:
        answer = outbound.send(where, body, headers, timeout=settings.WEBHOOK_TIMEOUT)
    except outbound.OutboundFailed as failed:
        raise PushFailed(str(failed)) from None
    if answer.status in (404, 410):
        subscription.delete()
        return "gone"
    if not answer.ok:  # a redirect too: a push service answers 201
        raise PushFailed(answer.status_line)
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())
    return "sent"


def _send_to_all(user, payload: dict) -> tuple[int, list[str]]:
    sent, errors = 0, []
    for subscription in list(PushSubscription.objects.filter(user=user)):
        try:
            sent += _send(subscription, payload) == "sent"
        except PushFailed as problem:
            errors.append(str(problem))
        except outbound.OutboundRefused as refused:
            errors.append(refusal_message(refused))
    return sent, errors


def deliver(*, notification_id: int, now: datetime | None = None) -> str:
    now = now or timezone.now()
    notification = (Notification.objects.select_related("user", "game")
                    .filter(pk=notification_id, push_status=EmailStatus.PENDING).first())
    if notification is None:
        return "nothing to do"
    resume = quiet_hours_end(notification.user, now)
    if resume is not None or notification.send_after > now:
        if resume is not None:
            Notification.objects.filter(pk=notification.pk).update(send_after=resume)
        return "deferred"
    if not still_relevant(notification, now):
        Notification.objects.filter(pk=notification.pk).update(push_status=EmailStatus.SKIPPED)
        return "skipped"
    # The claim: only one worker moves the row from pending to sent.
    if not Notification.objects.filter(pk=notification.pk, push_status=EmailStatus.PENDING
                                       ).update(push_status=EmailStatus.SENT):
        return "nothing to do"
    sent, errors = _send_to_all(notification.user, payload_for(notification))
    if errors and not sent:
        Notification.objects.filter(pk=notification.pk).update(push_status=EmailStatus.PENDING)
        raise PushFailed("; ".join(errors))
    return "sent" if sent else "no device"


def pending_ids(now: datetime, limit: int = 500) -> list[int]:
    """Pushes due: quiet hours over, or a task lost."""
    return list(Notification.objects.filter(push_status=EmailStatus.PENDING, send_after__lte=now)
                .order_by("send_after").values_list("pk", flat=True)[:limit])


def digests_send(*, now: datetime | None = None) -> int:
    """One push per player a local day with the count of what waits for their digest, from their
    digest hour on, outside quiet hours (the email digest lists the details)."""
    from accounts.models import User

    now = now or timezone.now()
    sent = 0
    for user in User.objects.filter(notifications__push_status=EmailStatus.DIGEST).distinct():
        if not digest_due(user, now):
            continue
        rows = Notification.objects.filter(user=user, push_status=EmailStatus.DIGEST)
        count = rows.count()
        try:
            with transaction.atomic():
                PushDigestDay.objects.create(user=user, local_date=now.astimezone(user.zone).date(),
                                             count=count)
                rows.update(push_status=EmailStatus.SENT)
        except IntegrityError:  # today's digest push already went (or another worker has it)
            continue
        done, _errors = _send_to_all(user, digest_payload(user, count))
        sent += bool(done)
    return sent


def digest_payload(user, count: int) -> dict:
    """The digest push, in the recipient's language as their emails are (numbers in its
    digits)."""
    from accounts.templatetags.language_tags import localized_digits

    with translation.override(recipient_language(user)):
        body = ngettext("%(count)s update since yesterday", "%(count)s updates since yesterday",
                        count) % {"count": count}
        return {"title": gettext("Your Turnpost digest"), "body": localized_digits(body),
                "url": absolute(reverse("notifications:list")), "tag": "digest"}
