"""Celery tasks that deliver the outbox; each fetches by id and calls a service or a channel."""

# All of them run on the mail queue (CELERY_TASK_ROUTES), served by its own worker, so a slow or
# hung mail server never holds up game work. Each send is bounded by EMAIL_TIMEOUT, each task by
# the time limits below (shorter than email.CLAIM_LEASE, so a claim outlives its task).

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from notifications import services
from notifications.channels import email, push, webhooks

#: One send: connecting, greeting, authenticating and the message itself, each bounded by
#: EMAIL_TIMEOUT (10 s by default); past the soft limit the attempt is recorded as failed.
ONE_SEND_LIMITS = {"soft_time_limit": 90, "time_limit": 120}
#: The beat tasks send one after the other for at most this long, then leave the rest to their
#: next run (a minute later), so a hung server makes them stop, not pile up.
BEAT_SEND_BUDGET_SECONDS = 45
BEAT_LIMITS = {"soft_time_limit": 150, "time_limit": 180}

#: A failed send is retried with exponential backoff (30 s, 1 min, … up to an hour apart); the
#: beat tasks below pick up whatever is still pending after that.
RETRIED_DELIVERY = {
    "bind": True,
    "acks_late": True,
    "autoretry_for": (email.DeliveryFailed,),
    "retry_backoff": 30,
    "retry_backoff_max": 3600,
    "retry_jitter": True,
    "max_retries": email.MAX_ATTEMPTS,
    **ONE_SEND_LIMITS,
}


@shared_task(**RETRIED_DELIVERY)
def deliver_notification(self, notification_id: int) -> str:
    return email.deliver(notification_id=notification_id)


@shared_task(acks_late=True)
def deliver_notifications(notification_ids: list[int]) -> int:
    """A batch written at once (the deadline sweep's notices): one task per notification from
    here, on the mail queue, each with its own retries, so the game worker that wrote them
    queued one message rather than one per player."""
    for notification_id in notification_ids:
        deliver_notification.delay(notification_id)
    return len(notification_ids)


@shared_task(**BEAT_LIMITS)
def deliver_pending_notifications() -> int:
    """Beat: releases turn notices held while their player was at it whose grace period passed
    (queued for delivery as they are released), then sends what is due and was left behind
    (quiet hours over, lost tasks, retries, claims of workers that died)."""
    services.held_notices_release()
    return _send_each(email.pending_ids(timezone.now()),
                      lambda notification_id: email.deliver(notification_id=notification_id))


@shared_task(**BEAT_LIMITS)
def prune_delivered_notifications() -> int:
    """Beat, nightly: notifications past their retention period and delivered are deleted."""
    return services.notifications_prune()


@shared_task(**BEAT_LIMITS)
def send_digests() -> int:
    return email.digests_send()


@shared_task(**RETRIED_DELIVERY)
def deliver_email_reply(self, reply_id: int) -> str:
    """Sends the answer to a play-by-email message (written when the message was processed)."""
    return email.email_reply_deliver(reply_id=reply_id)


@shared_task(**BEAT_LIMITS)
def deliver_pending_email_replies() -> int:
    """Beat: answers whose task was lost or is waiting for a retry."""
    return _send_each(email.pending_email_reply_ids(),
                      lambda reply_id: email.email_reply_deliver(reply_id=reply_id))


def _send_each(ids: Iterable[int], send: Callable[[int], str],
               budget: float = BEAT_SEND_BUDGET_SECONDS) -> int:
    """Sends each in turn until the time budget is spent; one that fails again stays pending
    for the next beat. Returns how many were sent."""
    sent = 0
    deadline = time.monotonic() + budget
    try:
        for item_id in ids:
            if time.monotonic() > deadline:
                break
            try:
                sent += send(item_id) == "sent"
            except email.DeliveryFailed:
                continue
    except SoftTimeLimitExceeded:
        pass  # the attempt under way was recorded as failed; the rest waits for the next beat
    return sent


@shared_task(bind=True, acks_late=True, **ONE_SEND_LIMITS)
def deliver_webhook(self, delivery_id: int) -> str:
    """POSTs one webhook payload; a failed attempt is retried with exponential backoff
    (webhooks.retry_delay) until WEBHOOK_MAX_ATTEMPTS."""
    try:
        return webhooks.deliver(delivery_id=delivery_id)
    except webhooks.WebhookFailed as failed:
        raise self.retry(countdown=failed.args[0], max_retries=None) from None


@shared_task(**BEAT_LIMITS)
def deliver_pending_webhooks() -> int:
    """Beat: webhook deliveries whose retry was lost."""
    def attempt(delivery_id: int) -> str:
        try:
            return webhooks.deliver(delivery_id=delivery_id)
        except webhooks.WebhookFailed:
            return "retry"

    return _send_each(webhooks.pending_ids(timezone.now()), attempt)


@shared_task(bind=True, acks_late=True, autoretry_for=(Exception,), retry_backoff=30,
             retry_backoff_max=3600, retry_jitter=True, max_retries=6, **ONE_SEND_LIMITS)
def deliver_push(self, notification_id: int) -> str:
    """Pushes one notification to the player's phones (a refusal is retried with backoff)."""
    return push.deliver(notification_id=notification_id)


@shared_task(**BEAT_LIMITS)
def deliver_pending_pushes() -> int:
    """Beat: pushes held back by quiet hours, or whose task was lost."""
    def attempt(notification_id: int) -> str:
        try:
            return push.deliver(notification_id=notification_id)
        except push.PushFailed:
            return "retry"

    return _send_each(push.pending_ids(timezone.now()), attempt)


@shared_task(**BEAT_LIMITS)
def send_push_digests() -> int:
    return push.digests_send()
