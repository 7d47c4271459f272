"""Migration notifications 0012: webhook errors recorded with the receiver's body or a client
library's message keep only the status line or the error's class; other errors stay."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from notifications.models import Webhook, WebhookDelivery
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

migration = importlib.import_module(
    "notifications.migrations.0012_webhook_errors_without_bodies")

RECORDED = {
    "HTTP 500: ami-id: i-0SECRET instance-type: m5.large": "HTTP 500 Internal Server Error",
    "HTTP 307: ": "HTTP 307 Temporary Redirect",
    "HTTP 599: whatever": "HTTP 599",
    "ConnectionError: HTTPConnectionPool(host='10.0.0.5', port=80): Max retries exceeded":
        "ConnectionError",
    "ReadTimeout: HTTPSConnectionPool(host='hooks.example', port=443): Read timed out.":
        "ReadTimeout",
    "The webhook is off.": "The webhook is off.",
    "hooks.example cannot be resolved.": "hooks.example cannot be resolved.",
    "": "",
}


def test_recorded_bodies_and_library_messages_are_trimmed():
    hook = Webhook.objects.create(user=UserFactory(), url="https://hooks.example/x",
                                  kinds=["invitation"], secret="s" * 64, active=False,
                                  disabled_reason="HTTP 502: <html>internal proxy page</html>")
    rows = {text: WebhookDelivery.objects.create(webhook=hook, kind="invitation", body="{}",
                                                 last_error=text) for text in RECORDED}
    migration.trim(apps, None)
    for text, row in rows.items():
        row.refresh_from_db()
        assert row.last_error == RECORDED[text]
    hook.refresh_from_db()
    assert hook.disabled_reason == "HTTP 502 Bad Gateway"
