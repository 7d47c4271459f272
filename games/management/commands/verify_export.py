"""Replays a finished game's export (GET /api/v1/games/{id}/export/) and checks its result."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.log.export import ExportMismatch, verify_export


class Command(BaseCommand):
    help = ("Replay a finished game's export file with this server's rules: every move must be "
            "legal where it was made and the end must score to the recorded result. Exits "
            "with status 1 on any mismatch.")

    def add_arguments(self, parser):
        parser.add_argument("export_file", help="the JSON saved from /api/v1/games/{id}/export/")

    def handle(self, *args, export_file: str, **options):
        try:
            data = json.loads(Path(export_file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {export_file}: {error}") from None
        try:
            self.stdout.write(verify_export(data))
        except ExportMismatch as error:
            raise CommandError(str(error)) from None
        except (KeyError, TypeError) as error:
            raise CommandError(f"Not a complete game export: missing or odd {error}.") from None
