"""Words instead of numbers, and narrowing long lists, with the shipped engines' own texts: a card
name plays the one choice that holds it ("discard altar"); words several choices share ("discard
coins": every discard pays 3 coins) list those choices and play nothing; the "find WORD" hint
of a cut list names a word of the choices it did not show, and using it lists them."""

from __future__ import annotations

import re

import pytest

from games.models import Action
from notifications.inbound.commands import words_of
from notifications.models import InboundMessage
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


def inbound():
    return InboundMessage.objects.order_by("-id").first()


def moves(game):
    return Action.objects.filter(game=game, kind="move").count()


def test_seven_wonders_card_words_play_and_shared_words_list():
    game, users = started("seven_wonders", 3, seed="words-7w")
    player = users[0]
    start = last_mail_to(player)
    choices = numbered_choices(start)
    discards = {n: text for n, text in choices.items() if text.startswith("Discard ")}
    assert len(discards) > 1

    # "discard coins": every discard says "for 3 coins", so the player picks from that list.
    pipe(answer(start, "discard coins"))
    assert (inbound().status, inbound().reason) == ("answered", "find")
    listed = last_mail_to(player)
    assert "Which one?" in listed.body and numbered_choices(listed) == discards
    assert reply_to_of(listed) and moves(game) == 0

    # A card name that only one discard holds plays that discard.
    def unique(number):
        words = set(words_of(discards[number])) - {"discard", "for", "3", "coins"}
        return words and not any(words <= set(words_of(text)) for n, text in discards.items()
                                 if n != number)

    number = next(n for n in sorted(discards) if unique(n))
    card = re.match(r"Discard (.+) for 3 coins", discards[number]).group(1)
    pipe(answer(listed, f"discard {card.lower()}"))
    assert (inbound().status, inbound().reason) == ("applied", "move"), inbound().detail
    assert outcome_of(last_mail_to(player)) == "applied; move"
    action = Action.objects.get(game=game, kind="move")
    assert action.source == "email" and action.payload["type"] == "discard"
    assert f"Played: {discards[number]}" in last_mail_to(player).body


def test_a_cut_list_suggests_a_word_from_the_choices_it_did_not_show(settings):
    settings.EMAIL_PLAY_CHOICES_SHOWN = 20
    game, users = started("stone_age", 2, seed="words-stone-age")
    player = next(user for user in users if reply_to_of(last_mail_to(user)))
    start = last_mail_to(player)
    shown = numbered_choices(start)
    assert len(shown) == 20
    hint = re.search(r'\.\.\. and (\d+) more: reply "more" for the next ones, or a word '
                     r'\(e\.g\. "find (\w+)"\)', start.body)
    assert hint, start.body
    hidden, word = int(hint.group(1)), hint.group(2)
    assert not any(word in words_of(text) for text in shown.values())
    pipe(answer(start, f"find {word}"))
    assert (inbound().status, inbound().reason) == ("answered", "find")
    found = numbered_choices(last_mail_to(player))
    assert found and all(number > 20 for number in found)
    assert all(any(w.startswith(word) for w in words_of(text)) for text in found.values())
    assert len(found) <= hidden and moves(game) == 0
    # The full list's numbers hold in the narrowed list: answering one plays it.
    number = min(found)
    pipe(answer(last_mail_to(player), str(number)))
    assert (inbound().status, inbound().reason) == ("applied", "move")
    assert f"Played: {found[number]}" in last_mail_to(player).body
