"""Helpers for the play-by-email tests: players with confirmed addresses, started games, and
answers built the way mail clients build them (RFC 822 bytes), fed through the real entrances."""

from __future__ import annotations

import base64
import email
import hashlib
import hmac
import io
import os
import re
import time
from email import policy
from email.utils import make_msgid
from pathlib import Path

from allauth.account.models import EmailAddress
from django.core import mail
from django.core.management import call_command
from django.test import Client

from tests.factories import UserFactory, committed, started_game

FIXTURES = Path(__file__).parent / "mail_replies"


def confirmed_player(**fields):
    user = UserFactory(**fields)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def started(engine="toy", players=2, *, seed: str | None = None, **options):
    """A started game of confirmed players; `seed` fixes the game's RNG (reproducible games)."""
    return started_game(players, engine=engine, make_user=confirmed_player, seed=seed, **options)


def mails_to(user):
    return [message for message in mail.outbox if message.to == [user.email]]


def last_mail_to(user):
    return mails_to(user)[-1]


def reply_to_of(message) -> str | None:
    return message.reply_to[0] if message.reply_to else None


def outcome_of(message) -> str:
    return message.extra_headers.get("X-Turnpost-Outcome", "")


def numbered_choices(message) -> dict[int, str]:
    """The numbered choices an email lists, as the player reads them in the text part."""
    return {int(number): text for number, text in
            re.findall(r"^(\d+)\. (.+)$", message.body, flags=re.MULTILINE)}


def answer(original, first_line: str, *, sender=None, message_id=None, extra_headers="",
           to=None) -> bytes:
    """A plain Gmail-style top-posted answer to `original` (an outgoing django message)."""
    sender = sender or original.to[0]
    to = to or reply_to_of(original) or "play@turnpost.localhost"
    message_id = message_id or make_msgid(domain="mail.example.com")
    quoted = "\n".join(f"> {line}" for line in original.body.splitlines())
    return (
        f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: {_re(original.subject)}\r\n"
        f"Message-ID: {message_id}\r\nIn-Reply-To: {original.extra_headers['Message-ID']}\r\n"
        f"Date: Mon, 2 Mar 2026 10:05:00 +0000\r\nMIME-Version: 1.0\r\n{extra_headers}"
        f"Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        f"{first_line}\r\n\r\nOn Mon, 2 Mar 2026 at 10:00, Turnpost <{to}> wrote:\r\n"
        f"{quoted}\r\n"
    ).replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def fixture_reply(name: str, original, *, sender=None, message_id=None) -> bytes:
    """A recorded mail client's answer with the addresses of this test filled in."""
    raw = (FIXTURES / name).read_bytes()
    values = {
        b"{{FROM}}": (sender or original.to[0]).encode(),
        b"{{TO}}": (reply_to_of(original) or "play@turnpost.localhost").encode(),
        b"{{MESSAGE_ID}}": (message_id or make_msgid(domain="client.example.net")).encode(),
        b"{{IN_REPLY_TO}}": original.extra_headers["Message-ID"].encode(),
    }
    for placeholder, value in values.items():
        raw = raw.replace(placeholder, value)
    return raw


def pipe(raw: bytes, recipient: str | None = None) -> str:
    """Feeds one message through `manage.py receive_email` (as an MTA pipe does)."""
    out = io.StringIO()
    with committed():
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=out,
                     **({"recipient": recipient} if recipient else {}))
    return out.getvalue()


def parsed(raw: bytes):
    return email.message_from_bytes(raw, policy=policy.default)


def _re(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def with_header(raw: bytes, name: str, value: bytes | str | None) -> bytes:
    """`raw` with every `name:` header line replaced by one carrying `value` (None: removed)."""
    head, separator, body = raw.partition(b"\r\n\r\n")
    lines = [line for line in head.split(b"\r\n")
             if not line.lower().startswith(name.lower().encode() + b":")]
    if value is not None:
        value = value.encode("utf-8") if isinstance(value, str) else value
        lines.insert(0, name.encode() + b": " + value)
    return b"\r\n".join(lines) + separator + body


# ---- Mailgun's inbound webhook (signed), the webhook entrance the tests use --------------------

SIGNING_KEY = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"


def mailgun_signature(timestamp: str, token: str, key: str = SIGNING_KEY) -> str:
    return hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()


def mailgun_configured(settings) -> None:
    """Mailgun's inbound webhook with our signing key (use from a test module's fixture)."""
    settings.ANYMAIL = {**settings.ANYMAIL, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


def webhook_auth() -> dict[str, str]:
    """The basic auth every inbound webhook needs (ANYMAIL_WEBHOOK_SECRET, which development
    makes in DATA_DIR when unset), as Client keyword arguments."""
    from django.conf import settings

    secret = settings.ANYMAIL.get("WEBHOOK_SECRET", "").encode()
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret).decode()} if secret else {}


def mailgun_post(fields: dict, *, path="/anymail/mailgun/inbound_mime/", key=SIGNING_KEY,
                 **extra):
    timestamp, token = str(int(time.time())), os.urandom(25).hex()
    payload = {**fields, "timestamp": timestamp, "token": token,
               "signature": mailgun_signature(timestamp, token, key)}
    with committed():
        return Client().post(path, payload, **{**webhook_auth(), **extra})


def mailgun_raw_post(raw: bytes, *, recipient: str = "", **extra):
    """Mailgun's raw-MIME forward as it arrives: a signed multipart form whose body-mime field
    holds the message's bytes as they are (not necessarily UTF-8)."""
    timestamp, token = str(int(time.time())), os.urandom(25).hex()
    fields = {"body-mime": raw, "recipient": recipient.encode(), "timestamp": timestamp.encode(),
              "token": token.encode(), "signature": mailgun_signature(timestamp, token).encode()}
    boundary = "turnpost-test-" + os.urandom(8).hex()
    body = b"".join(
        b"--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n"
        % (boundary.encode(), name.encode(), value) for name, value in fields.items()
    ) + b"--%s--\r\n" % boundary.encode()
    with committed():
        return Client(raise_request_exception=False).post(
            "/anymail/mailgun/inbound_mime/", body,
            content_type=f"multipart/form-data; boundary={boundary}",
            **{**webhook_auth(), **extra})
