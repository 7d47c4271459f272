"""Replays finished games' exports (GET /api/v1/games/{id}/export/, or a player's bulk export,
one a line: GET /api/v1/users/{name}/games/export/) and checks their results."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.log.export import ExportMismatch, verify_export


def _exports(text: str) -> list[dict]:
    """One export (a JSON document) or many (NDJSON: one a line)."""
    try:
        return [json.loads(text)]
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


class Command(BaseCommand):
    help = ("Replay finished games' exports with this server's rules: every move must be "
            "legal where it was made and the end must score to the recorded result. The file "
            "holds one export, or one a line (NDJSON, a player's bulk export). Exits with status "
            "1 on any mismatch.")

    def add_arguments(self, parser):
        parser.add_argument("export_file", help="the JSON saved from /api/v1/games/{id}/export/, "
                                                "or the NDJSON of /api/v1/users/{name}/games/"
                                                "export/")

    def handle(self, *args, export_file: str, **options):
        try:
            exports = _exports(Path(export_file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {export_file}: {error}") from None
        failures = []
        for line, data in enumerate(exports, start=1):
            where = f"line {line}: " if len(exports) > 1 else ""
            try:
                self.stdout.write(where + verify_export(data))
            except ExportMismatch as error:
                failures.append(f"{where}{error}")
            except (KeyError, TypeError, AttributeError) as error:
                failures.append(f"{where}Not a complete game export: missing or odd {error}.")
        if failures:
            raise CommandError("\n".join(failures))
