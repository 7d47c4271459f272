"""Real mail clients' answers to a turn email (tests/notifications/replies): every case goes
through `manage.py receive_email` against a started game and must come out as its corpus says
(played the right choice, asked about, refused, or dropped silently). No quoted attribution,
header block or out-of-office text may ever play a move. Also the reading rules on their own:
attributions in many languages, normalised answers, ambiguity, greetings and PGP armour."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from django.core import mail

from games.models import Action
from notifications.inbound.commands import interpret
from notifications.inbound.parsing import own_lines
from notifications.models import InboundMessage
from tests.notifications.email_play import (
    answer,
    last_mail_to,
    mails_to,
    numbered_choices,
    outcome_of,
    pipe,
    reply_to_of,
    started,
)
from tests.notifications.replies import clients
from tests.notifications.replies.corpus import ASKED, CASES, DROPPED, PLAYED, REFUSED, Case

pytestmark = pytest.mark.django_db


def _original(turn, player) -> clients.Original:
    return clients.Original(subject=turn.subject, text=turn.body, address=reply_to_of(turn),
                            sender=player.email)


def build(case: Case, original: clients.Original, player_name: str = "") -> bytes:
    if case.report:
        # A read receipt comes from the player's own address; a bounce from the mail system.
        sender = (f"Bob <{original.sender}>" if case.report == "disposition-notification"
                  else "Mail Delivery System <MAILER-DAEMON@mx.example.net>")
        return clients.delivery_report(original, report_type=case.report, sender=sender)
    subject = case.subject.format(subject=original.subject) if case.subject else None
    own = case.own.replace("{player}", player_name)
    return clients.message(client=case.client, own=own, language=case.language,
                           original=original, charset=case.charset, cte=case.cte,
                           html=case.html, text=case.text, headers=case.headers,
                           subject=subject, options=case.options)


def outcome(case: Case) -> tuple[str, int | None, str]:
    """What the real entrance made of the case: (played|asked|refused|dropped|other, the
    amount played, a note for failures)."""
    game, (_, bob) = started()
    turn = last_mail_to(bob)
    sent_before = len(mails_to(bob))
    # As production receives it: our MTA's verdict on top (EMAIL_PLAY_AUTHSERV_IDS, below).
    pipe(b"Authentication-Results: mx.turnpost.test; spf=pass smtp.mailfrom=example.com; "
         b"dkim=pass header.d=example.com; dmarc=pass header.from=example.com\r\n"
         + build(case, _original(turn, bob), bob.public_name))
    inbound = InboundMessage.objects.order_by("-id").first()
    note = f"{inbound.status}; {inbound.reason}: {inbound.detail[:160]} | read {inbound.text!r}"
    moves = list(Action.objects.filter(game=game, source="email"))
    answers = mails_to(bob)[sent_before:]
    if moves:
        assert len(moves) == 1 and moves[0].seat_number == 1
        return PLAYED, moves[0].payload["amount"], note
    if inbound.status == "dropped" and inbound.reason in ("auto_reply", "bounce"):
        assert answers == [], "a dropped message must not be answered"
        return DROPPED, None, note
    if inbound.status == "answered" and inbound.reason == "ambiguous":
        # The question lists choices to pick from and can be answered.
        assert len(answers) == 1 and numbered_choices(answers[0]) and reply_to_of(answers[0])
        assert "Which one did you mean" in answers[0].body
        return ASKED, None, note
    if inbound.status == "refused" and inbound.reason in ("unreadable", "illegal_choice"):
        # Refused for what it says, not for how it was sent (trust and MIME checks pass).
        assert len(answers) == 1 and outcome_of(answers[0]).startswith("refused;")
        return REFUSED, None, note
    return "other", None, note


def outcome_table(results: list[tuple[Case, str, int | None]]) -> Counter:
    table = Counter()
    for case, got, amount in results:
        if got == PLAYED:
            right = case.expected == PLAYED and amount == case.choice
            table["played right" if right else "played wrong"] += 1
        elif case.expected == PLAYED:
            table["refused wrong"] += 1
        else:
            table["refused right" if got == case.expected else "refused wrong"] += 1
    return table


def test_the_corpus_spans_clients_languages_charsets_and_layouts():
    assert len(CASES) >= 60 and len({case.id for case in CASES}) == len(CASES)
    assert len({case.language for case in CASES}) >= 10
    charsets = {case.charset for case in CASES}
    assert {"iso-2022-jp", "big5", "windows-1251", "koi8-r", "utf-7"} <= charsets
    clients_used = {case.client for case in CASES}
    assert set(clients.CLIENTS) - {"plain"} <= clients_used
    layouts = Counter(case.layout for case in CASES)
    assert all(layouts[kind] >= 5 for kind in ("top-posted", "bottom-posted", "quote-only",
                                               "auto-reply")), layouts


# 112 started games, one a reply: ~80 s of a worker; CI runs it with the slow tests.
@pytest.mark.slow
def test_every_corpus_reply_has_its_outcome_and_none_plays_a_wrong_move(capsys, settings):
    # Production's trust rules: a reply plays only with our MTA's passing verdict.
    settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION = True
    settings.EMAIL_PLAY_AUTHSERV_IDS = ["mx.turnpost.test"]
    results, wrong, notes = [], [], []
    for case in CASES:
        mail.outbox.clear()
        got, amount, note = outcome(case)
        results.append((case, got, amount))
        notes.append(f"{case.id:32} {case.charset:12} {got:8} {amount or '':2} {note[:150]}")
        if (got, amount if got == PLAYED else None) != (case.expected, case.choice):
            wrong.append(f"{case.id}: expected {case.expected} {case.choice or ''}, got {got} "
                         f"{amount or ''} ({note})")
    table = outcome_table(results)
    with capsys.disabled():
        if os.environ.get("TURNPOST_SHOW_CORPUS"):  # the per-case listing, on request
            print("\n" + "\n".join(notes))
        print(f"\nreply corpus: {len(CASES)} cases; " + ", ".join(
            f"{key} {table[key]}" for key in ("played right", "refused right", "played wrong",
                                              "refused wrong")))
    assert table["played wrong"] == 0, wrong
    assert wrong == [], "\n".join(wrong)
    assert table["played right"] + table["refused right"] == len(CASES)


# ---- the rules on their own ---------------------------------------------------------------------

ADDRESS = "play+abc123@turnpost.localhost"


@pytest.mark.parametrize("attribution", [
    f"3 дек. 2026 г., в 17:50, Turnpost <{ADDRESS}> написал(а):",
    f"3 dec. 2026 kl. 17:50 skrev Turnpost <{ADDRESS}>:",
    f"On 3 Dec 2026, at 17:50, Turnpost <{ADDRESS}> wrote:",
    "2026. 12. 03. 17:50 keltezéssel, Turnpost írta:",
    "Turnpost <x@y.org> 於 2026年12月3日 週四 下午5:50寫道：",
    "2026/12/03 17:50, Turnpost さんは書きました:",
    "W dniu 3.12.2026 o 17:50, Turnpost pisze:",
    "Le 3 déc. 2026 à 17:50, Turnpost <x@y.org> a écrit :",
    "El 3 dic 2026, a las 17:50, Turnpost escribió:",
    "Il giorno 3 dic 2026, alle ore 17:50, Turnpost ha scritto:",
    "Op 3 dec. 2026 om 17:50 schreef Turnpost:",
    "03.12.2026 17:50, Turnpost пишет:",
    "czw., 3 gru 2026 o 17:50 Turnpost <x@y.org> napisał(a):",
    "2 Dec 2026 17:50 Turnpost <\nplay+abc123@turnpost.localhost>:",
    # The Bat!: "you wrote" with a time to the second, in the reader's language
    "Вы писали 3 декабря 2026 г., 17:50:31:",
    "Ви писали 3 грудня 2026 р., 17:50:31:",
    "You wrote 3 December 2026, 17:50:31:",
    "am 3. Dezember 2026 um 17:50:31 schrieben Sie:",
    "il 3 dicembre 2026 alle 17:50:31 hai scritto:",
    "Le 3 décembre 2026 à 17:50:31, vous avez écrit :",
    "El 3 de diciembre de 2026, a las 17:50:31, escribiste:",
])
def test_an_attribution_is_never_the_answer(attribution):
    # Quote-only: the attribution and the quote are all there is.
    assert own_lines(f"\n{attribution}\n\n> 1. Seat 1 bid 1.\n", play_address="play@turnpost"
                     ".localhost") == []
    # Unquoted original below it (Yahoo, Outlook): nothing from there on is the player's.
    assert own_lines(f"{attribution}\n\n1. Seat 1 bid 1.\n") == []
    # Bottom posting: the player's line after the quote is read.
    assert own_lines(f"{attribution}\n> 1. Seat 1 bid 1.\n\n2\n") == ["2"]


def test_lines_naming_the_play_address_or_the_original_subject_are_not_the_players():
    text = "3 choices left <play+zz@turnpost.localhost>\nYour move in Toy #1 (3 choices)\n"
    assert own_lines(text, play_address="play@turnpost.localhost",
                     subject="AW: Your move in Toy #1") == []
    # A short subject never hides the answer.
    assert own_lines("2\n", subject="Re: 2") == ["2"]


@pytest.mark.parametrize("line, kind, number", [
    ("２", "choose", 2), ("2\ufe0f\u20e3", "choose", 2), ("۲", "choose", 2), ("٣", "choose", 3),
    ("\u200f\u202b۲\u202c\u200f", "choose", 2), ("2番でお願いします", "choose", 2),
    ("我选2", "choose", 2), ("Ход 2", "choose", 2), ("②", "choose", 2),
    ("5 or 8?", "ambiguous", 5), ("17:50", "ambiguous", 17), ("find 3", "find", None),
])
def test_answers_are_normalised_before_they_are_read(line, kind, number):
    command = interpret(line)
    assert command.kind == kind
    assert (command.numbers[0] if command.numbers else None) == number


def test_greetings_and_pgp_armour_come_before_the_answer():
    from notifications.inbound.parsing import ReplyText

    lines = own_lines("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\nЗдравствуйте!\n"
                      "\n- 3\n-----BEGIN PGP SIGNATURE-----\n\nwsBzBAEBCAAnBQJ\n"
                      "-----END PGP SIGNATURE-----\n")
    assert lines == ["Здравствуйте!", "3"]
    assert ReplyText(lines=lines).first_line == "3"
    assert ReplyText(lines=["Hi,", "Hello Turnpost", "Hallo", "Ciao", "سلام", "2"]
                     ).first_line == "2"
    # The Bat!: a greeting, then its attribution (any wording, dated, a quote below it).
    for attribution in ("Вы писали 3 декабря 2026 г., 17:50:31:",
                        "W Twoim liście datowanym 3 grudnia 2026 (17:50:31) można przeczytać:"):
        lines = own_lines(f"Здравствуйте, Turnpost.\n\n{attribution}\n\n> 1. Bob bid 1.\n\n2\n"
                          "\n-- \nС уважением,\n Bob\n")
        assert ReplyText(lines=lines).first_line == "2"


def test_a_number_with_words_of_a_different_choice_is_asked_about_in_seven_wonders():
    game, players = started("seven_wonders", 3, seed="verb-and-number")
    first = last_mail_to(players[0])
    choices = numbered_choices(first)
    builds = {n: text for n, text in choices.items() if text.startswith("Build ")}
    discards = {n: text for n, text in choices.items() if text.startswith("Discard ")}
    number = min(discards)
    # A card name that only one build holds, sent with the number of a discard.
    card = next(text[len("Build "):].split(" (")[0].split(" for ")[0]
                for text in builds.values())
    pipe(answer(first, f"{number} build {card.lower()}"))
    inbound = InboundMessage.objects.get()
    assert (inbound.status, inbound.reason) == ("answered", "ambiguous"), inbound.detail
    asked_about = numbered_choices(last_mail_to(players[0]))
    assert number in asked_about and len(asked_about) >= 2
    assert not Action.objects.filter(game=game, source="email").exists()
    # The choice's number alone then plays it.
    pipe(answer(last_mail_to(players[0]), str(number)))
    assert Action.objects.filter(game=game, source="email").count() == 1


# ---- a place or good and a count (Stone Age: "river 2" where choice 2 is elsewhere) -----------

def _stone_age_turn():
    game, players = started("stone_age", 2, seed="river-and-count")
    player = next(player for player in players if numbered_choices(last_mail_to(player)))
    return game, player, last_mail_to(player)


@pytest.mark.parametrize("own", [
    "river 2",
    "River: 2",
    "Hi!\n\n2 people on the river, please",
    "Hallo,\n\nriver 2 bitte",
    "Ciao,\nriver 2 per favore",
    "Здравствуйте!\n\nriver 2",
    "سلام\nriver ۲",
    "您好\nriver ２",
])
def test_a_place_and_a_count_play_the_one_choice_they_name(own):
    game, player, turn = _stone_age_turn()
    # Choice 2 is another place ("river" choices come after the first email's 20 shown).
    assert numbered_choices(turn)[2].endswith("places 2 people on the hunting grounds.")
    pipe(answer(turn, own))
    inbound = InboundMessage.objects.get()
    assert (inbound.status, inbound.reason) == ("applied", "move"), inbound.detail
    [move] = Action.objects.filter(game=game, source="email")
    assert move.payload == {"type": "place", "location": "river", "count": 2}


def test_a_place_with_a_count_it_does_not_have_asks_with_only_that_places_choices():
    game, player, turn = _stone_age_turn()
    choices = numbered_choices(turn)
    pipe(answer(turn, "hunting grounds 9"))
    inbound = InboundMessage.objects.get()
    assert inbound.status == "answered", inbound.detail
    asked = numbered_choices(last_mail_to(player))
    assert asked and all("hunting grounds" in text for text in asked.values())
    assert len(asked) == sum("hunting grounds" in text for text in choices.values())
    assert not Action.objects.filter(game=game, source="email").exists()
