"""The embedded-defaults email backend: every message becomes an .eml file in the outbox folder,
readable with any mail client and listed at /dev/outbox/ while DEBUG is on."""

from __future__ import annotations

import uuid
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone


class OutboxEmailBackend(BaseEmailBackend):
    def __init__(self, *, outbox_dir: str | Path | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.outbox_dir = Path(outbox_dir or settings.EMAIL_OUTBOX_DIR)

    def send_messages(self, email_messages) -> int:
        self.outbox_dir.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            stamp = timezone.now().strftime("%Y%m%dT%H%M%S")
            path = self.outbox_dir / f"{stamp}-{uuid.uuid4().hex[:8]}.eml"
            path.write_bytes(message.message().as_bytes())
            sent += 1
        return sent
