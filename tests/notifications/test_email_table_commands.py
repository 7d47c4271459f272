"""An answer to a lobby email (an invitation, "your game is full") types its first line in the
game's chat: "/join" seats the invited player, "/start" starts the game, a refusal is the
button's own, and the answer mail carries the table's line in the player's language."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import ChatMessage, Game, GameStatus
from notifications.models import InboundMessage
from tests.notifications.email_play import (
    answer,
    committed,
    confirmed_player,
    last_mail_to,
    outcome_of,
    pipe,
    reply_to_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def instant_invitations(settings):
    settings.GAME_INVITATION_MIN_SECONDS = 0


def invited_table(**invitee):
    anna = confirmed_player(username="anna")
    bruno = confirmed_player(username="bruno", **invitee)
    game = game_services.game_create(creator=anna, engine_slug="toy", num_players=2)
    with committed():
        game_services.game_invite(game_id=game.pk, inviter=anna, login="bruno")
    return game, anna, bruno


def test_join_by_answering_the_invitation_then_start_by_answering_the_full_table_email():
    game, anna, bruno = invited_table()
    invitation = last_mail_to(bruno)
    assert reply_to_of(invitation).startswith("play+")
    assert "/join takes a seat" in invitation.body

    pipe(answer(invitation, "/join"))
    assert game.seats.filter(user=bruno).exists()
    reply = last_mail_to(bruno)
    assert "bruno joined the table." in reply.body
    assert outcome_of(reply) == "answered; chat_joined"

    full = last_mail_to(anna)  # "every seat is taken"
    assert reply_to_of(full).startswith("play+")
    pipe(answer(full, "/START"))
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
    assert "anna started the game." in [line.text() for line in ChatMessage.objects.all()]
    assert InboundMessage.objects.filter(user=anna, reason="chat_started").exists()


def test_a_refused_command_by_email_is_the_buttons_refusal_in_the_players_language():
    game, anna, bruno = invited_table(language="it")
    carla = confirmed_player()
    game_services.game_join(game_id=game.pk, user=carla)  # the table is full now
    pipe(answer(last_mail_to(bruno), "/entra"))
    assert not game.seats.filter(user=bruno).exists()
    reply = last_mail_to(bruno)
    assert outcome_of(reply) == "refused; chat_refused"
    assert "/entra rifiutato: Questa partita è al completo." in reply.body


def test_an_answer_that_is_no_command_gets_the_table_help_and_posts_nothing():
    game, anna, bruno = invited_table()
    pipe(answer(last_mail_to(bruno), "Sounds fun, count me in!"))
    assert not game.seats.filter(user=bruno).exists()
    assert "Commands before the game starts" in last_mail_to(bruno).body
    assert not ChatMessage.objects.filter(kind="message").exists()
