"""Writing notifications into the outbox, and turning them into emails.

Rows are written inside the transaction of the game change that caused them (see receivers.py);
delivery happens after commit, in Celery, at once or in the daily digest, outside quiet hours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import make_msgid
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.timesince import timeuntil

from accounts.templatetags.language_tags import localized_digits
from config.celery import publish_after_commit
from games.live import bus
from games.presentation import summaries
from notifications.channels import push, webhooks
from notifications.models import (
    DEFAULT_DELIVERY,
    Delivery,
    Digest,
    EmailStatus,
    Notification,
    NotificationKind,
    NotificationPreference,
)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
MAX_ATTEMPTS = 8
#: Emails whose Reply-To lets the player move by answering (docs/email-play.md).
EMAIL_PLAY_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.REMINDER,
                    NotificationKind.GAME_STARTED)


# ---- preferences and timing ---------------------------------------------------------------------


def delivery_for(user, kind: str) -> str:
    preference = NotificationPreference.objects.filter(user=user, kind=kind).first()
    return preference.delivery if preference else DEFAULT_DELIVERY[kind]


def preference_set(*, user, kind: str, delivery: str) -> None:
    if kind not in NotificationKind.values or delivery not in Delivery.values:
        raise ValueError("unknown notification kind or delivery")
    NotificationPreference.objects.update_or_create(
        user=user, kind=kind, defaults={"delivery": delivery}
    )


def quiet_hours_end(user, moment: datetime) -> datetime | None:
    """If `moment` falls in the player's quiet hours, when they end; otherwise None."""
    start, end = user.quiet_hours_start, user.quiet_hours_end
    if start is None or end is None or start == end:
        return None
    local = moment.astimezone(user.zone)
    hour = local.hour
    inside = start <= hour < end if start < end else (hour >= start or hour < end)
    if not inside:
        return None
    resume = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if resume <= local:
        resume += timedelta(days=1)
    return resume.astimezone(UTC)


# ---- writing ------------------------------------------------------------------------------------


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
        status = {
            Delivery.IMMEDIATE: EmailStatus.PENDING,
            Delivery.DIGEST: EmailStatus.DIGEST,
            Delivery.NEVER: EmailStatus.SKIPPED,
        }[delivery]
        if not user.email:
            status = EmailStatus.SKIPPED
        notifications.append(Notification(
            user=user, kind=notice.kind, game=notice.game, seat_number=notice.seat_number,
            context=notice.context or {}, email_status=status,
            send_after=quiet_hours_end(user, now) or now, message_id=new_message_id(),
            push_status=push.initial_status(has_device=user.pk in with_devices,
                                            delivery=delivery)))
    Notification.objects.bulk_create(notifications)
    from notifications import tasks

    emails = [n.pk for n in notifications if n.email_status == EmailStatus.PENDING]
    if len(emails) == 1:
        publish_after_commit(tasks.deliver_notification, emails[0])
    elif emails:
        publish_after_commit(tasks.deliver_notifications, emails)
    for notification in notifications:
        if notification.push_status == EmailStatus.PENDING:
            publish_after_commit(tasks.deliver_push, notification.pk)
    bus.publish_users_after_commit([(n.user_id, n.pk) for n in notifications])
    webhooks.queue_for_many(notifications)
    return notifications


def new_message_id() -> str:
    return make_msgid(domain="turnpost")


# ---- links --------------------------------------------------------------------------------------


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps([user.pk, kind], salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_url(user, kind: str) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user, kind)]))


def unsubscribe(token: str):
    """Turns the kind named in a signed link off. Returns (user, kind); raises BadSignature."""
    from accounts.models import User

    user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    user = User.objects.get(pk=user_id)
    preference_set(user=user, kind=kind, delivery=Delivery.NEVER)
    Notification.objects.filter(user=user, kind=kind, email_status__in=[
        EmailStatus.PENDING, EmailStatus.DIGEST]).update(email_status=EmailStatus.SKIPPED)
    return user, kind


