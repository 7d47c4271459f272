"""Malformed mail never loops through retries: a corpus of broken messages (NUL bytes, broken
base64, unknown and undecodable charsets, a missing or wrong multipart boundary, header
injection, an empty message, binary garbage, deep nesting), each an answer to a real turn email
from the player's confirmed address, goes through `manage.py receive_email` (exit 0) and
Mailgun's signed webhook (200), and each is recorded as a refusal with nothing played."""

from __future__ import annotations

import random

import pytest
from django.core import mail
from django.db import transaction

from games.models import Action
from notifications.inbound.answers import REFUSAL_SUBJECT
from notifications.inbound.services import inbound_email_receive
from notifications.models import InboundMessage
from tests.notifications.email_play import (
    answer,
    committed,
    last_mail_to,
    mailgun_configured,
    mailgun_raw_post,
    outcome_of,
    pipe,
    reply_to_of,
    started,
    with_header,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def mailgun(settings):
    mailgun_configured(settings)


def with_body(raw: bytes, content_headers: bytes, body: bytes) -> bytes:
    """The answer's headers (From, To, Message-ID, ...) over another body."""
    head = raw.partition(b"\r\n\r\n")[0]
    head = b"\r\n".join(line for line in head.split(b"\r\n")
                        if not line.lower().startswith((b"content-type:",
                                                        b"content-transfer-encoding:")))
    return head + b"\r\n" + content_headers + b"\r\n" + body


def nul_in_body(raw):
    return raw.replace(b"\r\n\r\n2\r\n", b"\r\n\r\n2\x00\r\n", 1)


def nul_in_subject(raw):
    return with_header(raw, "Subject", b"Re: your move\x00")


def broken_base64(raw):
    return with_body(raw, b"Content-Type: text/plain; charset=utf-8\r\n"
                          b"Content-Transfer-Encoding: base64\r\n", b"Mg=!!!*\r\n")


def unknown_charset(raw):
    return with_body(raw, b"Content-Type: text/plain; charset=x-no-such-charset\r\n"
                          b"Content-Transfer-Encoding: 8bit\r\n", b"2 \xe9t\xe9\r\n")


def undecodable_utf8(raw):
    return with_body(raw, b"Content-Type: text/plain; charset=utf-8\r\n"
                          b"Content-Transfer-Encoding: 8bit\r\n", b"2 \xff\xfe\xc3\r\n")


def missing_boundary(raw):
    return with_body(raw, b"Content-Type: multipart/alternative\r\n",
                     b"--b\r\nContent-Type: text/plain\r\n\r\n2\r\n--b--\r\n")


def boundary_not_found(raw):
    return with_body(raw, b"Content-Type: multipart/alternative; boundary=abc\r\n",
                     b"--xyz\r\nContent-Type: text/plain\r\n\r\n2\r\n--xyz--\r\n")


def header_injection(raw):
    # An encoded line break: decoded, the Subject would carry a Bcc header into an answer.
    return with_header(raw, "Subject", "=?utf-8?q?Re:_move=0D=0ABcc:_victim@example.com?=")


def missing_separator(raw):
    return raw.replace(b"\r\n\r\n", b"\r\n", 1)


def empty(raw):
    return b""


def binary_garbage(raw):
    return random.Random(12).randbytes(4096)


def high_bytes_garbage(raw):
    # Not UTF-8 and no NUL: what a corrupted spool file looks like.
    return bytes(random.Random(7).randrange(0x80, 0x100) for _ in range(4096))


def deep_nesting(raw):
    # 400 multiparts inside each other, none of them closed.
    nested = b"".join(b"--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n" % (i, i + 1)
                      for i in range(400))
    return with_body(raw, b"Content-Type: multipart/mixed; boundary=b0\r\n",
                     nested + b"--b400\r\nContent-Type: text/plain\r\n\r\n2\r\n")


CORPUS = {case.__name__: case for case in (
    nul_in_body, nul_in_subject, broken_base64, unknown_charset, undecodable_utf8,
    missing_boundary, boundary_not_found, header_injection, missing_separator, empty,
    binary_garbage, high_bytes_garbage, deep_nesting)}
#: Messages without a From we could trust are refused unanswered; the rest answer the player.
UNANSWERED = {"empty", "binary_garbage", "high_bytes_garbage"}


@pytest.mark.parametrize("entrance", ["pipe", "webhook"])
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_malformed_mail_is_recorded_as_refused_and_never_retried(mailgun, entrance, name):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = CORPUS[name](answer(start, "2"))
    mail.outbox.clear()
    if entrance == "pipe":
        output = pipe(raw)  # a SystemExit (75: retry) would fail the test here
        assert ": refused (" in output
    else:
        response = mailgun_raw_post(raw, recipient=reply_to_of(start))
        assert response.status_code == 200, response.content[:300]
    inbound = InboundMessage.objects.get()
    assert inbound.status == "refused", (inbound.reason, inbound.detail)
    assert inbound.reason in ("malformed", "bad_sender"), inbound.detail
    assert not Action.objects.filter(game=game).exists()
    if name in UNANSWERED:
        assert mail.outbox == []
    else:
        (reply,) = mail.outbox
        assert reply.to == [bob.email] and reply.subject == REFUSAL_SUBJECT
        assert outcome_of(reply) == "refused; malformed"
        assert "victim@example.com" not in str(reply.message())


def test_the_same_malformed_message_again_is_a_repeat_not_a_new_refusal():
    game, (alice, bob) = started()
    raw = nul_in_body(answer(last_mail_to(bob), "2"))
    pipe(raw)
    pipe(raw)
    assert InboundMessage.objects.get().duplicates == 1


def test_an_error_the_message_causes_is_recorded_not_retried(monkeypatch):
    """Whatever a message makes fail (here a parser error standing for one we have not met yet)
    is recorded as `unprocessable` and taken (exit 0), since a retry would fail the same way;
    only our own services being away is retried (see test_email_play_webhook)."""
    from notifications.inbound import services as inbound_services

    game, (alice, bob) = started()
    raw = answer(last_mail_to(bob), "2")

    def unreadable(*args, **kwargs):
        raise UnicodeEncodeError("utf-8", "\udcff", 0, 1, "surrogates not allowed")

    monkeypatch.setattr(inbound_services, "reply_text", unreadable)
    output = pipe(raw)
    inbound = InboundMessage.objects.get()
    assert (inbound.status, inbound.reason) == ("refused", "unprocessable")
    assert "UnicodeEncodeError" in inbound.detail and bytes(inbound.raw) == raw
    assert "refused (unprocessable)" in output
    assert not Action.objects.filter(game=game).exists()


def test_a_well_formed_answer_after_a_malformed_one_still_plays():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    pipe(broken_base64(answer(start, "2")))
    pipe(answer(start, "2"))
    assert list(InboundMessage.objects.order_by("id").values_list("reason", flat=True)) == [
        "malformed", "move"]
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 2}


