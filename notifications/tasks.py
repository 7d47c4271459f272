"""Celery tasks that deliver the outbox; each fetches by id and calls a service."""

from __future__ import annotations

from celery import shared_task

from notifications import services


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(services.DeliveryFailed,),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=services.MAX_ATTEMPTS,
)
def deliver_notification(self, notification_id: int) -> str:
    return services.deliver(notification_id=notification_id)


@shared_task
def deliver_pending_notifications() -> int:
    """Beat: sends what is due and was left behind (quiet hours over, lost tasks, retries)."""
    from django.utils import timezone

    delivered = 0
    for notification_id in services.pending_ids(timezone.now()):
        try:
            if services.deliver(notification_id=notification_id) == "sent":
                delivered += 1
        except services.DeliveryFailed:
            continue
    return delivered


@shared_task
def send_digests() -> int:
    return services.digests_send()


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(services.DeliveryFailed,),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=services.MAX_ATTEMPTS,
)
def deliver_email_reply(self, reply_id: int) -> str:
    """Sends the answer to a play-by-email message (written when the message was processed)."""
    return services.email_reply_deliver(reply_id=reply_id)


@shared_task
def deliver_pending_email_replies() -> int:
    """Beat: answers whose task was lost or is waiting for a retry."""
    delivered = 0
    for reply_id in services.pending_email_reply_ids():
        try:
            if services.email_reply_deliver(reply_id=reply_id) == "sent":
                delivered += 1
        except services.DeliveryFailed:
            continue
    return delivered
