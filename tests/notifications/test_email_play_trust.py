"""Play by email trusts only what it can verify, through both real entrances (`manage.py
receive_email` reading a message on standard input, and Mailgun's signed inbound webhook):
a From that is not strictly one plain address is refused; a DMARC fail (or, without DMARC, a
DKIM or SPF fail) reported by our own mail boundary or by the provider is refused; webhooks do
not run in production without ANYMAIL_WEBHOOK_SECRET; refusals go only to confirmed accounts,
under a fixed subject and a global hourly cap; oversized messages are refused unread."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client

from games.models import Action
from notifications.inbound.answers import REFUSAL_SUBJECT
from notifications.inbound.trust import Verdict, authentication_failure, provider_verdicts
from notifications.models import EmailReply, InboundMessage
from tests.conftest import ROOT
from tests.notifications.email_play import (
    answer,
    committed,
    confirmed_player,
    last_mail_to,
    mailgun_configured,
    mailgun_post,
    mailgun_raw_post,
    mails_to,
    outcome_of,
    pipe,
    reply_to_of,
    started,
    webhook_auth,
    with_header,
)

pytestmark = pytest.mark.django_db
ENTRANCES = ("pipe", "webhook")


@pytest.fixture
def mailgun(settings):
    mailgun_configured(settings)


def deliver(entrance: str, raw: bytes, recipient: str = "") -> None:
    if entrance == "pipe":
        pipe(raw)
    else:
        response = mailgun_raw_post(raw, recipient=recipient)
        assert response.status_code == 200, response.content[:500]


def latest() -> InboundMessage:
    return InboundMessage.objects.order_by("-id").first()


def nothing_played(game) -> bool:
    return not Action.objects.filter(game=game).exists()


# ---- strict From --------------------------------------------------------------------------------

#: From header values (the player's confirmed address is {bob}) that must not pass for the player.
DECEPTIVE_FROMS = {
    "address as display name": '"{bob}" <mallory@evil.test>',
    "bare address as display name": "{bob} <mallory@evil.test>",
    "encoded address as display name": "=?utf-8?q?{bob_q}?= <mallory@evil.test>",
    "two addresses": "{bob}, mallory@evil.test",
    "a group": "Players: {bob};",
    "an address in a comment": "mallory@evil.test ({bob})",
    "quoted local part": '"{bob}"@evil.test',
    "no address": "Bob",
    "unclosed angle": "Bob <{bob}",
}


@pytest.mark.parametrize("entrance", ENTRANCES)
@pytest.mark.parametrize("label", sorted(DECEPTIVE_FROMS))
def test_a_from_that_is_not_one_plain_address_is_refused(mailgun, entrance, label):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    value = DECEPTIVE_FROMS[label].format(bob=bob.email, bob_q=bob.email.replace("@", "=40"))
    raw = with_header(answer(start, "2"), "From", value)
    mail.outbox.clear()
    deliver(entrance, raw, reply_to_of(start))
    inbound = latest()
    assert (inbound.status, inbound.reason) == ("refused", "bad_sender"), inbound.detail
    assert inbound.sender == "" and "not answered" in inbound.detail
    assert mail.outbox == [] and nothing_played(game)


@pytest.mark.parametrize("entrance", ENTRANCES)
def test_missing_and_repeated_from_headers_are_refused(mailgun, entrance):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    missing = with_header(answer(start, "2"), "From", None)
    twice = with_header(answer(start, "2"), "From", f"Bob <{bob.email}>\r\nFrom: {bob.email}")
    for raw, problem in ((missing, "no From header"), (twice, "2 From headers")):
        deliver(entrance, raw, reply_to_of(start))
        assert (latest().status, latest().reason) == ("refused", "bad_sender")
        assert problem in latest().detail
    assert nothing_played(game)


def test_a_plain_display_name_still_plays():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    pipe(with_header(answer(start, "2"), "From", f'"Bob, the Builder" <{bob.email}>'))
    assert (latest().status, latest().reason) == ("applied", "move")


# ---- SPF / DKIM / DMARC -------------------------------------------------------------------------

OUR_MX = "mx.turnpost.test"


@pytest.fixture
def our_mx(settings):
    """Our MTA writes Authentication-Results headers as mx.turnpost.test."""
    settings.EMAIL_PLAY_AUTHSERV_IDS = [OUR_MX, "second.turnpost.test"]


def authenticated(raw: bytes, *headers: str) -> bytes:
    """`raw` with Authentication-Results headers on top, the first one topmost."""
    lines = b"".join(f"Authentication-Results: {value}\r\n".encode() for value in headers)
    return lines + raw


@pytest.mark.parametrize("entrance", ENTRANCES)
def test_a_dmarc_fail_from_the_topmost_header_is_refused_and_told_to_the_player(our_mx, mailgun,
                                                                                entrance):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = authenticated(answer(start, "2"),
                        f"{OUR_MX}; spf=pass smtp.mailfrom=example.com; dkim=none; "
                        "dmarc=fail (p=reject) header.from=example.com")
    mail.outbox.clear()
    deliver(entrance, raw, reply_to_of(start))
    assert (latest().status, latest().reason) == ("refused", "auth_failed")
    assert f"dmarc=fail ({OUR_MX})" in latest().detail
    (reply,) = mail.outbox
    assert reply.to == [bob.email] and reply.subject == REFUSAL_SUBJECT
    assert outcome_of(reply) == "refused; auth_failed"
    assert nothing_played(game)


def test_a_header_of_an_authserv_id_we_did_not_name_is_the_senders_own_words(settings):
    """Anyone can write an Authentication-Results header: without EMAIL_PLAY_AUTHSERV_IDS none
    is trusted, whatever it says or where it stands."""
    settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION = True
    assert settings.EMAIL_PLAY_AUTHSERV_IDS == []
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    pipe(authenticated(answer(start, "2"), f"{OUR_MX}; dmarc=pass header.from=example.com"))
    assert (latest().status, latest().reason) == ("refused", "unauthenticated")
    assert nothing_played(game)


@pytest.mark.parametrize("results, refused", [
    ("spf=fail smtp.mailfrom=example.com", True),
    ("dkim=fail header.d=example.com", True),
    ("dkim=fail header.d=example.com; dkim=pass header.d=example.com", False),
    ("spf=fail smtp.mailfrom=example.com; dmarc=pass header.from=example.com", False),
    ("spf=softfail smtp.mailfrom=example.com", False),
    ("dkim=permerror header.d=example.com; spf=neutral smtp.mailfrom=example.com", False),
    ("dmarc=fail header.from=example.com; dkim=pass header.d=example.com", True),
])
def test_our_authserv_ids_verdicts_decide(our_mx, results, refused):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    # A header of another server above ours is not ours to trust, whatever it says.
    pipe(authenticated(answer(start, "2"), "relay.example; dmarc=fail header.from=example.com",
                       f"{OUR_MX}; {results}"))
    expected = ("refused", "auth_failed") if refused else ("applied", "move")
    assert (latest().status, latest().reason) == expected, latest().detail
    assert nothing_played(game) is refused


def test_mailgun_reports_an_spf_fail_in_its_own_header(mailgun):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = with_header(answer(start, "2"), "X-Mailgun-Spf", "Fail")
    mailgun_raw_post(raw, recipient=reply_to_of(start))
    assert (latest().status, latest().reason) == ("refused", "auth_failed")
    assert "spf=fail (webhook:mailgun)" in latest().detail and nothing_played(game)
    # The same header through the pipe is a stranger's words, not Mailgun's: ignored.
    pipe(with_header(answer(start, "2"), "X-Mailgun-Spf", "Fail"))
    assert (latest().status, latest().reason) == ("applied", "move")


def test_sendgrids_spf_and_dkim_fields_through_its_inbound_webhook(settings):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": "hook:s3cret-pass"}
    auth = "Basic " + base64.b64encode(b"hook:s3cret-pass").decode()
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    for spf, dkim, outcome in (("fail", "{@example.com : pass}", "auth_failed"),
                               ("pass", "{@example.com : fail}", "auth_failed"),
                               ("softfail", "{@example.com : pass}", "move")):
        fields = {"email": answer(start, "2").decode(), "SPF": spf, "dkim": dkim,
                  "envelope": json.dumps({"from": bob.email, "to": [reply_to_of(start)]})}
        with committed():
            response = Client().post("/anymail/sendgrid/inbound/", fields,
                                     HTTP_AUTHORIZATION=auth)
        assert response.status_code == 200
        assert (latest().channel, latest().reason) == ("webhook:sendgrid", outcome), (spf, dkim)
    assert Action.objects.filter(game=game).count() == 1


def test_provider_verdicts_from_amazon_ses_receipts():
    receipt = {"receipt": {"spfVerdict": {"status": "PASS"}, "dkimVerdict": {"status": "GRAY"},
                           "dmarcVerdict": {"status": "FAIL"}}}
    verdicts = provider_verdicts("Amazon SES", receipt, None)
    assert [(v.method, v.result) for v in verdicts] == [("dmarc", "fail"), ("spf", "pass")]
    assert authentication_failure(verdicts) == "dmarc=fail (webhook:amazonses)"


def test_the_rule_for_verdicts():
    def fails(*pairs):
        return bool(authentication_failure([Verdict(m, r, "mx") for m, r in pairs]))

    assert fails(("dmarc", "fail"))
    assert not fails(("dmarc", "pass"), ("spf", "fail"), ("dkim", "fail"))
    assert fails(("spf", "fail"))
    assert not fails(("spf", "softfail"), ("dkim", "neutral"))
    assert fails(("dkim", "fail"))
    assert not fails(("dkim", "fail"), ("dkim", "pass"))
    assert not fails()


# ---- nobody vouched for the sender: refused where authentication is required -------------------


@pytest.mark.parametrize("entrance", ENTRANCES)
def test_a_forged_from_with_a_leaked_reply_address_and_no_verdict_is_refused(settings, mailgun,
                                                                             entrance):
    """alice has seen bob's reply address (a forwarded email, a shared screen) and writes to it
    with bob's address in From; no mail system vouches for that From."""
    settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION = True
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    forged = answer(start, "2", sender=bob.email)
    assert b"Authentication-Results" not in forged
    mail.outbox.clear()
    deliver(entrance, forged, reply_to_of(start))
    inbound = latest()
    assert (inbound.status, inbound.reason) == ("refused", "unauthenticated"), inbound.detail
    assert inbound.user is None and inbound.game is None and nothing_played(game)
    # Told only to the confirmed address in From, under the fixed subject, about no game.
    (refusal,) = mail.outbox
    assert refusal.to == [bob.email] and refusal.subject == REFUSAL_SUBJECT
    assert outcome_of(refusal) == "refused; unauthenticated"
    assert "SPF, DKIM or DMARC" in refusal.body and start.subject not in refusal.body


