"""Writing notifications into the outbox, and turning them into emails.

Rows are written inside the transaction of the game change that caused them (see receivers.py);
delivery happens after commit, in Celery, at once or in the daily digest, outside quiet hours.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import make_msgid

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil

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


def notify(*, user, kind: str, game=None, seat_number: int | None = None,
           context: dict | None = None, now: datetime | None = None) -> Notification:
    """Writes one notification in the current transaction; delivery is queued on commit."""
    now = now or timezone.now()
    delivery = delivery_for(user, kind)
    status = {
        Delivery.IMMEDIATE: EmailStatus.PENDING,
        Delivery.DIGEST: EmailStatus.DIGEST,
        Delivery.NEVER: EmailStatus.SKIPPED,
    }[delivery]
    if not user.email:
        status = EmailStatus.SKIPPED
    notification = Notification.objects.create(
        user=user, kind=kind, game=game, seat_number=seat_number, context=context or {},
        email_status=status, send_after=quiet_hours_end(user, now) or now,
    )
    if status == EmailStatus.PENDING:
        from notifications import tasks

        transaction.on_commit(lambda: tasks.deliver_notification.delay(notification.pk))
    return notification


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
        game_name=f"{engine.name} #{game.pk}",
        game_url=absolute(reverse("games:detail", args=[game.pk])),
    )
    seat = game.seats.filter(user=user).first()
    if seat is not None and seat.deadline_at is not None:
        context["deadline_local"] = timezone.localtime(seat.deadline_at, user.zone).strftime(
            "%A %d %B %Y, %H:%M %Z"
        )
        context["time_left"] = timeuntil(seat.deadline_at, now)
    if seat is not None and game.status == "active":
        from notifications.inbound import context as email_play

        choices = email_play.current_choices(game, user)
        context.update(email_play.choices_page(choices))
        if choices and notification.kind in EMAIL_PLAY_KINDS:
            # Answering this email plays: the address is bound to the version just rendered.
            context["reply_address"] = email_play.reply_address_for(game, user, now=now)
        viewer = seat.number
        recent = game.actions.order_by("-sequence")[:6]
        context["what_changed"] = [entry.description_for(viewer) for entry in reversed(recent)]
    if game.result:
        names = {s.number: s.player_name for s in game.seats.all()}
        context["scores"] = [
            {"player": names.get(number, f"Seat {number}"), "points": points,
             "winner": number in game.result["winners"]}
            for number, points in enumerate(game.result["scores"])
        ]
    return context


def build_email(notification: Notification, now: datetime) -> EmailMultiAlternatives:
    context = email_context(notification, now)
    base = f"notifications/email/{notification.kind}"
    return _message(
        user=notification.user,
        kind=notification.kind,
        subject=render_to_string(f"{base}.subject.txt", context),
        text=render_to_string(f"{base}.txt", context),
        html=render_to_string(f"{base}.html", context),
        reply_to=context.get("reply_address") or None,
    )


def _message(*, user, kind: str, subject: str, text: str, html: str,
             reply_to: str | None = None) -> EmailMultiAlternatives:
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
            "Message-ID": make_msgid(domain="turnpost"),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


# ---- delivery -----------------------------------------------------------------------------------


class DeliveryFailed(Exception):
    """Sending failed; the task retries with backoff."""


def deliver(*, notification_id: int, now: datetime | None = None) -> str:
    """Sends one pending notification if its time has come. Returns what happened; raises
    DeliveryFailed (after recording the attempt) so that the Celery task retries with backoff."""
    now = now or timezone.now()
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
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
        with timezone.override(notification.user.zone):
            failure = _send_attempt(notification, lambda: build_email(notification, now), now)
    if failure is not None:
        raise failure
    return "sent" if notification.email_status == EmailStatus.SENT else "failed"


def _send_attempt(row, build_message, now: datetime) -> DeliveryFailed | None:
    """One send of a locked outbox row (a Notification or an EmailReply): counts the attempt and
    records the outcome on the row. Returns the error for the caller to raise once the record
    is committed (so the task retries), or None when sent or out of attempts."""
    row.attempts += 1
    failure = None
    try:
        get_connection().send_messages([build_message()])
    except Exception as error:
        row.last_error = f"{type(error).__name__}: {error}"[:2000]
        if row.attempts >= MAX_ATTEMPTS:
            row.email_status = EmailStatus.FAILED
        else:
            failure = DeliveryFailed(row.last_error)
    else:
        row.email_status = EmailStatus.SENT
        row.sent_at = now
    row.save(update_fields=["attempts", "last_error", "email_status", "sent_at"])
    return failure


def pending_ids(now: datetime, limit: int = 500) -> list[int]:
    return list(
        Notification.objects.filter(email_status=EmailStatus.PENDING, send_after__lte=now)
        .order_by("send_after").values_list("pk", flat=True)[:limit]
    )


def digests_send(*, now: datetime | None = None) -> int:
    """One email per player with everything waiting for the digest, once a local day, from the
    player's chosen hour on."""
    from accounts.models import User

    now = now or timezone.now()
    sent = 0
    users = User.objects.filter(notifications__email_status=EmailStatus.DIGEST).distinct()
    for user in users:
        local = now.astimezone(user.zone)
        if local.hour < user.digest_hour or quiet_hours_end(user, now):
            continue
        if Digest.objects.filter(user=user, local_date=local.date()).exists():
            continue
        with transaction.atomic():
            rows = list(
                Notification.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("game")
                .filter(user=user, email_status=EmailStatus.DIGEST).order_by("created_at")
            )
            if not rows:
                continue
            items, playable_games = [], set()
            for row in rows:
                context = email_context(row, now)
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
                })
            plays = [item["play"] for item in items if item["play"]]
            # One game to play: answering the digest plays it. Several: each names its address.
            reply_to = plays[0]["reply_address"] if len(plays) == 1 else None
            context = {
                "user_name": user.public_name, "items": items, "answer_plays": bool(reply_to),
                "preferences_url": absolute(reverse("notifications:preferences")),
                "unsubscribe_url": unsubscribe_url(user, rows[0].kind),
            }
            with timezone.override(user.zone):
                message = _message(
                    user=user, kind=rows[0].kind,
                    subject=render_to_string("notifications/email/digest.subject.txt", context),
                    text=render_to_string("notifications/email/digest.txt", context),
                    html=render_to_string("notifications/email/digest.html", context),
                    reply_to=reply_to,
                )
                get_connection().send_messages([message])
            Notification.objects.filter(pk__in=[row.pk for row in rows]).update(
                email_status=EmailStatus.SENT, sent_at=now
            )
            Digest.objects.create(user=user, local_date=local.date(), count=len(rows))
            sent += 1
    return sent


