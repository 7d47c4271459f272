"""Writing notifications into the outbox, inside the transaction of the change that caused them
(see receivers.py); the channels deliver them after commit, in Celery (see tasks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from config.celery import app, publish_after_commit
from games.live import bus
from notifications.channels import push, webhooks
from notifications.models import DEFAULT_DELIVERY, EmailStatus, Notification, NotificationPreference
from notifications.policy import EMAIL_STATUS_FOR, quiet_hours_end
from notifications.rendering import new_message_id


def _enqueue(task: str, *args) -> None:
    """Queues notifications.tasks.<task> after commit, by its registered name: the tasks call
    this module, never the reverse (NotificationsConfig.ready registers them)."""
    publish_after_commit(app.tasks[f"notifications.tasks.{task}"], *args)


@dataclass(frozen=True)
class Notice:
    """One notification to write: for `user`, of `kind`, about `game` (a Game or None)."""

    user: Any
    kind: str
    game: Any = None
    seat_number: int | None = None
    context: dict | None = None


def notify(*, user, kind: str, game=None, seat_number: int | None = None,
           context: dict | None = None, now: datetime | None = None) -> Notification:
    """Writes one notification in the current transaction; delivery is queued on commit."""
    return notify_many([Notice(user, kind, game, seat_number, context)], now=now)[0]


def notify_many(notices: list[Notice], *, now: datetime | None = None) -> list[Notification]:
    """Writes these notifications in the current transaction in one statement, after one read
    each of the players' preferences, push devices and webhooks (the deadline sweep tells a
    whole batch of timed-out players at once); delivery is queued on commit."""
    if not notices:
        return []
    now = now or timezone.now()
    user_ids = {notice.user.pk for notice in notices}
    chosen = dict(((user_id, kind), delivery) for user_id, kind, delivery in
                  NotificationPreference.objects.filter(
                      user_id__in=user_ids, kind__in={notice.kind for notice in notices})
                  .values_list("user_id", "kind", "delivery"))
    with_devices = push.users_with_devices(user_ids)
    notifications = []
    for notice in notices:
        user = notice.user
        delivery = chosen.get((user.pk, notice.kind), DEFAULT_DELIVERY[notice.kind])
        status = EMAIL_STATUS_FOR[delivery]
        if not user.email:
            status = EmailStatus.SKIPPED
        notifications.append(Notification(
            user=user, kind=notice.kind, game=notice.game, seat_number=notice.seat_number,
            context=notice.context or {}, email_status=status,
            send_after=quiet_hours_end(user, now) or now, message_id=new_message_id(),
            push_status=push.initial_status(has_device=user.pk in with_devices,
                                            delivery=delivery)))
    Notification.objects.bulk_create(notifications)
    emails = [n.pk for n in notifications if n.email_status == EmailStatus.PENDING]
    if len(emails) == 1:
        _enqueue("deliver_notification", emails[0])
    elif emails:
        _enqueue("deliver_notifications", emails)
    for notification in notifications:
        if notification.push_status == EmailStatus.PENDING:
            _enqueue("deliver_push", notification.pk)
    bus.publish_users_after_commit([(n.user_id, n.pk) for n in notifications])
    webhooks.queue_for_many(notifications)
    return notifications


def mark_read(*, user, notification_ids: list[int] | None = None) -> int:
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_ids is not None:
        rows = rows.filter(pk__in=notification_ids)
    return rows.update(read_at=timezone.now())


#: Rows deleted per statement when pruning, so no one statement holds many row locks for long.
PRUNE_CHUNK = 5000
#: Neither channel is still waiting to send (pending, or held for a digest).
_UNSENT = (EmailStatus.PENDING, EmailStatus.DIGEST)


def notifications_prune(*, now: datetime | None = None) -> int:
    """Deletes the notifications older than NOTIFICATION_RETENTION_DAYS whose email and push
    are done with (sent, skipped or failed); read or not, they have left the in-app list's
    useful span. One still waiting on a channel stays until it is sent. Returns how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.NOTIFICATION_RETENTION_DAYS)
    done = (Notification.objects.filter(created_at__lt=cutoff)
            .exclude(email_status__in=_UNSENT).exclude(push_status__in=_UNSENT))
    deleted = 0
    while ids := list(done.order_by().values_list("pk", flat=True)[:PRUNE_CHUNK]):
        deleted += Notification.objects.filter(pk__in=ids).delete()[0]
    return deleted
