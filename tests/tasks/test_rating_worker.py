"""A real Celery worker (Redis broker, PostgreSQL) rates a finished game once: the task queued
when the last move commits, and a duplicate of it, change the ratings once."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from games import services, tasks
from games.models import Game, GameStatus, Rating, RatingApplication
from tests.conftest import wait_for
from tests.engines.toy import toy_engine
from tests.factories import open_game

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_rates_a_finished_game_once(worker_queue):
    game, users = open_game(2, options={"rounds": 1})
    worker_queue["start"]()
    assert worker_queue["wait_ready"](), "the worker did not start"
    game = services.game_start(game_id=game.pk, user=users[0])
    by_seat = {seat.number: seat.user for seat in game.seats.select_related("user")}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        active = toy_engine.active_seats(game.state)
        if game.needs_resolution or not active:
            time.sleep(0.2)  # the worker resolves the bids
            continue
        seat = active[0]
        services.game_action_submit(game_id=game.pk, user=by_seat[seat],
                                    action=toy_engine.bot_action(game.state, seat),
                                    expected_version=game.version)
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    # A duplicate, as a redelivery would bring.
    tasks.apply_game_ratings.delay(game.pk)
    assert wait_for(lambda: RatingApplication.objects.filter(game=game).exists()), \
        "the worker did not rate the game"
    log = worker_queue["log"]

    def outcomes() -> list[str]:
        log.flush()
        text = Path(log.name).read_text()
        return re.findall(r"apply_game_ratings\[[^\]]+\] succeeded in [0-9.]+s: (\w+)", text)

    # Both ran on the worker: the first applied the game, the duplicate changed nothing.
    assert wait_for(lambda: len(outcomes()) == 2), outcomes()
    assert sorted(outcomes()) == ["False", "True"]
    assert RatingApplication.objects.filter(game=game).count() == 1
    assert sorted(Rating.objects.values_list("rated_games", flat=True)) == [1, 1]
