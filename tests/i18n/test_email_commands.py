"""Answering by email in the players' languages: the commands in Persian, Chinese and Italian,
and numbers written in Persian, Arabic-Indic, full-width or Chinese numerals."""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import Action
from notifications.inbound.commands import interpret
from notifications.models import InboundMessage
from tests.factories import started_game
from tests.notifications.email_play import (
    answer,
    confirmed_player,
    last_mail_to,
    numbered_choices,
    outcome_of,
    pipe,
)


@pytest.mark.parametrize(("line", "kind", "number", "words"), [
    # Persian: the commands, Persian digits (۰-۹) and Arabic-Indic ones (٠-٩), politeness.
    ("پاس", "pass", None, ()),
    ("وضعیت", "status", None, ()),
    ("راهنما", "help", None, ()),
    ("؟", "help", None, ()),
    ("بیشتر", "more", None, ()),
    ("بیاب wood", "find", None, ("wood",)),
    ("خودکار روشن", "auto", None, ("on",)),
    ("خودکار خاموش", "auto", None, ("off",)),
    ("دور بینداز ۳", "choose", 3, ("discard",)),
    ("۲", "choose", 2, ()),
    ("۱۲ لطفا", "choose", 12, ()),
    ("لطفاً ٣", "choose", 3, ()),
    ("وضعیت لطفا", "status", None, ()),
    # "پاسخ" (answer) holds "پاس" but is no pass.
    ("پاسخ", "unreadable", None, ()),
    # Chinese: the commands, full-width digits and Chinese numerals.
    ("过", "pass", None, ()),
    ("跳过", "pass", None, ()),
    ("状态", "status", None, ()),
    ("帮助", "help", None, ()),
    ("请帮助", "help", None, ()),
    ("更多，谢谢", "more", None, ()),
    ("下一页", "more", None, ()),
    ("查找 wood", "find", None, ("wood",)),
    ("自动 开", "auto", None, ("on",)),
    ("自动关", "auto", None, ("off",)),
    ("弃牌 3", "choose", 3, ("discard",)),
    ("弃牌三", "choose", 3, ("discard",)),
    ("我选第三个", "choose", 3, ()),
    ("选２", "choose", 2, ()),
    ("十二", "choose", 12, ()),
    ("二十三号", "choose", 23, ()),
    ("〇", "choose", 0, ()),
    ("一百零五", "choose", 105, ()),
    # "看过" (looked at) holds "过" but is no pass.
    ("我看过了", "unreadable", None, ()),
    # Italian: word by word, like English.
    ("passo", "pass", None, ()),
    ("Stato", "status", None, ()),
    ("aiuto", "help", None, ()),
    ("altre", "more", None, ()),
    ("cerca legno", "find", None, ("legno",)),
    ("auto on", "auto", None, ("on",)),
    ("auto spento", "auto", None, ("off",)),
    ("scarta 3", "choose", 3, ("discard",)),
    ("il 2, grazie", "choose", 2, ()),
    # English stays as it was.
    ("pass", "pass", None, ()),
    ("discard 3", "choose", 3, ("discard",)),
])
def test_an_answer_line_in_any_language(line, kind, number, words):
    command = interpret(line)
    assert (command.kind, command.number, command.words) == (kind, number, words)


pytestmark_db = pytest.mark.django_db


def started_for(language):
    return started_game(2, make_user=lambda: confirmed_player(language=language))


@pytestmark_db
def test_a_persian_player_plays_with_persian_digits_and_reads_the_answer_in_persian():
    game, (alice, bob) = started_for("fa")
    start_mail = last_mail_to(bob)
    assert "انتخاب‌های شما:" in start_mail.body
    mail.outbox.clear()
    pipe(answer(start_mail, "۲"))
    action = Action.objects.get(game=game)
    assert (action.seat_number, action.payload) == (1, {"type": "bid", "amount": 2})
    reply = last_mail_to(bob)
    assert outcome_of(reply) == "applied; move"
    assert "بازی شد:" in reply.body and "Played:" not in reply.body


@pytestmark_db
def test_a_chinese_player_asks_for_the_status_and_help_in_chinese():
    game, (alice, bob) = started_for("zh-hans")
    start_mail = last_mail_to(alice)
    pipe(answer(start_mail, "状态"))
    assert InboundMessage.objects.order_by("-id").first().reason == "status"
    assert "轮到你了" in last_mail_to(alice).body  # the headline: "Your move"
    assert numbered_choices(last_mail_to(alice)) == numbered_choices(start_mail)
    pipe(answer(start_mail, "帮助"))
    assert InboundMessage.objects.order_by("-id").first().reason == "help"
    assert "如何通过邮件游戏" in last_mail_to(alice).body and "如何回复" in last_mail_to(alice).body
    assert not Action.objects.filter(game=game).exists()


@pytestmark_db
def test_an_italian_player_chooses_with_a_chinese_numeral_and_turns_auto_off():
    game, (alice, bob) = started_for("it")
    start_mail = last_mail_to(bob)
    assert "Le tue scelte:" in start_mail.body
    pipe(answer(start_mail, "auto spento"))
    assert InboundMessage.objects.order_by("-id").first().reason == "auto"
    pipe(answer(start_mail, "一"))
    action = Action.objects.get(game=game)
    assert action.payload == {"type": "bid", "amount": 1}
