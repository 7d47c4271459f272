"""Reads one email (RFC 822) from standard input and processes it for play by email: the entrance
for a local MTA pipe."""

# E.g. Postfix `play unix - n n - - pipe user=turnpost argv=python manage.py receive_email
# --recipient ${recipient}`. Exits 0 once the message is safely recorded (answered, refused or
# dropped: an empty, oversized or malformed message too, so the MTA never retries what would
# fail again), 75 (EX_TEMPFAIL, the MTA retries) only when our database or broker was
# unreachable.

from __future__ import annotations

import sys

from django.conf import settings
from django.core.management.base import BaseCommand

EX_TEMPFAIL = 75
#: Bytes read at a time while skipping the rest of an oversized message.
_CHUNK = 1024 * 1024


def read_bounded(stream, limit: int) -> tuple[bytes, int]:
    """At most `limit` + 1 bytes of the stream (enough to tell it is too large) and its whole
    size; the rest is read and thrown away in chunks, so the MTA sees the message consumed and
    memory stays bounded."""
    kept = stream.read(limit + 1)
    if isinstance(kept, str):
        kept = kept.encode("utf-8", errors="surrogateescape")
    size = len(kept)
    if size > limit:
        while chunk := stream.read(_CHUNK):
            size += len(chunk)
    return kept, size


class Command(BaseCommand):
    help = "Process one email from standard input for play by email."
    # call_command(..., stdin=stream) in tests and scripts
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("--recipient", default=None,
                            help="The envelope recipient (the MTA's ${recipient}).")
        parser.add_argument("--file", default=None, help="Read the message from this file.")

    def handle(self, *args, recipient=None, file=None, stdin=None, **options):
        from notifications.inbound.services import inbound_email_receive, inbound_too_large_receive

        limit = settings.EMAIL_PLAY_MAX_MESSAGE_BYTES
        if file:
            with open(file, "rb") as handle:
                raw, size = read_bounded(handle, limit)
        else:
            stdin = stdin or sys.stdin
            raw, size = read_bounded(getattr(stdin, "buffer", stdin), limit)
        try:
            if size > limit:
                inbound = inbound_too_large_receive(head=raw[:64 * 1024], size=size,
                                                    channel="pipe")
            else:
                inbound = inbound_email_receive(raw=raw, channel="pipe",
                                                envelope_recipient=recipient)
        except Exception as error:  # our database or broker is away: the MTA retries later
            self.stderr.write(f"Could not process the message: {type(error).__name__}: {error}")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(f"{inbound.message_id}: {inbound.status} ({inbound.reason})")
