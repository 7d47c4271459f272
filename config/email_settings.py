"""Settings of email: sending (SMTP or a provider through django-anymail, else the local
outbox), phone push's VAPID key, and play by email (notifications/inbound, docs/email-play.md).
Imported by config/settings.py."""

import os
from email.utils import parseaddr

from config.environment import DATA_DIR, DEBUG, env
from config.local_secrets import development_secret, random_token

# ---- email -------------------------------------------------------------------------------------
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Turnpost <play@turnpost.localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_OUTBOX_DIR = DATA_DIR / "outbox"
_email_url = env.str("EMAIL_URL", default="")
if _email_url:
    # smtp://user:password@host:587 (or smtp+tls://, smtp+ssl://): any SMTP-compatible server.
    vars().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="notifications.backends.OutboxEmailBackend")
#: Seconds an SMTP connection or command may block before the send counts as failed (and is
#: retried later); without it a mail server that stops answering holds a worker forever.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
ANYMAIL = {
    key: value
    for key, value in {
        "WEBHOOK_SECRET": env.str("ANYMAIL_WEBHOOK_SECRET", default=""),
        "MAILGUN_API_KEY": env.str("MAILGUN_API_KEY", default=""),
        "MAILGUN_WEBHOOK_SIGNING_KEY": env.str("MAILGUN_WEBHOOK_SIGNING_KEY", default=""),
        "POSTMARK_SERVER_TOKEN": env.str("POSTMARK_SERVER_TOKEN", default=""),
    }.items()
    if value
}
#: Any other django-anymail setting as ANYMAIL_<NAME>, e.g. ANYMAIL_MAILERSEND_INBOUND_SECRET or
#: ANYMAIL_MANDRILL_WEBHOOK_KEY, so every provider's inbound webhook can be secured (string values).
ANYMAIL.update({name.removeprefix("ANYMAIL_"): value for name, value in os.environ.items()
                if name.startswith("ANYMAIL_") and name != "ANYMAIL_WEBHOOK_SECRET" and value})

# ---- play by email (notifications/inbound, docs/email-play.md) ---------------------------------
#: Replies go to this address with a signed token (play+TOKEN@example.org); empty turns it off.
EMAIL_PLAY_ADDRESS = env.str("EMAIL_PLAY_ADDRESS", default=parseaddr(DEFAULT_FROM_EMAIL)[1])
#: Phone push (Web Push, notifications/push.py): the server's VAPID key (base64url, raw 32 bytes
#: or DER; generate one with `vapid --gen` from py-vapid) and the contact push services may use.
#: Unset in development, a key is made once in DATA_DIR; unset in production, push is off.
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default=f"mailto:{EMAIL_PLAY_ADDRESS}")
EMAIL_PLAY_TOKEN_MAX_AGE_DAYS = env.int("EMAIL_PLAY_TOKEN_MAX_AGE_DAYS", default=45)
EMAIL_PLAY_CHOICES_SHOWN = env.int("EMAIL_PLAY_CHOICES_SHOWN", default=20)
#: Only a confirmed address gets reply tokens and may send moves (see ACCOUNT_* above).
EMAIL_PLAY_REQUIRE_CONFIRMED = env.bool("EMAIL_PLAY_REQUIRE_CONFIRMED", default=True)
#: At most this many refusals are mailed to one sender per hour (stops loops with robots).
EMAIL_PLAY_REFUSALS_PER_HOUR = env.int("EMAIL_PLAY_REFUSALS_PER_HOUR", default=10)
#: ... and at most this many refusals in all per hour; refusals go only to confirmed addresses.
EMAIL_PLAY_REFUSALS_GLOBAL_PER_HOUR = env.int("EMAIL_PLAY_REFUSALS_GLOBAL_PER_HOUR", default=200)
#: Larger received messages are refused unread (answered when the sender is a confirmed player).
EMAIL_PLAY_MAX_MESSAGE_BYTES = env.int("EMAIL_PLAY_MAX_MESSAGE_BYTES", default=10 * 1024 * 1024)
#: The authserv-ids our own MTA or provider writes in Authentication-Results (comma-separated,
#: e.g. mx.example.org or amazonses.com); only the topmost of those headers are trusted, all
#: others are the sender's own words. EMAIL_PLAY_AUTHSERV_ID (one id) is the older name.
EMAIL_PLAY_AUTHSERV_IDS = [value.strip().lower() for value in env.list(
    "EMAIL_PLAY_AUTHSERV_IDS", default=env.list("EMAIL_PLAY_AUTHSERV_ID", default=[]))
    if value.strip()]
#: A reply is played only with a passing, From-aligned DMARC, DKIM or SPF verdict from one of
#: those headers or from the inbound provider's own fields; on by default in production. Turned
#: off with DJANGO_DEBUG=false (an MTA that cannot add the header), `check` warns
#: (notifications.W001) and only a reported fail is refused.
EMAIL_PLAY_REQUIRE_AUTHENTICATION = env.bool("EMAIL_PLAY_REQUIRE_AUTHENTICATION",
                                             default=not DEBUG)
#: Inbound webhooks need ANYMAIL_WEBHOOK_SECRET in every mode: production refuses them without it
#: (a check error and 503); development without it makes a random one on first run, kept in
#: DATA_DIR/anymail-webhook-secret ("turnpost:<password>", mode 0600).
if DEBUG and not ANYMAIL.get("WEBHOOK_SECRET"):
    ANYMAIL["WEBHOOK_SECRET"] = development_secret(
        DATA_DIR / "anymail-webhook-secret", lambda: f"turnpost:{random_token()}")
