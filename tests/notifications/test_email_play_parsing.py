"""Reading answers as mail clients really write them: recorded RFC 822 replies (Gmail, Outlook,
Apple Mail, iPhone, Thunderbird, K-9, HTML-only, quoted-printable, base64, ISO-8859-1 and
windows-1252) each become the move they name; the parser and command reader on their own."""

from __future__ import annotations

import pytest
from anymail.inbound import AnymailInboundMessage

from games.models import Action
from notifications.inbound.commands import interpret
from notifications.inbound.parsing import automatic_reason, html_to_text, own_lines, reply_text
from notifications.models import InboundMessage
from tests.notifications.email_play import (
    FIXTURES,
    fixture_reply,
    last_mail_to,
    outcome_of,
    pipe,
    started,
)

#: fixture -> (the player's first line as read, the bid it plays)
CLIENT_REPLIES = {
    "gmail.eml": ("2", 2),
    "outlook.eml": ("2 – I bid two", 2),
    "apple_mail.eml": ("2", 2),
    "iphone.eml": ("2", 2),
    "thunderbird_bottom.eml": ("2", 2),
    "k9_mobile.eml": ("2", 2),
    "html_only.eml": ("2", 2),
    "windows1252_as_latin1.eml": ("“2”", 2),
    "words_bottom.eml": ("Bid 3", 3),
}


def filled(name: str) -> bytes:
    raw = (FIXTURES / name).read_bytes()
    for placeholder, value in ((b"{{FROM}}", b"bob@example.com"),
                               (b"{{TO}}", b"play+abc@turnpost.localhost"),
                               (b"{{MESSAGE_ID}}", b"<1@example.com>"),
                               (b"{{IN_REPLY_TO}}", b"<0@turnpost>")):
        raw = raw.replace(placeholder, value)
    return raw


def test_every_recorded_client_reply_is_covered():
    assert sorted(path.name for path in FIXTURES.glob("*.eml")) == sorted(CLIENT_REPLIES)


@pytest.mark.parametrize("name", sorted(CLIENT_REPLIES))
def test_the_players_first_line_is_read_from_each_client(name):
    message = AnymailInboundMessage.parse_raw_mime_bytes(filled(name))
    first_line, _ = CLIENT_REPLIES[name]
    assert reply_text(message).first_line == first_line
    assert automatic_reason(message, own_addresses=["play@turnpost.localhost"]) is None


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(CLIENT_REPLIES))
def test_each_client_reply_plays_the_move_it_names(name):
    game, (alice, bob) = started()
    pipe(fixture_reply(name, last_mail_to(bob)))
    inbound = InboundMessage.objects.get()
    assert (inbound.status, inbound.reason) == ("applied", "move"), inbound.detail
    action = Action.objects.get(game=game)
    assert action.source == "email" and action.seat_number == 1
    assert action.payload == {"type": "bid", "amount": CLIENT_REPLIES[name][1]}
    assert outcome_of(last_mail_to(bob)) == "applied; move"


def test_charsets_are_decoded_for_the_record():
    outlook = AnymailInboundMessage.parse_raw_mime_bytes(filled("outlook.eml"))
    assert reply_text(outlook).lines == ["2 – I bid two", "Grüße, Bob"]
    html = AnymailInboundMessage.parse_raw_mime_bytes(filled("html_only.eml"))
    assert reply_text(html).lines == ["2", "Grüße aus Köln"] and reply_text(html).source == "html"
    k9 = AnymailInboundMessage.parse_raw_mime_bytes(filled("k9_mobile.eml"))
    assert reply_text(k9).lines == ["2"]