# ---- rendering ----------------------------------------------------------------------------------


def _still_relevant(notification: Notification, now: datetime) -> bool:
    """A "your turn" or reminder that the player has already answered is not sent."""
    if notification.kind not in (NotificationKind.YOUR_TURN, NotificationKind.REMINDER):
        return True
    game = notification.game
    if game is None or game.status != "active":
        return False
    seat = game.seats.filter(number=notification.seat_number, user=notification.user).first()
    if seat is None or seat.is_bot or seat.deadline_at is None:
        return False
    if notification.kind == NotificationKind.REMINDER:
        return (seat.deadline_at.isoformat() == notification.context.get("deadline_at")
                and seat.deadline_at > now)
    return True


def email_context(notification: Notification, now: datetime) -> dict:
    """JSON-safe facts for the templates, as this player may see them, in their timezone."""
    user = notification.user
    context = {
        "user_name": user.public_name,
        "kind": notification.kind,
        "facts": notification.context,
        "preferences_url": absolute(reverse("notifications:preferences")),
        "unsubscribe_url": unsubscribe_url(user, notification.kind),
        "kind_label": NotificationKind(notification.kind).label,
    }
    game = notification.game
    if game is None:
        return context
    from games.engines.registry import get_engine

    engine = get_engine(game.engine)
    context.update(
        game_id=game.pk,
        game_name=game.title,
        game_url=absolute(reverse("games:detail", args=[game.pk])),
    )
    seat = game.seats.filter(user=user).first()
    if seat is not None and seat.deadline_at is not None:
        # The weekday and month in the reader's language (strftime would write English).
        context["deadline_local"] = localized_digits(date_format(
            timezone.localtime(seat.deadline_at, user.zone), "l d F Y, H:i T"))
        context["time_left"] = localized_digits(timeuntil(seat.deadline_at, now))
    if seat is not None and game.status == "active":
        from notifications.inbound import context as email_play

        choices = email_play.current_choices(game, user)
        context.update(email_play.choices_page(choices))
        if choices and notification.kind in EMAIL_PLAY_KINDS:
            # Answering this email plays: the address is bound to the version just rendered.
            context["reply_address"] = email_play.reply_address_for(game, user, now=now)
        # What the others did since this player last moved, named as on the game page.
        context["what_changed"] = email_play.moves_since_own(game, seat.number)
        context["made_for_you"] = email_play.automatic_since_own(game, seat.number)
    if seat is not None and seat.number is not None and game.state is not None:
        # The game as the page shows it to this seat, from the engine's view for it alone.
        context["game_lines"] = summaries.game_lines(
            game.engine, engine.view(game.state, seat.number), summaries.seat_names(game),
            seat.number)
    if game.result:
        names = {s.number: s.player_name for s in game.seats.all()}
        context["scores"] = [
            {"player": names.get(number, f"Seat {number}"), "points": points,
             "winner": number in game.result["winners"]}
            for number, points in enumerate(game.result["scores"])
        ]
    return context


def recipient_language(user) -> str:
    """The language a player's emails are written in: their choice, else the site's default
    (a worker has no browser to ask)."""
    return user.language or settings.LANGUAGE_CODE


def build_email(notification: Notification, now: datetime) -> EmailMultiAlternatives:
    with translation.override(recipient_language(notification.user)):
        return _build_email(notification, now)


def _build_email(notification: Notification, now: datetime) -> EmailMultiAlternatives:
    context = email_context(notification, now)
    base = f"notifications/email/{notification.kind}"
    return _message(
        user=notification.user,
        kind=notification.kind,
        subject=render_to_string(f"{base}.subject.txt", context),
        text=render_to_string(f"{base}.txt", context),
        html=render_to_string(f"{base}.html", context),
        reply_to=context.get("reply_address") or None,
        message_id=notification.message_id,
    )


