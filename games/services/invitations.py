"""Invitations to an open game: a player named by a seated player (who may decline), or anyone
holding the game's signed invite link."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext

from games.exceptions import (
    InvitationError,
    InvitationsThrottled,
    LobbyError,
    NotAllowed,
)
from games.models import Game, GameInvitation, GameStatus, InvitationAttempt, InvitationStatus
from games.selectors import user_by_login
from games.services.access import locked_game, now_or, require_unrestricted
from games.services.lobby import game_join
from games.services.writes import emit

# An invite link is a signed, expiring token naming one game. Whoever holds it may open the
# game's invitation page and join while the game is open and has a free seat, even a private
# game; the game's minimum requirements still apply. The link can be passed on (a group chat, an
# email) and used by several people; it stops working when it expires or the game starts.

INVITE_LINK_SALT = "games.invite-link"


def invite_link_max_age() -> timedelta:
    return timedelta(days=settings.INVITE_LINK_MAX_AGE_DAYS)


def invite_token(game: Game) -> str:
    return signing.dumps({"game": game.pk}, salt=INVITE_LINK_SALT, compress=True)


def invite_path(game: Game) -> str:
    return reverse("games:invite_link", args=[invite_token(game)])


def invite_url(game: Game) -> str:
    return f"{settings.SITE_URL}{invite_path(game)}"


@dataclass(frozen=True)
class InviteLink:
    game: Game
    token: str


def invite_link_open(token: str) -> InviteLink:
    """The game a token names; InvitationError for a tampered, expired or dead link."""
    try:
        data = signing.loads(token, salt=INVITE_LINK_SALT, max_age=invite_link_max_age())
    except signing.SignatureExpired:
        raise InvitationError(gettext("This invite link has expired; ask for a new one.")) from None
    except signing.BadSignature:
        raise InvitationError(gettext("This invite link is not valid; check that it was copied "
                              "whole.")) from None
    game = Game.objects.filter(pk=data.get("game") if isinstance(data, dict) else None).first()
    if game is None:
        raise InvitationError(gettext("This invite link names a game that no longer exists."))
    return InviteLink(game=game, token=token)


def invite_link_join(*, token: str, user) -> Game:
    """Joins the game the link names (the service checks state, seats and requirements)."""
    link = invite_link_open(token)
    return game_join(game_id=link.game.pk, user=user, via_link=True)


# ---------------------------------------------------------------------------------------------
# invitations by name


INVITATION_WINDOW = timedelta(hours=1)
MAX_LOGIN_LENGTH = 254  # the longest email address


def _names_inviter(inviter, login: str) -> bool:
    """Whether `login` is the inviter's own username or email: saying so reveals nothing."""
    own = {inviter.username.casefold(), (inviter.email or "").casefold()} - {""}
    return login.casefold() in own


def _invitation_attempt_count(inviter, now: datetime) -> None:
    """Counts one invitation request against the inviter's hourly limit, or refuses it. The count
    lives in the database (not only a cache), and the inviter's row is locked so that parallel
    requests cannot all slip under the limit."""
    get_user_model().objects.select_for_update().filter(pk=inviter.pk).values_list("pk").get()
    limit = settings.GAME_INVITATIONS_PER_HOUR
    InvitationAttempt.objects.filter(inviter=inviter,
                                     created_at__lte=now - INVITATION_WINDOW).delete()
    recent = list(InvitationAttempt.objects.filter(inviter=inviter)
                  .order_by("created_at").values_list("created_at", flat=True)[:limit])
    if len(recent) >= limit:
        wait = max(recent[0] + INVITATION_WINDOW - now, timedelta(0))
        minutes = max(1, -(-int(wait.total_seconds()) // 60))
        raise InvitationsThrottled(
            gettext(
                "You can send %(limit)s invitations an hour; try again in %(minutes)s minute(s).")
                % {"limit": limit, "minutes": minutes},
            details={"limit": limit, "retry_after_seconds": int(wait.total_seconds())},
        )
    InvitationAttempt.objects.create(inviter=inviter, created_at=now)


def game_invite(*, game_id: int, inviter, login: str, now: datetime | None = None) -> None:
    """A seated player invites someone, named by username or email, to an open game.

    The answer never depends on the person named: whether they have an account, an email
    address or notifications on, are already seated or already invited, the request succeeds
    the same way and counts against the inviter's hourly limit; only a new invitation (one per
    game and invitee) notifies anyone. Errors speak of the inviter and the game alone.

    Writing an invitation and its notification takes a few milliseconds more than naming
    nobody, so a successful call lasts at least GAME_INVITATION_MIN_SECONDS (padded after the
    transaction, no lock held). Refusals are not padded: they never depend on the person named,
    and a throttled client should not hold a worker."""
    started = time.monotonic()
    _game_invite(game_id=game_id, inviter=inviter, login=login, now=now_or(now))
    time.sleep(max(0.0, settings.GAME_INVITATION_MIN_SECONDS - (time.monotonic() - started)))


def _game_invite(*, game_id: int, inviter, login: str, now: datetime) -> None:
    require_unrestricted(inviter)
    login = (login or "").strip()
    if not login or len(login) > MAX_LOGIN_LENGTH:
        raise InvitationError(gettext(
            "Name the player to invite by their username or email address."))
    if _names_inviter(inviter, login):
        raise InvitationError(gettext("You cannot invite yourself."))
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("Only open games take invitations."))
        seated = set(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
        if inviter.pk not in seated:
            raise NotAllowed(gettext("Only players in the game can invite others."))
        if game.seats.count() >= game.num_players:
            raise LobbyError(gettext("This game is full."))
        _invitation_attempt_count(inviter, now)
        invitee = user_by_login(login)
        if invitee is None or invitee.pk in seated:
            return
        invitation, created = GameInvitation.objects.get_or_create(
            game=game, invitee=invitee, defaults={"inviter": inviter, "created_at": now})
        if not created and invitation.status == InvitationStatus.DECLINED:
            # Asked again after a refusal: a new question, told once more.
            invitation.status, invitation.responded_at = InvitationStatus.PENDING, None
            invitation.inviter, invitation.created_at = inviter, now
            invitation.save(update_fields=["status", "responded_at", "inviter", "created_at"])
            created = True
        if created:
            emit(game.pk, "invitation", [], invitee_id=invitee.pk, inviter_id=inviter.pk)


def invitation_decline(*, game_id: int, user, now: datetime | None = None) -> None:
    """The invitee says no; whoever invited them is told. Accepting is joining (game_join)."""
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        invitation = game.invitations.filter(invitee=user).first()
        if invitation is None:
            raise LobbyError(gettext("You have no invitation to this game."))
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("This game has already started."))
        if game.seats.filter(user=user).exists():
            raise LobbyError(gettext("You have already joined this game; leave it instead."))
        if invitation.status == InvitationStatus.DECLINED:
            return
        invitation.status, invitation.responded_at = InvitationStatus.DECLINED, now
        invitation.save(update_fields=["status", "responded_at"])
        emit(game.pk, "invitation_answered", [], inviter_id=invitation.inviter_id,
             invitee_id=user.pk, accepted=False)