@pytest.mark.parametrize("text, expected", [
    # top posting, attribution wrapped by the client over two lines
    ("3\n\nOn Mon, 2 Mar 2026 at 10:00, Turnpost <\nplay+x@t.org> wrote:\n> 1. a\n", ["3"]),
    # bottom posting, the attribution and quote first
    ("On Mon, 2 Mar 2026 at 10:00, Turnpost wrote:\n> 1. a\n> 2. b\n\n  2  \n", ["2"]),
    # interleaved: quoted, own, quoted
    ("> Your choices:\n> 1. a\nstatus\n> 2. b\n", ["status"]),
    # a signature right after the answer, then an unquoted original (Outlook)
    ("pass\n-- \nBob\n", ["pass"]),
    ("1\n\nFrom: Turnpost <play@t.org>\nSent: Monday\nTo: Bob\n\n1. a\n", ["1"]),
    ("-----Original Message-----\nFrom: Turnpost\n1. a\n", []),
    # nothing of the player's own: only a quote and a phone footer
    ("> 1. a\n\nSent from my iPhone\n", []),
    # invisible characters and non-breaking spaces from rich editors
    ("\u200b\u00a02\u00a0\n", ["2"]),
])
def test_own_lines(text, expected):
    assert own_lines(text) == expected


def test_html_drops_quotes_signatures_and_invisible_parts():
    html = ("<html><head><style>p{}</style><title>x</title></head><body><p>find <b>wood</b></p>"
            "<div class='gmail_signature'>Bob</div>"
            "<blockquote type='cite'>1. a<br>2. b</blockquote>"
            "<script>alert(1)</script></body></html>")
    assert own_lines(html_to_text(html)) == ["find wood"]


@pytest.mark.parametrize("line, kind, number, words", [
    ("2", "choose", 2, ()),
    ("2.", "choose", 2, ()),
    ("#12 please", "choose", 12, ()),
    ("Choice 3", "choose", 3, ()),
    ("**3**", "choose", 3, ()),
    ("PASS", "pass", None, ()),
    ("Status", "status", None, ()),
    ("help", "help", None, ()),
    ("?", "help", None, ()),
    ("more", "more", None, ()),
    ("list", "list", None, ()),
    ("find wood", "find", None, ("wood",)),
    ("show wood", "find", None, ("wood",)),
    ("discard 3", "choose", 3, ("discard",)),
    ("", "unreadable", None, ()),
    ("!!!", "unreadable", None, ()),
])
def test_commands(line, kind, number, words):
    command = interpret(line)
    assert (command.kind, command.number, command.words) == (kind, number, words)


AUTOMATIC = {
    "out of office": "Auto-Submitted: auto-replied\r\n",
    "bulk": "Precedence: bulk\r\n",
    "auto_reply precedence": "Precedence: auto_reply\r\n",
    "x-autoreply": "X-Autoreply: yes\r\n",
    "empty return path": "Return-Path: <>\r\n",
}


@pytest.mark.parametrize("label", sorted(AUTOMATIC))
def test_automatic_mail_is_recognised(label):
    raw = (f"From: Bob <bob@example.com>\r\nTo: play+x@turnpost.localhost\r\n{AUTOMATIC[label]}"
           "Subject: Out of office\r\n\r\nI am away.\r\n").encode()
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    assert automatic_reason(message, own_addresses=[]) in ("auto_reply", "bounce")


def test_bounces_and_our_own_mail_are_recognised():
    daemon = AnymailInboundMessage.parse_raw_mime_bytes(
        b"From: MAILER-DAEMON@mx.example.com\r\nTo: play@turnpost.localhost\r\n"
        b"Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b--\r\n")
    assert automatic_reason(daemon, own_addresses=[]) == "bounce"
    mailer = AnymailInboundMessage.parse_raw_mime_bytes(
        b"From: Mail Delivery System <MAILER-DAEMON@mx.example.com>\r\n\r\nfailed\r\n")
    assert automatic_reason(mailer, own_addresses=[]) == "bounce"
    loop = AnymailInboundMessage.parse_raw_mime_bytes(
        b"From: Turnpost <play@turnpost.localhost>\r\n\r\n2\r\n")
    assert automatic_reason(loop, own_addresses=["play@turnpost.localhost"]) == "loop"
    person = AnymailInboundMessage.parse_raw_mime_bytes(
        b"From: Bob <bob@example.com>\r\nAuto-Submitted: no\r\n\r\n2\r\n")
    assert automatic_reason(person, own_addresses=[]) is None
