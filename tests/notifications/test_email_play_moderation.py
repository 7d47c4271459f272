"""Sanctions hold for email moves as for the web and the API: a suspended or banned player's answer
is refused with a clear reply (why, and no choices or address to answer) and changes nothing; the
games service itself refuses their email-sourced moves; lifting the sanction lets them play."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from games import services as game_services
from games.exceptions import NotAllowed
from games.models import Action, ActionSource
from games.services import moderation
from notifications.models import InboundMessage
from tests.factories import UserFactory
from tests.notifications.email_play import (
    answer,
    last_mail_to,
    numbered_choices,
    outcome_of,
    pipe,
    reply_to_of,
    started,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


def inbound():
    return InboundMessage.objects.order_by("-id").first()


def unchanged(game) -> bool:
    game.refresh_from_db()
    return game.version == 0 and not Action.objects.filter(game=game).exists()


@pytest.mark.parametrize("sanction, phrase", [("suspend", "suspended until"),
                                              ("ban", "banned")])
def test_a_sanctioned_players_email_move_is_refused_and_changes_nothing(moderator, sanction,
                                                                        phrase):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    if sanction == "suspend":
        moderation.user_suspend(moderator=moderator, user=bob, days=2, reason="abuse")
    else:
        moderation.user_ban(moderator=moderator, user=bob, reason="cheating")
    for first_line in ("2", "bid 3", "pass"):
        pipe(answer(start, first_line))
        assert (inbound().status, inbound().reason) == ("refused", "not_allowed"), first_line
        reply = last_mail_to(bob)
        assert outcome_of(reply) == "refused; not_allowed"
        assert "You cannot move in this game now" in reply.body and phrase in reply.body
        assert "Nothing was played" in reply.body
        # No choices to pick and no address to answer: they could not be played.
        assert numbered_choices(reply) == {} and reply_to_of(reply) is None
        assert "It is not your move now" not in reply.body
    assert unchanged(game)
    # "status" still answers (reading is allowed), saying why they cannot move.
    pipe(answer(start, "status"))
    assert (inbound().status, inbound().reason) == ("answered", "status")
    assert phrase in last_mail_to(bob).body and numbered_choices(last_mail_to(bob)) == {}
    # The games service itself refuses an email-sourced move, whatever the email code did.
    with pytest.raises(NotAllowed, match=phrase):
        game_services.game_action_submit(game_id=game.pk, user=bob,
                                         action={"type": "bid", "amount": 2},
                                         expected_version=0, source=ActionSource.EMAIL)
    assert unchanged(game)


def test_after_the_sanction_is_lifted_the_same_email_plays(moderator):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    moderation.user_suspend(moderator=moderator, user=bob, days=2, reason="abuse")
    pipe(answer(start, "2"))
    assert inbound().reason == "not_allowed" and unchanged(game)
    from accounts.models import Sanction

    moderation.sanction_lift(moderator=moderator, sanction=Sanction.objects.get(user=bob),
                             reason="appeal accepted")
    pipe(answer(start, "2"))
    assert (inbound().status, inbound().reason) == ("applied", "move")
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 2}
