"""Invite links: a signed, expiring token naming one game. Whoever holds it may open the game's
invitation page and join while the game is open and has a free seat, even a private game; the
game's minimum requirements still apply. The link can be passed on (a group chat, an email) and
used by several people; it stops working when it expires or the game starts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext

from games.exceptions import InvitationError
from games.models import Game

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
    from games import services

    link = invite_link_open(token)
    return services.game_join(game_id=link.game.pk, user=user, via_link=True)