def _message(*, user, kind: str, subject: str, text: str, html: str,
             reply_to: str | None = None, message_id: str = "") -> EmailMultiAlternatives:
    unsubscribe = unsubscribe_url(user, kind)
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()),
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        reply_to=[reply_to] if reply_to else None,
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
            "Message-ID": message_id or new_message_id(),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


# ---- delivery ----------------------------------------------------------------------------------
#
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
        if not _still_relevant(notification, now):
            notification.email_status = EmailStatus.SKIPPED
            notification.save(update_fields=["email_status"])
            return "skipped"
        _claim(notification, now)
    with timezone.override(notification.user.zone):
        return _send_claimed(notification, lambda: build_email(notification, now), now)


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
        local = now.astimezone(user.zone)
        if local.hour < user.digest_hour or quiet_hours_end(user, now):
            continue
        try:
            sent += _digest_deliver(user, local.date(), now) == "sent"
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
            message = _digest_message(user, rows, now, message_id=digest.message_id)
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


def _digest_message(user, rows: list[Notification], now: datetime,
                    message_id: str) -> EmailMultiAlternatives:
    with translation.override(recipient_language(user)):
        return _digest_message_in_language(user, rows, now, message_id)


def _digest_message_in_language(user, rows: list[Notification], now: datetime,
                                message_id: str) -> EmailMultiAlternatives:
    items, playable_games, described_games = [], set(), set()
    for row in rows:
        context = email_context(row, now)
        # Each game is drawn once, under its first item, as it stands now.
        describe = row.game_id is not None and row.game_id not in described_games
        described_games.add(row.game_id)
        # Play by email from the digest too: each game awaiting the player lists its
        # choices once, with the reply address bound to its current version.
        play = None
        if context.get("reply_address") and row.game_id not in playable_games:
            playable_games.add(row.game_id)
            play = {key: context[key] for key in (
                "choices", "choices_total", "choices_hidden_after", "reply_address")}
        items.append({
            "kind_label": context["kind_label"],
            "game_name": context.get("game_name", ""),
            "game_url": context.get("game_url", ""),
            "time_left": context.get("time_left", ""),
            "facts": row.context,
            "kind": row.kind,
            "play": play,
            "game_lines": context.get("game_lines", []) if describe else [],
            "what_changed": context.get("what_changed", []) if describe else [],
        })
    plays = [item["play"] for item in items if item["play"]]
    # One game to play: answering the digest plays it. Several: each names its address.
    reply_to = plays[0]["reply_address"] if len(plays) == 1 else None
    context = {
        "user_name": user.public_name, "items": items, "answer_plays": bool(reply_to),
        "preferences_url": absolute(reverse("notifications:preferences")),
        "unsubscribe_url": unsubscribe_url(user, rows[0].kind),
    }
    return _message(
        user=user, kind=rows[0].kind,
        subject=render_to_string("notifications/email/digest.subject.txt", context),
        text=render_to_string("notifications/email/digest.txt", context),
        html=render_to_string("notifications/email/digest.html", context),
        reply_to=reply_to, message_id=message_id,
    )


def mark_read(*, user, notification_ids: list[int] | None = None) -> int:
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_ids is not None:
        rows = rows.filter(pk__in=notification_ids)
    return rows.update(read_at=timezone.now())


# ---- answers to play-by-email messages (notifications/inbound) ----------------------------------


def email_reply_deliver(*, reply_id: int, now: datetime | None = None) -> str:
    """Sends one pending EmailReply (claimed, then sent outside any transaction, with the
    Message-ID written when the answer was); raises DeliveryFailed after recording a failed
    attempt."""
    from notifications.models import EmailReply

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
    from notifications.models import EmailReply

    return list(_claimable(EmailReply.objects.filter(email_status=EmailStatus.PENDING),
                           timezone.now())
                .order_by("created_at").values_list("pk", flat=True)[:limit])


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
