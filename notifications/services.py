"""Writing notifications into the outbox, inside the transaction of the change that caused them
(see receivers.py); the channels deliver them after commit, in Celery (see tasks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.celery import app, publish_after_commit
from games.live import bus, presence
from notifications.channels import push, webhooks
from notifications.models import DEFAULT_DELIVERY, EmailStatus, Notification, NotificationPreference
from notifications.policy import (
    EMAIL_STATUS_FOR,
    HELD_KINDS,
    answered_since,
    hold_until,
    quiet_hours_end,
    still_relevant,
)
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
        push_status = push.initial_status(has_device=user.pk in with_devices, delivery=delivery)
        held = None
        if notice.kind in HELD_KINDS and notice.game is not None and EmailStatus.PENDING in (
                status, push_status):
            held = hold_until(user, notice.game.pk, now)
        if held is not None:
            # The player is at it: the email waits for their grace period; so does the push
            # while the game is open before them (otherwise it may buzz at once).
            if status == EmailStatus.PENDING:
                status = EmailStatus.HELD
            if push_status == EmailStatus.PENDING and presence.is_open(
                    user_id=user.pk, game_id=notice.game.pk, now=now):
                push_status = EmailStatus.HELD
        notifications.append(Notification(
            user=user, kind=notice.kind, game=notice.game, seat_number=notice.seat_number,
            context=notice.context or {}, email_status=status, held_until=held,
            send_after=quiet_hours_end(user, now) or now, message_id=new_message_id(),
            push_status=push_status))
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


_HELD = Q(email_status=EmailStatus.HELD) | Q(push_status=EmailStatus.HELD)


def held_notices_release(*, now: datetime | None = None) -> int:
    """Beat: turn notices held while their player was at it (policy.hold_until), once the grace
    period passed. Dropped if the player moved in or looked at the game meanwhile; held longer
    if they are still at it; otherwise sent, a player's turns of several games together in one
    email. Returns how many were released."""
    now = now or timezone.now()
    user_ids = (Notification.objects.filter(_HELD, held_until__lte=now)
                .order_by().values_list("user_id", flat=True).distinct())
    return sum(_release_held(user_id, now) for user_id in list(user_ids))


def _release_held(user_id: int, now: datetime) -> int:
    with transaction.atomic():
        rows = list(Notification.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("user", "game").filter(_HELD, user_id=user_id)
                    .order_by("created_at", "id"))
        emails, pushes = [], []
        for row in rows:
            if answered_since(row) or not still_relevant(row, now):
                row.email_status, row.push_status = (
                    EmailStatus.SKIPPED if status == EmailStatus.HELD else status
                    for status in (row.email_status, row.push_status))
                row.held_until = None
                continue
            row.held_until = hold_until(row.user, row.game_id, now, due_at=row.created_at)
            if row.held_until is not None:
                continue  # still at it (another game's move, or a look at this one)
            if row.email_status == EmailStatus.HELD:
                row.email_status = EmailStatus.PENDING
                emails.append(row)
            if row.push_status == EmailStatus.HELD:
                row.push_status = EmailStatus.PENDING
                pushes.append(row)
        for row in emails[1:]:  # carried by the first one's email
            row.email_status, row.sent_with = EmailStatus.BATCHED, emails[0]
        Notification.objects.bulk_update(
            rows, ["email_status", "push_status", "held_until", "sent_with"])
        if emails:
            _enqueue("deliver_notification", emails[0].pk)
        for row in pushes:
            _enqueue("deliver_push", row.pk)
    return len({row.pk for row in emails + pushes})


def mark_read(*, user, notification_ids: list[int] | None = None) -> int:
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_ids is not None:
        rows = rows.filter(pk__in=notification_ids)
    return rows.update(read_at=timezone.now())


#: Rows deleted per statement when pruning, so no one statement holds many row locks for long.
PRUNE_CHUNK = 5000
#: Neither channel is still waiting to send (pending, held for a digest or a grace period, or
#: riding on another notice's email).
_UNSENT = (EmailStatus.PENDING, EmailStatus.DIGEST, EmailStatus.HELD, EmailStatus.BATCHED)


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
