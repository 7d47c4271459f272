"""A system check that stops `migrate`, `check` and `runserver` when inbound email webhooks
would accept posts from anyone (no ANYMAIL_WEBHOOK_SECRET)."""

from __future__ import annotations

from django.core.checks import Error, register

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

