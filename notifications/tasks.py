"""Celery tasks that deliver the outbox; each fetches by id and calls a service."""

from __future__ import annotations

from collections.abc import Callable

from celery import shared_task

from notifications import services

#: A failed send is retried with exponential backoff (30 s, 1 min, … up to an hour apart); the
#: beat tasks below pick up whatever is still pending after that.
RETRIED_DELIVERY = {
    "bind": True,
    "acks_late": True,
    "autoretry_for": (services.DeliveryFailed,),
    "retry_backoff": 30,
    "retry_backoff_max": 3600,
    "retry_jitter": True,
    "max_retries": services.MAX_ATTEMPTS,
}


@shared_task(**RETRIED_DELIVERY)
def deliver_notification(self, notification_id: int) -> str:
    return services.deliver(notification_id=notification_id)


@shared_task
def deliver_pending_notifications() -> int:
    """Beat: sends what is due and was left behind (quiet hours over, lost tasks, retries)."""
    from django.utils import timezone

    return _send_each(services.pending_ids(timezone.now()),
                      lambda notification_id: services.deliver(notification_id=notification_id))


@shared_task
def send_digests() -> int:
    return services.digests_send()


@shared_task(**RETRIED_DELIVERY)
def deliver_email_reply(self, reply_id: int) -> str:
    """Sends the answer to a play-by-email message (written when the message was processed)."""
    return services.email_reply_deliver(reply_id=reply_id)


@shared_task
def deliver_pending_email_replies() -> int:
    """Beat: answers whose task was lost or is waiting for a retry."""
    return _send_each(services.pending_email_reply_ids(),
                      lambda reply_id: services.email_reply_deliver(reply_id=reply_id))


def _send_each(ids, send: Callable[[int], str]) -> int:
    """Sends each in turn; one that fails again stays pending for the next beat. Returns how
    many were sent."""
    sent = 0
    for item_id in ids:
        try:
            sent += send(item_id) == "sent"
        except services.DeliveryFailed:
            continue
    return sent
