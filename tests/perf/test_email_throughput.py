"""Emails delivered per second by one Celery worker (solo pool) to a local SMTP server.
Reports the number; asserts only that every message arrived intact."""

from __future__ import annotations

import json
import os
import socket
import time

import pytest
from aiosmtpd.controller import Controller
from django.db import transaction

from notifications import services
from notifications.models import Notification
from tests.conftest import wait_for
from tests.factories import UserFactory
from tests.perf.test_sweep_speed import ARTIFACTS

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

EMAILS = int(os.environ.get("TURNPOST_BENCH_EMAILS", "300"))


class Counter:
    def __init__(self):
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "250 OK"


def test_emails_per_second_through_one_worker(worker_queue):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    handler = Counter()
    smtp = Controller(handler, hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        worker_queue["env"]["EMAIL_URL"] = f"smtp://127.0.0.1:{port}"
        worker_queue["start"]()
        assert worker_queue["wait_ready"](), "worker did not come up"
        users = [UserFactory() for _ in range(20)]
        started = time.perf_counter()
        with transaction.atomic():
            for index in range(EMAILS):
                services.notify(user=users[index % 20], kind="invitation",
                                context={"inviter": "Bench"})
        assert wait_for(lambda: handler.count >= EMAILS, timeout=300), handler.count
        elapsed = time.perf_counter() - started
    finally:
        smtp.stop()
    assert Notification.objects.filter(email_status="sent").count() == EMAILS
    rate = EMAILS / elapsed
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "email-throughput.json").write_text(
        json.dumps({"emails": EMAILS, "seconds": round(elapsed, 2),
                    "emails_per_second": round(rate, 1)}, indent=2))
    print(f"\n{EMAILS} emails in {elapsed:.2f}s: {rate:.1f}/s through one worker")