def mark_read(*, user, notification_ids: list[int] | None = None) -> int:
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_ids is not None:
        rows = rows.filter(pk__in=notification_ids)
    return rows.update(read_at=timezone.now())


# ---- answers to play-by-email messages (notifications/inbound) ----------------------------------


def email_reply_deliver(*, reply_id: int, now: datetime | None = None) -> str:
    """Sends one pending EmailReply; raises DeliveryFailed after recording a failed attempt."""
    from notifications.models import EmailReply

    now = now or timezone.now()
    with transaction.atomic():
        reply = (EmailReply.objects.select_for_update(skip_locked=True)
                 .filter(pk=reply_id, email_status=EmailStatus.PENDING).first())
        if reply is None:
            return "nothing to do"
        headers = dict(reply.headers)
        reply_to = headers.pop("Reply-To", None)
        message = EmailMultiAlternatives(
            subject=reply.subject, body=reply.text, from_email=settings.DEFAULT_FROM_EMAIL,
            to=[reply.to], reply_to=[reply_to] if reply_to else None, headers=headers,
        )
        if reply.html:
            message.attach_alternative(reply.html, "text/html")
        failure = _send_attempt(reply, lambda: message, now)
    if failure is not None:
        raise failure
    return "sent" if reply.email_status == EmailStatus.SENT else "failed"


def pending_email_reply_ids(limit: int = 500) -> list[int]:
    from notifications.models import EmailReply

    return list(EmailReply.objects.filter(email_status=EmailStatus.PENDING)
                .order_by("created_at").values_list("pk", flat=True)[:limit])