def test_direct_calls_inside_a_transaction_leave_it_usable():
    """The service is called inside the webhook's request; a refusal of a broken message must
    not poison an outer transaction."""
    game, (alice, bob) = started()
    with committed(), transaction.atomic():
        inbound_email_receive(raw=nul_in_subject(answer(last_mail_to(bob), "2")), channel="pipe")
        assert InboundMessage.objects.filter(reason="malformed").count() == 1


def test_deliveries_anymail_itself_cannot_parse_are_recorded_and_answered_200(mailgun, settings):
    """A fully-parsed Mailgun delivery whose header carries a line break (header injection) and
    a Postmark delivery that is not JSON raise inside anymail, after its checks passed: recorded
    as malformed and answered 200, since every other status makes the provider retry. Unsigned,
    the same posts are refused by anymail and leave no record."""
    import base64
    import json

    from django.test import Client

    from tests.notifications.email_play import mailgun_post

    game, (alice, bob) = started()
    start = last_mail_to(bob)
    headers = [["From", f"Bob <{bob.email}>"], ["To", reply_to_of(start)],
               ["Subject", "Re: move\r\nBcc: victim@example.com"], ["Message-Id", "<i@x>"]]
    response = mailgun_post({"message-headers": json.dumps(headers), "body-plain": "2",
                             "recipient": reply_to_of(start)}, path="/anymail/mailgun/inbound/")
    assert response.status_code == 200
    injected = InboundMessage.objects.get()
    assert (injected.channel, injected.status, injected.reason) == ("webhook:mailgun", "refused",
                                                                    "malformed")
    assert "line" in injected.detail.lower()
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": "hook:s3cret-pass"}
    url, garbage = "/anymail/postmark/inbound/", b'{"RawEmail": "\x00\xff'
    with committed():
        stranger = Client(raise_request_exception=False).post(url, garbage,
                                                              content_type="application/json")
    assert stranger.status_code == 400 and InboundMessage.objects.count() == 1
    auth = "Basic " + base64.b64encode(b"hook:s3cret-pass").decode()
    with committed():
        response = Client(raise_request_exception=False).post(
            url, garbage, content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200
    assert list(InboundMessage.objects.order_by("id").values_list("channel", "reason")) == [
        ("webhook:mailgun", "malformed"), ("webhook:postmark", "malformed")]
    assert not Action.objects.filter(game=game).exists()
