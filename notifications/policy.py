"""Who is told what, and when: the players' choices per kind, quiet hours, the digest's hour,
the grace period of a player who is at it, the signed unsubscribe link, and whether a turn
notice still matters when its time comes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.core import signing

from games.live import presence
from notifications.models import (
    DEFAULT_DELIVERY,
    Delivery,
    EmailStatus,
    Notification,
    NotificationKind,
    NotificationPreference,
)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"

#: What the email channel does with a notice, by the player's choice for its kind.
EMAIL_STATUS_FOR = {
    Delivery.IMMEDIATE: EmailStatus.PENDING,
    Delivery.DIGEST: EmailStatus.DIGEST,
    Delivery.NEVER: EmailStatus.SKIPPED,
}


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


#: Kinds that wait while the player is at it: they would tell a player what they already see.
HELD_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.GAME_STARTED)


def last_own_move(user) -> datetime | None:
    """When the player last moved themselves on the site or through the API, in any game (a move
    by email answer is no sign of being at the page: the next email should not wait)."""
    from games.models import Action, ActionSource

    return (Action.objects.filter(actor=user, source__in=(ActionSource.WEB, ActionSource.API))
            .order_by("-created_at").values_list("created_at", flat=True).first())


def last_turn_email(user, game_id: int, due_at: datetime) -> datetime | None:
    """When the player was last sent (or is about to be sent) a turn email about another game,
    up to the moment this game's turn fell due (`due_at`), unless they answered an email since:
    the turns of a player who is away that fall due within the grace period after it wait and
    go together in the next one, while a player answering by email is not slowed down.

    Only emails that went before the turn fell due count: a turn already waiting is never held
    longer by an email that went after it (its own batch's, or another game's released beside
    it), which would push it back once more at each re-check."""
    from django.db.models import Max, Q
    from django.db.models.functions import Coalesce

    from games.models import Action, ActionSource

    latest = (Notification.objects.filter(user=user, kind__in=HELD_KINDS)
              .filter(Q(email_status=EmailStatus.SENT) | Q(email_status=EmailStatus.PENDING))
              .exclude(game_id=game_id)
              .annotate(told_at=Coalesce("sent_at", "created_at"))
              .filter(told_at__lte=due_at)
              .aggregate(latest=Max("told_at"))["latest"])
    if latest is None or Action.objects.filter(actor=user, source=ActionSource.EMAIL,
                                               created_at__gt=latest).exists():
        return None
    return latest


def hold_until(user, game_id: int, now: datetime,
               due_at: datetime | None = None) -> datetime | None:
    """Until when a turn notice about this game, due since `due_at` (default: now), waits: the
    player's grace period after their own last move (in any game), their last look at this game
    (its page or stream) or their last turn email before it fell due, if that has not passed;
    None when it may go now."""
    grace = timedelta(minutes=user.turn_email_grace_minutes)
    if not grace:
        return None
    moments = [moment for moment in (last_own_move(user),
                                     presence.last_look(user_id=user.pk, game_id=game_id),
                                     last_turn_email(user, game_id, due_at or now))
               if moment is not None]
    until = max(moments) + grace if moments else None
    return until if until is not None and until > now else None


def answered_since(notification: Notification) -> bool:
    """The player moved in the notice's game, or looked at it, after the notice was written:
    they know, and a held notice about it is dropped."""
    from games.models import Action, ActionSource

    if notification.game_id is None:
        return False
    seen = presence.last_look(user_id=notification.user_id, game_id=notification.game_id)
    return (seen is not None and seen > notification.created_at) or Action.objects.filter(
        game_id=notification.game_id, actor_id=notification.user_id,
        source__in=(ActionSource.WEB, ActionSource.API, ActionSource.EMAIL),
        created_at__gt=notification.created_at).exists()


def digest_due(user, now: datetime) -> bool:
    """The player's digest may go now: their chosen local hour has come, outside quiet hours."""
    return now.astimezone(user.zone).hour >= user.digest_hour and not quiet_hours_end(user, now)


def still_relevant(notification: Notification, now: datetime) -> bool:
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


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps([user.pk, kind], salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe(token: str):
    """Turns the kind named in a signed link off. Returns (user, kind); raises BadSignature."""
    from accounts.models import User

    user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    user = User.objects.get(pk=user_id)
    preference_set(user=user, kind=kind, delivery=Delivery.NEVER)
    Notification.objects.filter(user=user, kind=kind, email_status__in=[
        EmailStatus.PENDING, EmailStatus.DIGEST]).update(email_status=EmailStatus.SKIPPED)
    return user, kind
