"""The other entrances into the one parser: django-anymail's inbound webhooks through the real
URLs (Mailgun with its HMAC signature, raw MIME and fully-parsed; MailerSend with its HMAC body
signature; Postmark with basic auth), and `manage.py receive_email` as a real process reading
standard input, as an MTA pipe runs it; the same recorded answers through a webhook and the pipe
are read alike.
Also measures how many answers per second the pipeline processes against PostgreSQL."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import time
from email.utils import make_msgid

import pytest
from django.core import mail
from django.db import connection
from django.test import Client

from games.models import Action
from notifications.inbound.services import inbound_email_receive
from notifications.models import InboundMessage
from tests.conftest import ROOT
from tests.notifications.email_play import (
    answer,
    committed,
    fixture_reply,
    last_mail_to,
    mailgun_configured,
    mailgun_post,
    mailgun_signature,
    mails_to,
    numbered_choices,
    outcome_of,
    parsed,
    pipe,
    reply_to_of,
    started,
    webhook_auth,
)


@pytest.fixture
def mailgun(settings):
    mailgun_configured(settings)


@pytest.mark.django_db
def test_mailgun_signed_raw_mime_webhook_plays_the_move(mailgun):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = fixture_reply("gmail.eml", start)
    response = mailgun_post({"body-mime": raw.decode("ascii"), "recipient": reply_to_of(start),
                             "sender": bob.email})
    assert response.status_code == 200
    inbound = InboundMessage.objects.get()
    assert (inbound.channel, inbound.status, inbound.reason) == ("webhook:mailgun", "applied",
                                                                 "move")
    assert parsed(bytes(inbound.raw))["Message-ID"] == parsed(raw)["Message-ID"]
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 2}
    assert outcome_of(last_mail_to(bob)) == "applied; move"


@pytest.mark.django_db
def test_mailgun_spam_verdict_drops_the_message_silently(mailgun):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = fixture_reply("gmail.eml", start).replace(b"MIME-Version:",
                                                   b"X-Mailgun-Sflag: Yes\r\nMIME-Version:", 1)
    mail.outbox.clear()
    response = mailgun_post({"body-mime": raw.decode("ascii"), "recipient": reply_to_of(start)})
    assert response.status_code == 200
    assert (InboundMessage.objects.get().status, InboundMessage.objects.get().reason) == (
        "dropped", "spam")
    assert mail.outbox == [] and not Action.objects.exists()


@pytest.mark.django_db
def test_mailgun_fully_parsed_webhook_feeds_the_same_parser(mailgun):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    headers = [["From", f"Bob <{bob.email}>"], ["To", reply_to_of(start)],
               ["Subject", "Re: " + start.subject], ["Message-Id", make_msgid()]]
    response = mailgun_post({
        "message-headers": json.dumps(headers), "recipient": reply_to_of(start),
        "body-plain": f"find 3\r\n\r\n> Your choices:\r\n> 1. {bob.public_name} bid 1.\r\n",
        "body-html": f"<div>find 3</div><blockquote>1. {bob.public_name} bid 1.</blockquote>",
        "sender": bob.email,
    }, path="/anymail/mailgun/inbound/")
    assert response.status_code == 200
    assert InboundMessage.objects.get().reason == "find"
    assert numbered_choices(last_mail_to(bob)) == {3: f"{bob.public_name} bid 3."}


@pytest.mark.django_db
def test_a_badly_signed_webhook_is_rejected_and_records_nothing(mailgun):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = answer(start, "2").decode()
    response = mailgun_post({"body-mime": raw, "recipient": reply_to_of(start)},
                            key="not-the-signing-key")
    assert response.status_code == 400
    unsigned = Client().post("/anymail/mailgun/inbound_mime/", {"body-mime": raw})
    assert unsigned.status_code == 400
    assert not InboundMessage.objects.exists() and not Action.objects.exists()


@pytest.mark.django_db
def test_postmark_webhook_with_basic_auth(settings):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": "hook:s3cret-pass"}
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    payload = {"RawEmail": answer(start, "3").decode(), "From": bob.email,
               "Headers": [{"Name": "Return-Path", "Value": f"<{bob.email}>"}]}
    url = "/anymail/postmark/inbound/"
    refused = Client().post(url, json.dumps(payload), content_type="application/json")
    assert refused.status_code == 400
    auth = "Basic " + base64.b64encode(b"hook:s3cret-pass").decode()
    with committed():
        response = Client().post(url, json.dumps(payload), content_type="application/json",
                                 HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200
    inbound = InboundMessage.objects.get()
    assert (inbound.channel, inbound.reason) == ("webhook:postmark", "move")
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 3}


MAILERSEND_SECRET = "Zm9vYmFyLWluYm91bmQtc2VjcmV0LWZvci10ZXN0cw"


@pytest.mark.django_db
def test_mailersend_signed_inbound_webhook(settings):
    """A second signing provider: MailerSend signs the JSON body with HMAC-SHA256 ("Signature"
    header) and gives the envelope recipient, which carries the token when To lost it."""
    settings.ANYMAIL = {**settings.ANYMAIL, "MAILERSEND_INBOUND_SECRET": MAILERSEND_SECRET}
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = fixture_reply("apple_mail.eml", start).replace(
        reply_to_of(start).encode(), b"play@turnpost.localhost")
    body = json.dumps({"type": "inbound.message", "data": {
        "id": "65f1a0c9e2b4d", "created_at": "2026-03-02T10:05:00.000000Z", "raw": raw.decode(),
        "sender": {"email": bob.email}, "recipients": {"rcptTo": [{"email": reply_to_of(start)}]},
    }}).encode()
    url = "/anymail/mailersend/inbound/"
    forged = hmac.new(b"not-the-secret", body, hashlib.sha256).hexdigest()
    refused = Client().post(url, body, content_type="application/json", HTTP_SIGNATURE=forged,
                            **webhook_auth())
    assert refused.status_code == 400 and not InboundMessage.objects.exists()
    signature = hmac.new(MAILERSEND_SECRET.encode(), body, hashlib.sha256).hexdigest()
    with committed():
        response = Client().post(url, body, content_type="application/json",
                                 HTTP_SIGNATURE=signature, **webhook_auth())
    assert response.status_code == 200
    inbound = InboundMessage.objects.get()
    assert (inbound.channel, inbound.status, inbound.reason) == ("webhook:mailersend", "applied",
                                                                 "move")
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 2}
    assert outcome_of(last_mail_to(bob)) == "applied; move"


@pytest.mark.django_db
def test_a_failure_while_processing_loses_nothing_the_retry_plays(mailgun, monkeypatch):
    """A passing fault of our own (the database unreachable) rolls everything back and answers
    5xx (webhook) or 75 (pipe), so the provider or the MTA retries; the retry is processed as
    new and plays the move once."""
    from django.db import OperationalError

    from notifications.inbound import services as inbound_services

    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = fixture_reply("gmail.eml", start)
    real = inbound_services._process

    def broken(*args, **kwargs):
        raise OperationalError("database hiccup")

    monkeypatch.setattr(inbound_services, "_process", broken)
    timestamp, token = str(int(time.time())), os.urandom(25).hex()
    with committed():
        response = Client(raise_request_exception=False).post(
            "/anymail/mailgun/inbound_mime/",
            {"body-mime": raw.decode("ascii"), "recipient": reply_to_of(start),
             "timestamp": timestamp, "token": token,
             "signature": mailgun_signature(timestamp, token)}, **webhook_auth())
    assert response.status_code in (500, 503)  # (503: the site's "database unreachable" answer)
    with pytest.raises(SystemExit) as exited:
        pipe(raw)
    assert exited.value.code == 75
    assert not InboundMessage.objects.exists() and not Action.objects.exists()
    monkeypatch.setattr(inbound_services, "_process", real)
    assert mailgun_post({"body-mime": raw.decode("ascii"),
                         "recipient": reply_to_of(start)}).status_code == 200
    pipe(raw)  # the MTA's retry of the same message: recognised by its Message-ID
    assert InboundMessage.objects.get().duplicates == 1
    assert Action.objects.get(game=game).payload == {"type": "bid", "amount": 2}


@pytest.mark.django_db
def test_every_anymail_setting_can_come_from_the_environment():
    """ANYMAIL_<NAME> sets any provider's webhook key (config/settings.py), e.g. MailerSend's."""
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.ANYMAIL.get('MAILERSEND_INBOUND_SECRET'))")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "ANYMAIL_MAILERSEND_INBOUND_SECRET": MAILERSEND_SECRET}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          timeout=120)
    assert done.stdout.decode().split() == [MAILERSEND_SECRET], done.stderr.decode()[-2000:]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["apple_mail.eml", "gmail.eml", "html_only.eml", "iphone.eml",
                                  "k9_mobile.eml", "outlook.eml", "thunderbird_bottom.eml",
                                  "words_bottom.eml"])  # (Mailgun posts body-mime as text)
def test_webhook_and_pipe_feed_one_parser(mailgun, name):
    """The same recorded answer through Mailgun's signed webhook and through receive_email is
    read as the same lines and has the same outcome."""
    seen = []
    for entrance in ("webhook", "pipe"):
        game, (alice, bob) = started()
        start = last_mail_to(bob)
        raw = fixture_reply(name, start)
        if entrance == "webhook":
            assert mailgun_post({"body-mime": raw.decode("ascii"),
                                 "recipient": reply_to_of(start)}).status_code == 200
        else:
            pipe(raw)
        inbound = InboundMessage.objects.get(game=game)
        seen.append((inbound.text, inbound.status, inbound.reason,
                     Action.objects.get(game=game).payload, outcome_of(last_mail_to(bob))))
    assert seen[0] == seen[1]
    assert seen[0][1:3] == ("applied", "move")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_receive_email_as_an_mta_pipe_process(tmp_path):
    """The command as Postfix runs it: a separate process, the message on standard input, the
    answer sent by that process (here into the outbox folder). A shipped engine, because the
    test-only toy game is not registered in that process."""
    game, (alice, bob, carol) = started("seven_wonders", 3)
    start = last_mail_to(bob)
    chosen = numbered_choices(start)[2]
    db = connection.settings_dict
    env = {**os.environ, "DATA_DIR": str(tmp_path), "CELERY_TASK_ALWAYS_EAGER": "1",
           "EMAIL_BACKEND": "notifications.backends.OutboxEmailBackend",
           "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:"
                           f"{db['PORT'] or 5432}/{db['NAME']}"}
    env.pop("EMAIL_URL", None)
    command = [sys.executable, "manage.py", "receive_email", "--recipient", reply_to_of(start)]
    done = subprocess.run(command, input=fixture_reply("outlook.eml", start), cwd=ROOT, env=env,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert b"applied (move)" in done.stdout
    assert Action.objects.get(game=game).source == "email"
    answers = [parsed(path.read_bytes()) for path in (tmp_path / "outbox").glob("*.eml")]
    reply = next(m for m in answers if m["To"] == bob.email)
    assert reply["In-Reply-To"] and reply["Auto-Submitted"] == "auto-replied"
    assert f"Played: {chosen}" in reply.get_body(preferencelist=("plain",)).get_content()
    # Nothing on standard input: retrying would not help, so it is recorded as refused and the
    # MTA is told the message was taken (exit 0).
    empty = subprocess.run(command, input=b"", cwd=ROOT, env=env, capture_output=True,
                           timeout=120)
    assert empty.returncode == 0, empty.stderr.decode()[-2000:]
    assert b"refused (malformed)" in empty.stdout
    assert InboundMessage.objects.count() == 2
    assert InboundMessage.objects.get(raw=b"").detail.startswith(
        "Your email could not be read safely (an empty message)")


# A throughput figure over 100 answers (~35 s of a worker): with the slow tests.
@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db
def test_throughput_of_answers_through_the_parser_and_services(capsys):
    """Answers per second, each parsed, checked, recorded and answered (status and moves)."""
    games = [started() for _ in range(10)]
    raws = []
    for _game, (_alice, bob) in games:
        raws += [answer(last_mail_to(bob), "status") for _ in range(9)]
        raws.append(answer(last_mail_to(bob), "2"))
    mail.outbox.clear()
    began = time.perf_counter()
    with committed():
        for raw in raws:
            inbound_email_receive(raw=raw, channel="pipe")
    elapsed = time.perf_counter() - began
    rate = len(raws) / elapsed
    with capsys.disabled():
        print(f"\nplay by email: {len(raws)} answers in {elapsed:.2f}s = {rate:.0f}/s "
              f"(PostgreSQL, answers rendered and sent to the locmem backend)")
    assert Action.objects.filter(source="email").count() == 10
    assert len(mail.outbox) >= len(raws)
    assert all(mails_to(bob) for _, (alice, bob) in games)
    # No floor on the rate: a timed assertion fails on a busy machine; tests/perf's
    # test_email_throughput measures it (`make bench`).
