"""Runs one deadline sweep by hand, in this process (beat fans it out to the workers)."""

from django.core.management.base import BaseCommand

from games.services import deadlines_sweep


class Command(BaseCommand):
    help = "Time out every seat whose deadline has passed and send due reminders, once."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=None,
                            help="most games to handle (default: every due game)")

    def handle(self, *args, limit: int | None, **options):
        report = deadlines_sweep(limit=limit)
        self.stdout.write(
            f"Swept {report.games} game(s): {report.timed_out_seats} seat(s) timed out, "
            f"{report.reminders} reminder(s) queued."
        )
