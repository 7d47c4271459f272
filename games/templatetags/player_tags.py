"""The game page's part about people: the invitation waiting for the viewer, the invite link to
copy, the rematch, the game's terms (rated, requirements) and links to the players' profiles."""

from __future__ import annotations

from django import template

from games.models import GameStatus, InvitationStatus
from games.services import invitations as invites
from games.services import ratings

register = template.Library()


@register.filter
def will_be_rated(game) -> bool:
    """{% if game|will_be_rated %}: "Rated" only on a game that will change ratings."""
    return ratings.will_be_rated(game)


@register.inclusion_tag("players/_game_panel.html", takes_context=True)
def game_players_panel(context, game):
    user = context["request"].user
    seats = list(game.seats.all())
    seated = user.is_authenticated and any(seat.user_id == user.pk for seat in seats)
    invitation = None
    if user.is_authenticated and not seated and game.status == GameStatus.OPEN:
        invitation = game.invitations.filter(invitee=user, status=InvitationStatus.PENDING).first()
    rematch = getattr(game, "rematch", None) if game.status == GameStatus.FINISHED else None
    return {
        "request": context["request"],
        "csrf_token": context.get("csrf_token"),
        "game": game,
        "seats": seats,
        "rated": ratings.will_be_rated(game, seats),
        "invitation": invitation,
        "invite_url": invites.invite_url(game) if seated and game.status == GameStatus.OPEN
        else None,
        "invite_days": invites.invite_link_max_age().days,
        # Who was asked and what they answered, for the players of an open game.
        "invited": list(game.invitations.select_related("invitee").exclude(
            status=InvitationStatus.ACCEPTED)) if seated and game.status == GameStatus.OPEN
        else [],
        "can_rematch": seated and game.status == GameStatus.FINISHED,
        "rematch": rematch,
        "replay_url": "?version=0" if game.status == GameStatus.FINISHED else None,
    }
