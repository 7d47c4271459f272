"""Delivered notifications are deleted after the retention period; unsent ones stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from notifications import services, tasks
from notifications.models import EmailStatus, Notification
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def _notification(user, *, age_days: float, email: str, push: str = EmailStatus.SKIPPED):
    row = Notification.objects.create(user=user, kind="your_turn", email_status=email,
                                      push_status=push, send_after=NOW)
    Notification.objects.filter(pk=row.pk).update(created_at=NOW - timedelta(days=age_days))
    return row.pk


def test_only_old_notifications_done_with_on_both_channels_are_pruned(settings):
    settings.NOTIFICATION_RETENTION_DAYS = 30
    user = UserFactory()
    pruned = [_notification(user, age_days=31, email=status)
              for status in (EmailStatus.SENT, EmailStatus.SKIPPED, EmailStatus.FAILED)]
    kept = [
        _notification(user, age_days=29, email=EmailStatus.SENT),  # still within the period
        _notification(user, age_days=31, email=EmailStatus.PENDING),  # quiet hours, retrying
        _notification(user, age_days=31, email=EmailStatus.DIGEST),
        _notification(user, age_days=31, email=EmailStatus.SENT, push=EmailStatus.PENDING),
        _notification(user, age_days=31, email=EmailStatus.SENT, push=EmailStatus.DIGEST),
    ]
    assert services.notifications_prune(now=NOW) == len(pruned)
    assert sorted(Notification.objects.values_list("pk", flat=True)) == sorted(kept)
    assert services.notifications_prune(now=NOW) == 0


def test_the_nightly_task_prunes_in_chunks(settings, monkeypatch):
    settings.NOTIFICATION_RETENTION_DAYS = 7
    monkeypatch.setattr(services, "PRUNE_CHUNK", 2)
    user = UserFactory()
    for _ in range(5):
        _notification(user, age_days=8, email=EmailStatus.SENT)
    _notification(user, age_days=1, email=EmailStatus.SENT)
    monkeypatch.setattr(services.timezone, "now", lambda: NOW)
    assert tasks.prune_delivered_notifications() == 5
    assert Notification.objects.count() == 1