#: Results our MTA reports for bob@example.com's answer, and whether it is played.
VOUCHING = [
    ("dmarc=pass header.from=example.com", True),
    ("dmarc=pass", True),
    ("dkim=pass header.d=example.com header.i=@example.com", True),
    ("dkim=pass header.i=@example.com", True),
    ("spf=pass smtp.mailfrom=bounces@example.com", True),
    ("spf=pass smtp.mailfrom=example.com; dkim=none", True),
    # Aligned with a parent of the From domain only, never a child or a stranger.
    ("dkim=pass header.d=com", False),
    ("dkim=pass header.d=mail.example.com", False),
    ("dkim=pass header.d=evil.test", False),
    ("spf=pass smtp.mailfrom=mallory@evil.test", False),
    ("spf=pass smtp.helo=mx.evil.test", False),
    ("dmarc=pass header.from=evil.test", False),
    ("spf=softfail smtp.mailfrom=example.com; dkim=neutral header.d=example.com", False),
    ("dkim=none; spf=none; dmarc=none", False),
]


@pytest.mark.parametrize("results, played", VOUCHING)
def test_only_a_passing_aligned_verdict_of_ours_vouches_for_the_sender(our_mx, settings, results,
                                                                        played):
    settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION = True
    game, (alice, bob) = started()
    assert bob.email.endswith("@example.com")
    start = last_mail_to(bob)
    pipe(authenticated(answer(start, "2"), f"second.turnpost.test; {results}"))
    expected = ("applied", "move") if played else ("refused", "unauthenticated")
    assert (latest().status, latest().reason) == expected, latest().detail
    assert nothing_played(game) is not played


