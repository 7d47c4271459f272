"""System checks of play by email's trust: an error that stops `migrate`, `check` and
`runserver` when inbound email webhooks would accept posts from anyone (no
ANYMAIL_WEBHOOK_SECRET), and a warning when production plays replies no mail system vouched for
(EMAIL_PLAY_REQUIRE_AUTHENTICATION turned off)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.checks import Error, Warning, register

from notifications.inbound.webhooks import webhook_secret_missing


@register()
def webhook_secret_check(app_configs, **kwargs):
    if not webhook_secret_missing():
        return []
    return [Error(
        "Inbound email webhooks have no ANYMAIL_WEBHOOK_SECRET: anyone could post mail to them.",
        hint="Set ANYMAIL_WEBHOOK_SECRET to a random 'user:password' and give the provider "
             "the webhook URL with it (https://user:password@host/anymail/<provider>/inbound/). "
             "Until then the webhooks answer 503.",
        id="notifications.E001",
    )]


def _plays_unverified_replies() -> bool:
    return not settings.DEBUG and not settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION


@register()
def reply_authentication_check(app_configs, **kwargs):
    if not _plays_unverified_replies():
        return []
    return [Warning(
        "EMAIL_PLAY_REQUIRE_AUTHENTICATION is off in production: an email reply is played "
        "without a passing SPF, DKIM or DMARC verdict, so anyone who learns a player's reply "
        "address can move for them by writing the player's address in From.",
        hint="Have your MTA add Authentication-Results (and list its authserv-id in "
             "EMAIL_PLAY_AUTHSERV_IDS), or use an inbound provider that reports verdicts, then "
             "unset EMAIL_PLAY_REQUIRE_AUTHENTICATION.",
        id="notifications.W001",
    )]


def warn_at_start_up() -> None:
    """The same warning in the log of every process as it starts (the image runs gunicorn and
    the workers directly: no system check runs there)."""
    for warning in reply_authentication_check(None):
        logging.getLogger("notifications.inbound").warning("%s %s (%s)", warning.msg,
                                                           warning.hint, warning.id)
