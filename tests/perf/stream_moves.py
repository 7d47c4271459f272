"""Mover process for the stream capacity benchmark: makes its share of the moves through the
service, on a fixed schedule, in a few threads (one per subset of games, so a game's moves stay
in order), and writes [[game, first_version, last_version, committed_unix_time], ...].

Only the service's own work is the move's cost: each thread reads a game and its players once,
then plays on from the game the service hands back (no other thread moves it).

    python -m tests.perf.stream_moves <plan.json> <process_index> <results.json>

plan.json: {"games": [...], "start": unix_time, "rate": moves_per_second, "total": moves,
            "processes": n, "threads": n}
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402

from games import services  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402
from games.models import Game  # noqa: E402


class Mover:
    """One thread's games: each read once, then followed through the service's answers."""

    def __init__(self) -> None:
        self.games: dict[int, Game] = {}
        self.players: dict[int, dict] = {}

    def move(self, game_id: int) -> tuple[int, int, int, float]:
        game = self.games.get(game_id)
        if game is None:
            game = Game.objects.get(pk=game_id)
            self.players[game_id] = {seat.number: seat.user
                                     for seat in game.seats.select_related("user")}
        engine = get_engine(game.engine)
        seat = engine.active_seats(game.state)[0]
        action = engine.legal_actions(game.state, seat)[0]
        result = services.game_action_submit(game_id=game_id, user=self.players[game_id][seat],
                                             action=action, expected_version=game.version)
        self.games[game_id] = result.game
        return game_id, game.version + 1, result.game.version, time.time()


def main(plan_path: str, process_index: int, results_path: str) -> None:
    with open(plan_path) as source:
        plan = json.load(source)
    games, workers = plan["games"], plan["processes"] * plan["threads"]
    made: list = []

    def mover(worker: int) -> None:
        games_of_thread = Mover()
        try:
            for number in range(plan["total"]):
                game_index = number % len(games)
                if game_index % workers != worker:
                    continue
                delay = plan["start"] + number / plan["rate"] - time.time()
                if delay > 0:
                    time.sleep(delay)
                made.append(games_of_thread.move(games[game_index]))
        finally:
            connection.close()

    threads = [threading.Thread(target=mover, args=(process_index * plan["threads"] + index,))
               for index in range(plan["threads"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(results_path, "w") as out:
        json.dump(made, out)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
