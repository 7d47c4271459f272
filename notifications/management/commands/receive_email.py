"""Reads one email (RFC 822) from standard input and processes it for play by email: the entrance
for a local MTA pipe, e.g. Postfix `play unix - n n - - pipe user=turnpost argv=python manage.py
receive_email --recipient ${recipient}`. Exits 0 once the message is safely recorded (answered,
refused or dropped), 75 (EX_TEMPFAIL, the MTA retries) when it could not be processed."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Process one email from standard input for play by email."
    # call_command(..., stdin=stream) in tests and scripts
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("--recipient", default=None,
                            help="The envelope recipient (the MTA's ${recipient}).")
        parser.add_argument("--file", default=None, help="Read the message from this file.")

    def handle(self, *args, recipient=None, file=None, stdin=None, **options):
        from notifications.inbound.services import inbound_email_receive

        if file:
            with open(file, "rb") as handle:
                raw = handle.read()
        else:
            stdin = stdin or sys.stdin
            raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
        if isinstance(raw, str):
            raw = raw.encode("utf-8", errors="surrogateescape")
        if not raw.strip():
            self.stderr.write("No message on standard input.")
            sys.exit(EX_TEMPFAIL)
        try:
            inbound = inbound_email_receive(raw=raw, channel="pipe", envelope_recipient=recipient)
        except Exception as error:  # the MTA keeps the message and retries later
            self.stderr.write(f"Could not process the message: {type(error).__name__}: {error}")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(f"{inbound.message_id}: {inbound.status} ({inbound.reason})")
