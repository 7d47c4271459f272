"""Play by email through `receive_email`: a numbered answer becomes a move (source email) and is
answered with the new state and the next choices; commands answer without moving; "your turn"
and reminder emails list the choices under a Reply-To bound to the player, game and version."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import services as game_services
from games.models import Action
from games.presentation.texts import entry_text
from notifications import policy
from notifications.channels import email as email_channel
from notifications.inbound import tokens
from notifications.models import EmailReply, InboundMessage
from tests.notifications.email_play import (
    answer,
    committed,
    last_mail_to,
    mails_to,
    numbered_choices,
    outcome_of,
    pipe,
    reply_to_of,
    started,
)

pytestmark = pytest.mark.django_db


def test_your_turn_email_lists_numbered_choices_and_a_signed_reply_address():
    game, (alice, bob) = started()
    message = last_mail_to(bob)
    # Players are named, never "Seat N" (the engine's text says "Seat 1 bid 1.").
    name = bob.public_name
    assert numbered_choices(message) == {1: f"{name} bid 1.", 2: f"{name} bid 2.",
                                         3: f"{name} bid 3."}
    address = reply_to_of(message)
    assert address.startswith("play+") and address.endswith("@turnpost.localhost")
    assert len(address.split("@")[0]) <= 64
    assert "answer this email with the number of your choice" in message.body


def test_a_number_becomes_a_move_and_the_answer_shows_the_new_state():
    game, (alice, bob) = started()
    start_mail = last_mail_to(bob)
    mail.outbox.clear()
    output = pipe(answer(start_mail, "2"))
    assert "applied (move)" in output
    action = Action.objects.get(game=game)
    assert (action.seat_number, action.payload, action.source) == (1, {"type": "bid",
                                                                        "amount": 2}, "email")
    reply = last_mail_to(bob)
    assert outcome_of(reply) == "applied; move"
    assert f"Played: {bob.public_name} bid 2." in reply.body
    assert "Seat" not in reply.body
    assert reply.extra_headers["Auto-Submitted"] == "auto-replied"
    assert reply_to_of(reply) is None  # not bob's move any more: nothing to answer
    assert InboundMessage.objects.get().action_sequence == 1
    assert EmailReply.objects.get().email_status == "sent"



def token_claims(message):
    return tokens.read_token(reply_to_of(message).split("+", 1)[1].split("@")[0])


def test_reminders_and_your_turn_emails_carry_choices_and_a_token_for_player_game_and_version():
    game, (alice, bob) = started()
    claims = token_claims(last_mail_to(bob))
    assert (claims.user_id, claims.game_id, claims.version) == (bob.pk, game.pk, 0)
    pipe(answer(last_mail_to(alice), "1"))  # alice's secret bid: version 1
    game.refresh_from_db()
    later = timezone.now() + timedelta(hours=22)
    with time_machine.travel(later, tick=False):
        mail.outbox.clear()
        with committed():
            game_services.deadlines_sweep(now=later)
        reminder = last_mail_to(bob)
        assert reminder.subject.startswith("Reminder: ")
        assert numbered_choices(reminder) == {amount: f"{bob.public_name} bid {amount}."
                                              for amount in (1, 2, 3)}
        claims = token_claims(reminder)
        assert (claims.user_id, claims.game_id, claims.version) == (bob.pk, game.pk,
                                                                    game.version)
        assert claims.issued_at == later.replace(second=0, microsecond=0)
        assert not mails_to(alice)  # she has moved: no reminder
        pipe(answer(reminder, "3"))
    assert Action.objects.filter(game=game, source="email").count() == 2
    # Both bids are in: whoever moves next gets a "your turn" email bound to the new version.
    game.refresh_from_db()
    mover = next(user for user in (alice, bob)
                 if any(m.subject.startswith("Your move") for m in mails_to(user)))
    turn = next(m for m in reversed(mails_to(mover)) if m.subject.startswith("Your move"))
    claims = token_claims(turn)
    assert (claims.user_id, claims.game_id, claims.version) == (mover.pk, game.pk, game.version)
    assert numbered_choices(turn)


@pytest.mark.parametrize("slug, expected", [
    # 7 Wonders: your hand first, then every city's wonder and coins, players by name.
    ("seven_wonders", [r"^- Your hand \(7\): (?:[A-Z][\w ]+ \([^)]*\); ){6}[A-Z][\w ]+ \(",
                       r"^- You: The [\w ]+ \(\w+\) side [AB], 0 of \d stages built, 3 coins"]),
    # Stone Age and Caverna: every player's people, food and resources by name.
    ("stone_age", [r"^- You(?: \(start player\))?: 0 points, 5 people .*12 food .*0 wood, "
                   r"0 clay, 0 stone, 0 gold"]),
    ("caverna", [r"^- You(?: \(starting player\))?: 2 dwarfs, .*goods: .*food.*, animals: "]),
])
def test_status_shows_what_a_move_depends_on(slug, expected):
    game, users = started(slug, 3, seed=f"status-{slug}")
    player = next(user for user in users if reply_to_of(last_mail_to(user)))
    pipe(answer(last_mail_to(player), "status"))
    body = last_mail_to(player).body
    view = body[body.index("The game as you see it:"):body.index("Your choices:")]
    for pattern in expected:
        assert re.search(pattern, view, flags=re.MULTILINE), (pattern, view)
    others = [user.public_name for user in users if user != player]
    assert all(re.search(rf"^- {name}\b", view, flags=re.MULTILINE) for name in others), view
    assert len(re.findall(r"^- You(?: \(|:)", view, flags=re.MULTILINE)) == 1  # each player once


def test_verb_and_number_does_that_to_what_the_numbered_choice_is_about():
    """"discard 3" where choice 3 builds a card discards that card (7 Wonders lists "Build X" and
    "Discard X for 3 coins" for each card, so the words alone name every discard)."""
    game, players = started("seven_wonders", 3, seed="verb-and-number")
    first = last_mail_to(players[0])
    choices = numbered_choices(first)
    number, build = next((n, text) for n, text in choices.items() if text.startswith("Build "))
    card_name = build.removeprefix("Build ").split(":")[0]
    pipe(answer(first, f"discard {number}"))
    game.refresh_from_db()
    seat = next(s.number for s in game.seats.all() if s.user_id == players[0].pk)
    pick = game.state["picks"][seat]
    assert pick["type"] == "discard"
    assert pick["card"].startswith(card_name.lower().replace(" ", "_"))
    played = Action.objects.get(game=game, sequence=game.version)
    own = entry_text(played, played.seat_number, language="en")
    assert played.source == "email" and card_name in own
    assert "Discard" in own


def test_verb_and_number_without_such_an_action_plays_nothing():
    game, players = started("seven_wonders", 3, seed="verb-and-number")
    first = last_mail_to(players[0])
    pipe(answer(first, "wonder 1"))  # no wonder stage is affordable on the first turn here
    assert not Action.objects.filter(game=game, source="email").exists()
    assert outcome_of(last_mail_to(players[0])) == "refused; unreadable"


def digest_player():
    from tests.notifications.email_play import confirmed_player

    player = confirmed_player(digest_hour=0, timezone="UTC")
    for kind in ("game_started", "your_turn", "reminder"):
        policy.preference_set(user=player, kind=kind, delivery="digest")
    return player


def start_with(player, opponent):
    game = game_services.game_create(creator=opponent, engine_slug="toy", num_players=2)
    game_services.game_join(game_id=game.pk, user=player)
    with committed():
        return game_services.game_start(game_id=game.pk, user=opponent)


def test_a_digest_lists_the_choices_and_answering_it_plays():
    from tests.notifications.email_play import confirmed_player

    player, opponent = digest_player(), confirmed_player()
    game = start_with(player, opponent)
    assert mails_to(player) == []
    assert email_channel.digests_send(now=timezone.now()) == 1
    digest = last_mail_to(player)
    assert numbered_choices(digest) and "answer this email" in digest.body
    claims = tokens.read_token(tokens.token_from_addresses([reply_to_of(digest)]))
    assert (claims.user_id, claims.game_id, claims.version) == (player.pk, game.pk, game.version)
    pipe(answer(digest, "1"))
    assert outcome_of(last_mail_to(player)) == "applied; move"
    assert Action.objects.get(game=game, kind="move").source == "email"


def test_a_digest_of_several_games_names_each_games_address():
    from tests.notifications.email_play import confirmed_player

    player = digest_player()
    games = [start_with(player, confirmed_player()) for _ in range(2)]
    assert email_channel.digests_send(now=timezone.now()) == 1
    digest = last_mail_to(player)
    assert reply_to_of(digest) is None
    addresses = re.findall(r"write to (\S+) with the number", digest.body)
    claimed = {tokens.read_token(tokens.token_from_addresses([address])).game_id
               for address in addresses}
    assert claimed == {game.pk for game in games}
