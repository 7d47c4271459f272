"""Ratings after many games between players of known different strength, through the real code:
two accounts play Stone Age against each other (a game created, joined and started through
games.services, played out by the engine), and each finished game is rated by the real rating
task. One always plays the engine's heuristic bot move, the other a uniformly random legal
move. The heuristic player must end clearly higher; the table is written to TEST_ARTIFACTS_DIR.

    TURNPOST_RATING_GAMES=200 nice -n 10 make test \
        PYTEST_ARGS="tests/perf/test_rating_simulation.py -q -s"

(The default is 20 games, so that the ordinary suite stays quick.)"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest
from django.utils import timezone

from games import services, tasks
from games.engines.registry import get_engine
from games.models import Game, GameStatus, Rating, RatingApplication
from games.services import ratings
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

GAMES = int(os.environ.get("TURNPOST_RATING_GAMES", "20"))
ENGINE = "stone_age"
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS_DIR", Path(__file__).resolve().parents[2]
                                / "test-artifacts"))


def play_game(strong, weak, number: int) -> Game:
    """A real game row (created, joined and started through the services) played to its end
    by the pure engine in memory, then finished and rated by the real rating task. (Playing
    every move through the services costs about 14 s a game here; the moves are not what is
    measured.)"""
    engine = get_engine(ENGINE)
    creator, joiner = (strong, weak) if number % 2 else (weak, strong)
    game = services.game_create(creator=creator, engine_slug=ENGINE, num_players=2)
    services.game_join(game_id=game.pk, user=joiner)
    game = services.game_start(game_id=game.pk, user=creator)
    chooser = random.Random(number)
    users = {seat.number: seat.user for seat in game.seats.select_related("user")}
    state = game.state
    for _ in range(20000):
        if engine.is_over(state):
            break
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        if users[seat] == strong:
            action = engine.bot_action(state, seat)
        else:
            action = chooser.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
    assert engine.is_over(state), f"game {number} did not finish"
    Game.objects.filter(pk=game.pk).update(
        state=state, status=GameStatus.FINISHED, result=engine.result(state),
        finished_at=timezone.now())
    assert tasks.apply_game_ratings.delay(game.pk).get() is True
    return Game.objects.get(pk=game.pk)


def test_the_stronger_player_ends_clearly_higher():
    # No email addresses: nothing to mail after every move, only the games and their ratings.
    strong = UserFactory(username="heuristic", email="")
    weak = UserFactory(username="random-mover", email="")
    started = time.monotonic()
    table = []
    wins = {strong.pk: 0, weak.pk: 0}
    for number in range(1, GAMES + 1):
        game = play_game(strong, weak, number)
        assert RatingApplication.objects.filter(game=game, skipped="").exists()
        for seat in game.seats.all():
            wins[seat.user_id] += seat.number in game.result["winners"]
        if number in {1, 2, 5, 10, 20, 50, 100, 150, 200} or number == GAMES:
            rows = {row.user_id: row for row in Rating.objects.filter(engine=ENGINE)}
            table.append({
                "games": number,
                "heuristic": {"mu": round(rows[strong.pk].mu, 2),
                              "sigma": round(rows[strong.pk].sigma, 2),
                              "rating": round(rows[strong.pk].ordinal, 2),
                              "wins": wins[strong.pk]},
                "random": {"mu": round(rows[weak.pk].mu, 2),
                           "sigma": round(rows[weak.pk].sigma, 2),
                           "rating": round(rows[weak.pk].ordinal, 2),
                           "wins": wins[weak.pk]},
            })
    elapsed = time.monotonic() - started
    final = table[-1]
    lines = ["| games | heuristic rating (mu, sigma) | wins | random rating (mu, sigma) | wins |",
             "|---|---|---|---|---|"]
    lines += [f"| {row['games']} | {row['heuristic']['rating']} ({row['heuristic']['mu']}, "
              f"{row['heuristic']['sigma']}) | {row['heuristic']['wins']} | "
              f"{row['random']['rating']} ({row['random']['mu']}, {row['random']['sigma']}) | "
              f"{row['random']['wins']} |" for row in table]
    print("\n".join(lines))
    print(f"{GAMES} games in {elapsed:.0f} s")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "rating-simulation.json").write_text(json.dumps(
        {"engine": ENGINE, "games": GAMES, "seconds": round(elapsed), "table": table},
        indent=1))
    (ARTIFACTS / "rating-simulation.md").write_text("\n".join(lines) + "\n")
    # Clearly higher: the rating gap exceeds both uncertainties put together, and the
    # heuristic player is no longer provisional.
    gap = final["heuristic"]["rating"] - final["random"]["rating"]
    assert gap > final["heuristic"]["sigma"] + final["random"]["sigma"], final
    assert not ratings.rating_of(strong, ENGINE).provisional or GAMES < ratings.PROVISIONAL_GAMES
