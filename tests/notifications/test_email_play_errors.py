"""Bad answers lose nothing and explain themselves, and never change a game wrongly: unknown,
forged and expired tokens, a stale version, a stranger's address, an illegal or unreadable
choice, a finished game, a replayed Message-ID, automatic mail and bounces."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import services as game_services
from games.models import Action, Game, Seat
from notifications.inbound import tokens
from notifications.models import EmailReply, InboundMessage
from tests.notifications.email_play import (
    answer,
    committed,
    confirmed_player,
    last_mail_to,
    mails_to,
    numbered_choices,
    outcome_of,
    pipe,
    reply_to_of,
    started,
)

pytestmark = pytest.mark.django_db


def inbound():
    return InboundMessage.objects.order_by("-id").first()


def versions(game):
    game.refresh_from_db()
    return game.version, Action.objects.filter(game=game).count()


def test_unknown_and_forged_tokens_get_a_reply_that_reveals_nothing():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    token = reply_to_of(start).split("+", 1)[1].split("@")[0]
    forged = token[:-1] + ("a" if token[-1] != "a" else "b")
    for to in ("play@turnpost.localhost", f"play+{forged}@turnpost.localhost",
               "play+nonsense@turnpost.localhost"):
        mail.outbox.clear()
        pipe(answer(start, "2", to=to))
        assert (inbound().status, inbound().reason) == ("refused", "unknown_token")
        (reply,) = mail.outbox
        assert reply.to == [bob.email] and outcome_of(reply) == "refused; unknown_token"
        assert "Toy" not in reply.body and "Seat" not in reply.body
    assert versions(game) == (0, 0)


def test_a_token_bound_to_another_player_cannot_be_used_by_them():
    game, (alice, bob) = started()
    pipe(answer(last_mail_to(bob), "2", sender=alice.email))
    assert (inbound().status, inbound().reason) == ("refused", "wrong_sender")
    reply = mail.outbox[-1]
    assert reply.to == [alice.email] and bob.email not in reply.body
    assert versions(game) == (0, 0)


def test_a_stranger_and_an_unconfirmed_address_are_refused_without_an_answer():
    """Refusals are mailed only to confirmed accounts' addresses: a stranger (or a forged From)
    gets nothing back, the refusal is recorded all the same."""
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    mail.outbox.clear()
    pipe(answer(start, "2", sender="mallory@evil.example"))
    assert (inbound().status, inbound().reason) == ("refused", "wrong_sender")
    assert "not answered" in inbound().detail
    assert mail.outbox == [] and not EmailReply.objects.exists()
    # Bob changes his address to one he has not confirmed yet: his old email no longer plays.
    bob.email = "bob-new@example.com"
    bob.save()
    pipe(answer(start, "2", sender="bob-new@example.com"))
    assert (inbound().status, inbound().reason) == ("refused", "wrong_sender")
    assert mail.outbox == [] and versions(game) == (0, 0)


def test_unconfirmed_players_get_choices_but_no_reply_address():
    from tests.factories import UserFactory

    alice, bob = confirmed_player(), UserFactory()
    game = game_services.game_create(creator=alice, engine_slug="toy", num_players=2)
    game_services.game_join(game_id=game.pk, user=bob)
    with committed():
        game_services.game_start(game_id=game.pk, user=alice)
    assert reply_to_of(last_mail_to(alice)) is not None
    unconfirmed = last_mail_to(bob)
    assert numbered_choices(unconfirmed) and reply_to_of(unconfirmed) is None
    assert "answer this email" not in unconfirmed.body


def test_an_expired_token_plays_nothing_and_sends_the_current_choices(settings):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    later = timezone.now() + timedelta(days=settings.EMAIL_PLAY_TOKEN_MAX_AGE_DAYS, hours=1)
    with time_machine.travel(later, tick=False):
        pipe(answer(start, "2"))
    assert (inbound().status, inbound().reason) == ("refused", "expired_token")
    reply = last_mail_to(bob)
    assert "too old" in reply.body and numbered_choices(reply)
    assert reply_to_of(reply) and reply_to_of(reply) != reply_to_of(start)
    assert versions(game) == (0, 0)
    # The fresh address in that answer works.
    pipe(answer(reply, "1"))
    assert inbound().reason == "move" and versions(game) == (1, 1)


def test_a_stale_version_explains_what_changed_and_offers_the_current_choices():
    game, (alice, bob) = started()
    for user, amount in ((alice, 1), (bob, 2)):
        pipe(answer(last_mail_to(user), str(amount)))
    game.refresh_from_db()
    assert game.state["phase"] == "play"  # both bids in and resolved: seat 0 banks or rolls
    stale_start = mails_to(alice)[0]  # the "game started" email, offering bids
    before = versions(game)
    pipe(answer(stale_start, "1"))
    assert (inbound().status, inbound().reason) == ("refused", "stale_version")
    reply = last_mail_to(alice)
    assert "moved on" in reply.body and "Bids revealed" in reply.body
    assert numbered_choices(reply) == {1: f"{alice.public_name} banked 1 point.",
                                      2: f"{alice.public_name} rolled the die."}
    assert versions(game) == before
    pipe(answer(reply, "1"))
    assert inbound().reason == "move"
    assert Action.objects.filter(game=game).last().payload == {"type": "bank"}


def test_an_older_email_still_plays_when_the_players_choices_did_not_change():
    game, (alice, bob) = started()
    pipe(answer(last_mail_to(alice), "3"))
    # Bob answers the start email (version 0); the game is at version 1 but alice's secret bid
    # did not change what bob may choose, so his answer means the same move.
    pipe(answer(mails_to(bob)[0], "2"))
    assert (inbound().status, inbound().reason) == ("applied", "move")
    assert "your choices were exactly the ones" in last_mail_to(bob).body
    bids = [a.payload for a in Action.objects.filter(game=game, kind="move").order_by("sequence")]
    assert bids == [{"type": "bid", "amount": 3}, {"type": "bid", "amount": 2}]


def test_illegal_and_unreadable_choices_are_explained_with_the_choices():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    for first_line, reason, phrase in (("7", "illegal_choice", "no choice 7"),
                                       ("0", "illegal_choice", "no choice 0"),
                                       ("I think I will go with the second one", "unreadable",
                                        "could not read"),
                                       ("", "unreadable", "no text of its own"),
                                       ("pass", "illegal_choice", "cannot pass")):
        pipe(answer(start, first_line))
        assert (inbound().status, inbound().reason) == ("refused", reason), first_line
        reply = last_mail_to(bob)
        assert phrase in reply.body and len(numbered_choices(reply)) == 3
        assert reply_to_of(reply)
    assert versions(game) == (0, 0)


def test_words_play_a_unique_match_and_list_several():
    game, (alice, bob) = started()
    pipe(answer(last_mail_to(bob), "bid"))  # all three choices say "bid"
    assert (inbound().status, inbound().reason) == ("answered", "find")
    listed = last_mail_to(bob)
    assert "Which one?" in listed.body and len(numbered_choices(listed)) == 3
    pipe(answer(listed, "bid 3"))
    assert inbound().reason == "move"
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 3}


def test_more_and_find_narrow_a_long_list(settings):
    settings.EMAIL_PLAY_CHOICES_SHOWN = 2
    game, (alice, bob) = started()
    start = last_mail_to(bob)

    def bids(*amounts):
        return {amount: f"{bob.public_name} bid {amount}." for amount in amounts}

    assert numbered_choices(start) == bids(1, 2)
    assert "and 1 more" in start.body and 'reply "more"' in start.body
    pipe(answer(start, "more"))
    page = last_mail_to(bob)
    assert (inbound().status, inbound().reason) == ("answered", "more")
    assert numbered_choices(page) == bids(3)
    pipe(answer(page, "more"))  # past the end: back to the start
    assert numbered_choices(last_mail_to(bob)) == bids(1, 2)
    pipe(answer(start, "find 3"))
    found = last_mail_to(bob)
    assert numbered_choices(found) == bids(3) and 'matching "3"' in found.body
    pipe(answer(found, "3"))  # numbers are the full list's numbers wherever they are shown
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 3}


def test_status_and_help_answer_without_moving():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    pipe(answer(start, "status"))
    assert (inbound().status, inbound().reason) == ("answered", "status")
    status = last_mail_to(bob)
    assert "The game as you see it" in status.body
    assert f"- Bids: {alice.public_name} –, You –" in status.body
    pipe(answer(start, "help"))
    help_mail = last_mail_to(bob)
    assert "find WORD" in help_mail.body and numbered_choices(help_mail)
    assert versions(game) == (0, 0)


def test_hidden_information_stays_hidden_in_answers():
    game, (alice, bob) = started()
    pipe(answer(last_mail_to(alice), "3"))
    pipe(answer(mails_to(bob)[0], "status"))
    body = last_mail_to(bob).body
    assert f"- Bids: {alice.public_name} hidden, You –" in body
    shown = body.split("Your choices:")[0]  # the choices are bob's own bids
    assert f"{alice.public_name} bid 3" not in shown and "Seat 0" not in shown
    assert f"{alice.public_name} placed a secret bid." in body


def test_not_your_turn_and_a_bot_in_your_seat():
    game, (alice, bob) = started()
    pipe(answer(last_mail_to(bob), "1"))
    pipe(answer(mails_to(bob)[0], "2"))  # bob has bid; he has no decision to make now
    assert (inbound().status, inbound().reason) == ("refused", "not_your_turn")
    assert versions(game) == (1, 1)
    with committed():
        game_services.seat_hand_to_bot(game_id=game.pk, seat_number=0)
    pipe(answer(mails_to(alice)[0], "1"))
    assert inbound().reason in ("not_allowed", "stale_version", "game_over")
    assert Action.objects.filter(game=game, seat_number=0, source="email").count() == 0


def test_a_finished_game_answers_with_the_result():
    game, (alice, bob) = started(options={"rounds": 1})
    start_bob = last_mail_to(bob)
    for user, line in ((alice, "1"), (bob, "2")):
        pipe(answer(last_mail_to(user), line))
    pipe(answer(last_mail_to(alice), "1"))
    pipe(answer(last_mail_to(bob), "1"))
    game.refresh_from_db()
    assert game.status == "finished"
    before = versions(game)
    pipe(answer(start_bob, "1"))
    assert (inbound().status, inbound().reason) == ("refused", "game_over")
    assert "Result:" in last_mail_to(bob).body and reply_to_of(last_mail_to(bob)) is None
    pipe(answer(start_bob, "status"))
    assert (inbound().status, inbound().reason) == ("answered", "status")
    assert versions(game) == before


def test_a_replayed_message_id_is_played_once_and_answered_once():
    game, (alice, bob) = started()
    raw = answer(last_mail_to(bob), "2", message_id="<same-id@mail.example.com>")
    pipe(raw)
    sent = len(mail.outbox)
    pipe(raw)
    pipe(raw)
    assert versions(game) == (1, 1)
    original = InboundMessage.objects.get()
    assert original.duplicates == 2 and original.status == "applied"
    assert len(mail.outbox) == sent + 1  # one "we already had this", then silence
    assert outcome_of(mail.outbox[-1]) == "duplicate; duplicate"
    assert "already" in mail.outbox[-1].body
    assert mail.outbox[-1].subject == "Turnpost: we already had this email"


@pytest.mark.parametrize("headers, reason", [
    ("Auto-Submitted: auto-replied\r\n", "auto_reply"),
    ("Precedence: bulk\r\n", "auto_reply"),
    ("Precedence: auto_reply\r\n", "auto_reply"),
    ("Return-Path: <>\r\n", "bounce"),
    ("X-Spam-Flag: YES\r\n", "spam"),
    ("X-Spam-Status: Yes, score=9.3 required=5.0 tests=BAYES_99\r\n", "spam"),
])
def test_automatic_mail_is_dropped_silently(headers, reason):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    mail.outbox.clear()
    pipe(answer(start, "2", extra_headers=headers))
    assert (inbound().status, inbound().reason) == ("dropped", reason)
    assert mail.outbox == [] and versions(game) == (0, 0)


def test_mailer_daemon_bounce_is_dropped():
    game, (alice, bob) = started()
    token_address = reply_to_of(last_mail_to(bob))
    mail.outbox.clear()
    raw = (f"From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.com>\r\nTo: {token_address}"
           "\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <b1@mx>\r\n\r\n"
           "2\r\n").encode()
    pipe(raw)
    assert (inbound().status, inbound().reason) == ("dropped", "bounce") and mail.outbox == []


def test_refusals_to_one_address_are_throttled(settings):
    settings.EMAIL_PLAY_REFUSALS_PER_HOUR = 2
    game, (alice, bob) = started()
    for _ in range(4):
        pipe(answer(last_mail_to(bob), "99", to="play+bogus@turnpost.localhost"))
    reasons = list(InboundMessage.objects.order_by("id").values_list("reason", flat=True))
    assert reasons == ["unknown_token", "unknown_token", "throttled", "throttled"]
    assert EmailReply.objects.count() == 2


def test_the_envelope_recipient_is_enough_when_headers_lost_the_token():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = answer(start, "2", to="Turnpost <play@turnpost.localhost>")
    pipe(raw, recipient=reply_to_of(start))
    assert inbound().reason == "move"


def test_a_move_that_became_illegal_meanwhile_is_refused_not_misapplied():
    """The version check guards numbers: after the game moved, "1" is not blindly re-read against
    the new list (stale version), and the service refuses a move that is no longer legal."""
    game, (alice, bob) = started(options={"rounds": 1})
    pipe(answer(last_mail_to(alice), "1"))
    pipe(answer(last_mail_to(bob), "1"))
    seat = Seat.objects.get(game=game, number=0)
    assert seat.deadline_at is not None
    old = mails_to(bob)[0]
    pipe(answer(old, "1"))
    assert inbound().reason in ("not_your_turn", "stale_version")
    assert Game.objects.get(pk=game.pk).version == versions(game)[0]
    assert tokens.read_token(reply_to_of(last_mail_to(alice)).split("+")[1].split("@")[0])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_answers_processed_at_the_same_moment_play_one_move():
    """Two different answers to the same email arrive together (two webhook deliveries, two MTA
    pipes): the game row lock and the version make exactly one of them a move."""
    import threading

    from django.db import connection

    from notifications.inbound.services import inbound_email_receive

    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raws = [answer(start, "1"), answer(start, "3")]
    barrier = threading.Barrier(len(raws))
    errors = []

    def receive(raw):
        try:
            barrier.wait(timeout=30)
            inbound_email_receive(raw=raw, channel="pipe")
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=receive, args=(raw,)) for raw in raws]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    outcomes = sorted(InboundMessage.objects.values_list("status", "reason"))
    assert outcomes[0] == ("applied", "move")
    assert outcomes[1] in (("refused", "stale_version"), ("refused", "not_your_turn"))
    assert Action.objects.filter(game=game, seat_number=1).count() == 1
    assert Game.objects.get(pk=game.pk).version == 1


def test_with_email_play_switched_off_answers_play_nothing(settings):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    settings.EMAIL_PLAY_ADDRESS = ""
    pipe(answer(start, "2"))
    assert (inbound().status, inbound().reason) == ("refused", "disabled")
    assert "switched off" in last_mail_to(bob).body and versions(game) == (0, 0)
    # New emails list the choices without a reply address.
    with committed():
        game_services.game_action_submit(game_id=game.pk, user=alice,
                                         action={"type": "bid", "amount": 1},
                                         expected_version=0)
        game_services.game_action_submit(game_id=game.pk, user=bob,
                                         action={"type": "bid", "amount": 2},
                                         expected_version=1)
    turn = next(m for m in reversed(mail.outbox) if m.subject.startswith("Your move"))
    assert numbered_choices(turn) and reply_to_of(turn) is None
