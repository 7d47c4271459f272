"""Replays games from their logs and reports any whose stored state differs or cannot continue."""

from django.core.management.base import BaseCommand, CommandError

from games.models import Game, GameStatus
from games.services import game_health_problem


class Command(BaseCommand):
    help = (
        "Replay every active game from its action log; report each one whose stored state differs "
        "from the replay or that cannot continue. Exits with status 1 when any is found."
    )

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", dest="include_all",
                            help="check finished and aborted games too, not only active ones")
        parser.add_argument("--game", type=int, action="append", dest="game_ids",
                            help="check only this game (may be repeated)")

    def handle(self, *args, include_all: bool, game_ids: list[int] | None, **options):
        games = Game.objects.exclude(state=None).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        elif not include_all:
            games = games.filter(status=GameStatus.ACTIVE)
        checked = faulty = 0
        for game in games.iterator(chunk_size=200):
            checked += 1
            problem = game_health_problem(game=game)
            if problem:
                faulty += 1
                self.stdout.write(f"game {game.pk} ({game.engine}, {game.status}): {problem}")
        self.stdout.write(f"Checked {checked} game(s): {faulty} with a problem.")
        if faulty:
            raise CommandError(f"{faulty} game(s) cannot be trusted; see above.", returncode=1)
