"""Play by email through `receive_email`: a numbered answer becomes a move (source email) and is
answered with the new state and the next choices; commands answer without moving."""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import Action
from notifications.models import EmailReply, InboundMessage
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


def test_your_turn_email_lists_numbered_choices_and_a_signed_reply_address():
    game, (alice, bob) = started()
    message = last_mail_to(bob)
    assert numbered_choices(message) == {1: "Seat 1 bid 1.", 2: "Seat 1 bid 2.",
                                         3: "Seat 1 bid 3."}
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
    assert "Played: Seat 1 bid 2." in reply.body
    assert reply.extra_headers["Auto-Submitted"] == "auto-replied"
    assert reply_to_of(reply) is None  # not bob's move any more: nothing to answer
    assert InboundMessage.objects.get().action_sequence == 1
    assert EmailReply.objects.get().email_status == "sent"

