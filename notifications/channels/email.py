"""The email channel: sending the outbox (notifications, digests, answers to play-by-email
messages) through Django's mail backend (SMTP or anymail), with claims, retries and Message-IDs."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from notifications.models import Digest, EmailReply, EmailStatus, Notification
from notifications.policy import digest_due, quiet_hours_end, still_relevant
from notifications.rendering import build_email, digest_message, new_message_id, turns_message

#: Attempts at one email (a notification, a digest, an answer) before it is marked failed.
MAX_ATTEMPTS = 8

# No email is sent while a database transaction is open: a send claims its outbox row in a short
# transaction (a lease, so that another worker leaves it alone), commits, talks to the mail
# server with no lock held, then records the outcome in another short statement. A worker that
# dies mid-send leaves the claim to expire; the beat task then sends again, with the same
# Message-ID.

#: How long a claim keeps other workers off a row: longer than any mail task may run (its hard
#: time limit), so a claim only expires when its worker is gone.
CLAIM_LEASE = timedelta(minutes=5)


class DeliveryFailed(Exception):
    """Sending failed; the task retries with backoff."""


def _claimable(rows, now: datetime):
    """Rows nobody holds: unclaimed, or claimed by a worker that has since died."""
    return rows.filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))


def _claim(row, now: datetime) -> None:
    """Takes the row for one attempt (the caller holds its lock, in a transaction about to
    commit): the attempt is counted now, so a send that crashes the worker still counts."""
    row.attempts += 1
    row.claimed_until = now + CLAIM_LEASE
    fields = ["attempts", "claimed_until"]
    if hasattr(row, "message_id") and not row.message_id:
        row.message_id = new_message_id()
        fields.append("message_id")
    row.save(update_fields=fields)


def deliver(*, notification_id: int, now: datetime | None = None) -> str:
    """Sends one pending notification if its time has come. Returns what happened; raises
    DeliveryFailed (after recording the attempt) so that the Celery task retries with backoff."""
    now = now or timezone.now()
    with transaction.atomic():
        notification = (
            _claimable(Notification.objects.select_for_update(skip_locked=True, of=("self",)),
                       now)
            .select_related("user", "game").filter(pk=notification_id).first()
        )
        if notification is None or notification.email_status != EmailStatus.PENDING:
            return "nothing to do"
        resume = quiet_hours_end(notification.user, now)
        if resume is not None:
            notification.send_after = resume
            notification.save(update_fields=["send_after"])
            return "deferred"
        if notification.send_after > now:
            return "not yet"
        # Turns released together (services.held_notices_release) ride on this one's email.
        batched = [row for row in notification.batched.select_for_update(of=("self",))
                   .select_related("user", "game").filter(email_status=EmailStatus.BATCHED)
                   if _relevant_or_skipped(row, now)]
        if not still_relevant(notification, now):
            notification.email_status = EmailStatus.SKIPPED
            notification.save(update_fields=["email_status"])
            if batched:  # the next one carries the rest (the beat task sends it)
                Notification.objects.filter(pk=batched[0].pk).update(
                    email_status=EmailStatus.PENDING, sent_with=None)
                Notification.objects.filter(pk__in=[row.pk for row in batched[1:]]).update(
                    sent_with=batched[0])
            return "skipped"
        _claim(notification, now)
    rows = [notification, *batched]
    with timezone.override(notification.user.zone):
        # A failed attempt raises DeliveryFailed: the batch stays with this notice for the retry.
        outcome = _send_claimed(notification, lambda: (
            turns_message(notification.user, rows, now, notification.message_id)
            if batched else build_email(notification, now)), now)
        Notification.objects.filter(pk__in=[row.pk for row in batched]).update(
            email_status=EmailStatus.SENT if outcome == "sent" else EmailStatus.FAILED,
            sent_at=now if outcome == "sent" else None)
        return outcome


def _relevant_or_skipped(row: Notification, now: datetime) -> bool:
    if still_relevant(row, now):
        return True
    Notification.objects.filter(pk=row.pk).update(email_status=EmailStatus.SKIPPED)
    return False


def _send_claimed(row, build_message, now: datetime) -> str:
    """Sends a claimed outbox row (a Notification or an EmailReply) and records the outcome.
    Returns "sent" or "failed" (out of attempts); raises DeliveryFailed to be retried."""
    error = None
    try:
        get_connection().send_messages([build_message()])
    except Exception as problem:  # any failure is recorded and retried
        error = problem
    return _record_attempt(row, error, now)


def _record_attempt(row, error: Exception | None, now: datetime) -> str:
    row.claimed_until = None
    if error is None:
        row.email_status, row.sent_at = EmailStatus.SENT, now
    else:
        row.last_error = f"{type(error).__name__}: {error}"[:2000]
        if row.attempts >= MAX_ATTEMPTS:
            row.email_status = EmailStatus.FAILED
    type(row).objects.filter(pk=row.pk).update(
        claimed_until=None, email_status=row.email_status, sent_at=row.sent_at,
        last_error=row.last_error)
    if row.email_status == EmailStatus.PENDING:
        raise DeliveryFailed(row.last_error)
    return "sent" if row.email_status == EmailStatus.SENT else "failed"


def pending_ids(now: datetime, limit: int = 500) -> list[int]:
    return list(
        _claimable(Notification.objects.filter(email_status=EmailStatus.PENDING,
                                               send_after__lte=now), now)
        .order_by("send_after").values_list("pk", flat=True)[:limit]
    )


def digests_send(*, now: datetime | None = None) -> int:
    """One email per player with everything waiting for the digest, once a local day, from the
    player's chosen hour on. Like every send, it happens outside any transaction: the day's
    Digest row is the claim; a failed send is tried again on the next run, same Message-ID."""
    from accounts.models import User

    now = now or timezone.now()
    sent = 0
    users = User.objects.filter(notifications__email_status=EmailStatus.DIGEST).distinct()
    for user in users:
        if not digest_due(user, now):
            continue
        try:
            sent += _digest_deliver(user, now.astimezone(user.zone).date(), now) == "sent"
        except DeliveryFailed:
            continue
    return sent


def _digest_claim(user, local_date, now: datetime) -> tuple[Digest, list[Notification]] | None:
    """The day's Digest row, claimed for one attempt, and the rows it reports; None when there
    is nothing to send or another worker has it."""
    try:
        with transaction.atomic():
            rows = list(
                Notification.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("game")
                .filter(user=user, email_status=EmailStatus.DIGEST).order_by("created_at")
            )
            if not rows:
                return None
            digest = (Digest.objects.select_for_update()
                      .filter(user=user, local_date=local_date).first())
            if digest is None:
                digest = Digest.objects.create(user=user, local_date=local_date,
                                               count=len(rows), message_id=new_message_id())
            elif (digest.sent_at is not None or digest.attempts >= MAX_ATTEMPTS
                  or (digest.claimed_until is not None and digest.claimed_until > now)):
                return None
            digest.count = len(rows)
            digest.save(update_fields=["count"])
            _claim(digest, now)
    except IntegrityError:  # another worker created the day's digest first
        return None
    return digest, rows


def _digest_deliver(user, local_date, now: datetime) -> str:
    claimed = _digest_claim(user, local_date, now)
    if claimed is None:
        return "nothing to do"
    digest, rows = claimed
    error = None
    try:
        with timezone.override(user.zone):
            message = digest_message(user, rows, now, message_id=digest.message_id)
            get_connection().send_messages([message])
    except Exception as problem:  # any failure is recorded and retried
        error = problem
    if error is not None:
        Digest.objects.filter(pk=digest.pk).update(
            claimed_until=None, last_error=f"{type(error).__name__}: {error}"[:2000])
        raise DeliveryFailed(str(error))
    with transaction.atomic():
        Notification.objects.filter(pk__in=[row.pk for row in rows],
                                    email_status=EmailStatus.DIGEST).update(
            email_status=EmailStatus.SENT, sent_at=now)
        Digest.objects.filter(pk=digest.pk).update(sent_at=now, claimed_until=None)
    return "sent"


# ---- answers to play-by-email messages (notifications/inbound) -----------------------------------


def email_reply_deliver(*, reply_id: int, now: datetime | None = None) -> str:
    """Sends one pending EmailReply (claimed, then sent outside any transaction, with the
    Message-ID written when the answer was); raises DeliveryFailed after recording a failed
    attempt."""
    now = now or timezone.now()
    with transaction.atomic():
        reply = (_claimable(EmailReply.objects.select_for_update(skip_locked=True), now)
                 .filter(pk=reply_id, email_status=EmailStatus.PENDING).first())
        if reply is None:
            return "nothing to do"
        _claim(reply, now)
    headers = dict(reply.headers)
    reply_to = headers.pop("Reply-To", None)
    message = EmailMultiAlternatives(
        subject=reply.subject, body=reply.text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[reply.to], reply_to=[reply_to] if reply_to else None, headers=headers,
    )
    if reply.html:
        message.attach_alternative(reply.html, "text/html")
    return _send_claimed(reply, lambda: message, now)


def pending_email_reply_ids(limit: int = 500) -> list[int]:
    return list(_claimable(EmailReply.objects.filter(email_status=EmailStatus.PENDING),
                           timezone.now())
                .order_by("created_at").values_list("pk", flat=True)[:limit])