def test_only_the_topmost_run_of_our_headers_is_trusted(our_mx, settings):
    """Another server's header above ours is skipped; below the first header that is not ours,
    a header claiming our id is the sender's (our MTA stamps above everything it received)."""
    settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION = True
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    pipe(authenticated(answer(start, "2"), f"{OUR_MX}; spf=none", "relay.example; spf=none",
                       f"{OUR_MX}; dmarc=pass header.from=example.com"))
    assert (latest().status, latest().reason) == ("refused", "unauthenticated")
    pipe(authenticated(answer(start, "2"), "filter.example; spf=none",
                       f"{OUR_MX}; dmarc=pass header.from=example.com"))
    assert (latest().status, latest().reason) == ("applied", "move")


def test_a_providers_aligned_pass_vouches_through_its_webhook(settings, mailgun):
    """Mailgun says "Pass" without a domain: SPF speaks for the envelope sender it reports
    (anymail's envelope_sender), DKIM for the message's one signing domain."""
    settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION = True
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    for envelope_sender, outcome in (("bounce@evil.test", "unauthenticated"),
                                     (bob.email, "move")):
        spf_pass = with_header(answer(start, "2"), "X-Mailgun-Spf", "Pass")
        response = mailgun_post({"body-mime": spf_pass.decode(), "sender": envelope_sender,
                                 "recipient": reply_to_of(start)})
        assert response.status_code == 200 and latest().reason == outcome, envelope_sender
    # (The game moved on since that email: a stale answer, but a vouched-for one.)
    for signer, vouched in (("evil.test", False), ("example.com", True)):
        signed = with_header(answer(start, "1"), "X-Mailgun-Dkim-Check-Result", "Pass")
        signed = with_header(signed, "DKIM-Signature", f"v=1; d={signer}; s=s1; b=AAAA")
        mailgun_raw_post(signed, recipient=reply_to_of(start))
        assert (latest().reason != "unauthenticated") is vouched, (signer, latest().detail)


def test_sendgrids_aligned_dkim_pass_vouches(settings):
    settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION = True
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    for dkim, outcome in (("{@evil.test : pass}", "unauthenticated"),
                          ("{@example.com : pass}", "move")):
        fields = {"email": answer(start, "2").decode(), "SPF": "none", "dkim": dkim,
                  "envelope": json.dumps({"from": bob.email, "to": [reply_to_of(start)]})}
        with committed():
            response = Client().post("/anymail/sendgrid/inbound/", fields, **webhook_auth())
        assert response.status_code == 200 and latest().reason == outcome, dkim


@pytest.mark.slow  # seven Django processes: 21 s
def test_production_requires_authentication_unless_told_not_to_with_a_warning(tmp_path):
    """DJANGO_DEBUG=false turns the requirement on; EMAIL_PLAY_REQUIRE_AUTHENTICATION=false turns
    it off, and `check` (which `migrate` runs before the server starts) warns."""
    env = {**os.environ, "DJANGO_DEBUG": "false", "DATA_DIR": str(tmp_path),
           "DJANGO_SECRET_KEY": "k" + base64.b64encode(os.urandom(60)).decode(),
           "DJANGO_ALLOWED_HOSTS": "play.example.org", "ANYMAIL_WEBHOOK_SECRET": "hook:s3cret"}
    env.pop("EMAIL_PLAY_REQUIRE_AUTHENTICATION", None)
    show = [sys.executable, "manage.py", "shell", "-v", "0", "-c",
            "from django.conf import settings; print(settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION)"]
    check = [sys.executable, "manage.py", "check"]

    def run(command, **extra):
        return subprocess.run(command, cwd=ROOT, env={**env, **extra}, capture_output=True,
                              text=True, timeout=120)

    assert run(show).stdout.strip() == "True"
    assert "notifications.W001" not in run(check).stderr
    assert run(show, EMAIL_PLAY_REQUIRE_AUTHENTICATION="false").stdout.strip() == "False"
    warned = run(check, EMAIL_PLAY_REQUIRE_AUTHENTICATION="false")
    assert warned.returncode == 0 and "notifications.W001" in warned.stderr, warned.stderr
    # The image starts gunicorn and the workers without a system check: each process logs it.
    started = [sys.executable, "-c", "import django; django.setup()"]
    assert "notifications.W001" not in run(started, DJANGO_SETTINGS_MODULE="config.settings").stderr
    logged = run(started, DJANGO_SETTINGS_MODULE="config.settings",
                 EMAIL_PLAY_REQUIRE_AUTHENTICATION="false")
    assert "EMAIL_PLAY_REQUIRE_AUTHENTICATION is off" in logged.stderr, logged.stderr
    assert run(show, DJANGO_DEBUG="true").stdout.strip() == "False"  # `make run`


# ---- webhooks need a secret in every mode -------------------------------------------------------


def test_a_provider_without_its_keys_answers_503_and_records_nothing(settings):
    """Mailgun's webhook on a site with no MAILGUN_WEBHOOK_SIGNING_KEY (`make run`): a plain 503,
    not a 500 page."""
    settings.ANYMAIL = {key: value for key, value in settings.ANYMAIL.items()
                        if key != "MAILGUN_WEBHOOK_SIGNING_KEY"}
    response = Client().post("/anymail/mailgun/inbound/", {"body-mime": "x"}, **webhook_auth())
    assert response.status_code == 503 and b"not configured" in response.content
    assert not InboundMessage.objects.exists()


def test_webhooks_without_a_secret_answer_503_and_record_nothing(mailgun, settings):
    settings.ANYMAIL = {key: value for key, value in settings.ANYMAIL.items()
                        if key != "WEBHOOK_SECRET"}
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    response = mailgun_post({"body-mime": answer(start, "2").decode(),
                             "recipient": reply_to_of(start)})
    assert response.status_code == 503 and b"ANYMAIL_WEBHOOK_SECRET" in response.content
    assert not InboundMessage.objects.exists() and nothing_played(game)
    with pytest.raises(SystemCheckError, match=r"notifications\.E001"):
        call_command("check")
    # With the secret, the same (now also basic-authenticated) delivery plays.
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": "hook:s3cret-pass"}
    call_command("check", stdout=io.StringIO())
    auth = "Basic " + base64.b64encode(b"hook:s3cret-pass").decode()
    response = mailgun_post({"body-mime": answer(start, "2").decode(),
                             "recipient": reply_to_of(start)}, HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200 and latest().reason == "move"


@pytest.mark.slow  # two Django processes: 13 s
def test_production_settings_without_a_secret_fail_the_system_check():
    """As deployed: DJANGO_DEBUG=false, so `migrate` (which compose and `make run` run before
    the web server) stops with the check's error until ANYMAIL_WEBHOOK_SECRET is set."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "false",
           "DJANGO_SECRET_KEY": "k" + base64.b64encode(os.urandom(60)).decode(),
           "DJANGO_ALLOWED_HOSTS": "play.example.org"}
    env.pop("ANYMAIL_WEBHOOK_SECRET", None)
    command = [sys.executable, "manage.py", "check"]
    refused = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert refused.returncode != 0 and b"notifications.E001" in refused.stderr
    env["ANYMAIL_WEBHOOK_SECRET"] = "hook:s3cret-pass"
    allowed = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert b"notifications.E001" not in allowed.stderr + allowed.stdout


# ---- refusals: confirmed accounts only, fixed subject, capped -----------------------------------


def test_refusals_never_echo_the_incoming_subject_answers_still_thread():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    shouting = "Re: CLICK http://evil.test/win NOW"
    pipe(with_header(answer(start, "7"), "Subject", shouting))
    refusal = last_mail_to(bob)
    assert outcome_of(refusal) == "refused; illegal_choice"
    assert refusal.subject == REFUSAL_SUBJECT and "evil.test" not in refusal.body
    # alice (a confirmed account) answering bob's email: refused to her, under the same subject
    pipe(with_header(answer(start, "2", sender=alice.email), "Subject", shouting))
    assert outcome_of(last_mail_to(alice)) == "refused; wrong_sender"
    assert last_mail_to(alice).subject == REFUSAL_SUBJECT
    pipe(answer(start, "2"))
    assert last_mail_to(bob).subject == "Re: " + start.subject


def test_refusals_stop_at_the_global_hourly_cap(settings):
    settings.EMAIL_PLAY_REFUSALS_GLOBAL_PER_HOUR = 3
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    senders = [confirmed_player() for _ in range(5)]
    mail.outbox.clear()
    for sender in senders:
        pipe(answer(start, "2", sender=sender.email, to="play+bogus@turnpost.localhost"))
    reasons = list(InboundMessage.objects.order_by("id").values_list("status", "reason"))
    assert reasons == [("refused", "unknown_token")] * 3 + [("dropped", "throttled")] * 2
    assert [message.to for message in mail.outbox] == [[s.email] for s in senders[:3]]
    assert all(message.subject == REFUSAL_SUBJECT for message in mail.outbox)


def test_an_inactive_accounts_confirmed_address_gets_no_refusal():
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    gone = confirmed_player(is_active=False)
    mail.outbox.clear()
    pipe(answer(start, "2", sender=gone.email))
    assert (latest().status, latest().reason) == ("refused", "wrong_sender")
    assert mail.outbox == [] and not EmailReply.objects.exists()


# ---- size ---------------------------------------------------------------------------------------


def padded(raw: bytes, size: int) -> bytes:
    """`raw` with quoted lines appended until it is `size` bytes long."""
    line = b"> " + b"x" * 76 + b"\r\n"
    return raw + line * ((size - len(raw)) // len(line) + 1)


def test_a_message_over_the_default_limit_is_refused_unread_through_the_pipe(settings):
    assert settings.EMAIL_PLAY_MAX_MESSAGE_BYTES == 10 * 1024 * 1024
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    raw = padded(answer(start, "2"), 10 * 1024 * 1024 + 100)
    mail.outbox.clear()
    pipe(raw)
    inbound = latest()
    assert (inbound.status, inbound.reason) == ("refused", "too_large")
    assert f"({len(raw)} bytes)" in inbound.detail
    # Only the headers are kept; the text was never read.
    assert len(bytes(inbound.raw)) < 2000 and inbound.text == ""
    (reply,) = mail.outbox
    assert reply.to == [bob.email] and reply.subject == REFUSAL_SUBJECT
    assert "larger than 10 MB" in reply.body and nothing_played(game)


def test_the_pipe_keeps_at_most_the_limit_and_one_byte(settings):
    from notifications.management.commands.receive_email import read_bounded

    stream = io.BytesIO(b"a" * 5000)
    kept, size = read_bounded(stream, 1000)
    assert (len(kept), size, stream.read()) == (1001, 5000, b"")
    assert read_bounded(io.BytesIO(b"a" * 1000), 1000) == (b"a" * 1000, 1000)


def test_an_oversized_message_through_the_webhook_is_refused_with_an_answer(mailgun, settings):
    settings.EMAIL_PLAY_MAX_MESSAGE_BYTES = 20_000
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    mail.outbox.clear()
    assert mailgun_raw_post(padded(answer(start, "2"), 30_000),
                            recipient=reply_to_of(start)).status_code == 200
    assert (latest().status, latest().reason) == ("refused", "too_large")
    assert [m.to for m in mail.outbox] == [[bob.email]] and nothing_played(game)


def test_a_webhook_body_too_large_to_read_is_recorded_and_not_retried(settings):
    """Bodies over Django's DATA_UPLOAD_MAX_MEMORY_SIZE are never read: a delivery that passes
    basic auth is recorded as too large and answered 200 (any other status makes the provider
    retry); one without the secret gets anymail's 400 and records nothing."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": "hook:s3cret-pass"}
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    body = json.dumps({"RawEmail": padded(answer(start, "2"), 30_000).decode(),
                       "From": bob.email})
    url = "/anymail/postmark/inbound/"
    with committed():
        stranger = Client(raise_request_exception=False).post(
            url, body, content_type="application/json")
    assert stranger.status_code == 400 and not InboundMessage.objects.exists()
    auth = "Basic " + base64.b64encode(b"hook:s3cret-pass").decode()
    with committed():
        response = Client(raise_request_exception=False).post(
            url, body, content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200
    inbound = InboundMessage.objects.get()
    assert (inbound.channel, inbound.status, inbound.reason) == ("webhook:postmark", "refused",
                                                                 "too_large")
    assert f"({len(body)} bytes)" in inbound.detail and nothing_played(game)
    assert mails_to(bob)[-1] == start  # no sender could be read: nobody is answered
