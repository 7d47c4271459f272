"""A real Celery worker (Redis broker, PostgreSQL) resolves a simultaneous step, once."""

from __future__ import annotations

import json
import os
import time

import pytest
import redis

from games import services, tasks
from games.models import Game
from tests.conftest import wait_for
from tests.engines.toy import toy_engine
from tests.factories import open_game

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def started_toy_game(players=3):
    """Started for real: the on-commit follow-ups go to the worker through the broker."""
    game, users = open_game(players)
    game = services.game_start(game_id=game.pk, user=users[0])
    return game, {seat.number: seat.user for seat in game.seats.all()}


def test_a_real_worker_resolves_the_secret_picks_once(worker_queue):
    game, users = started_toy_game(3)
    for seat in range(3):
        services.game_action_submit(
            game_id=game.pk, user=users[seat], action={"type": "bid", "amount": 2},
            expected_version=seat,
        )
    # The on-commit task is queued; queue a duplicate too, as a redelivery would.
    tasks.resolve_game.delay(game.pk, 3)
    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    queued = [json.loads(raw)["headers"]["task"]
              for raw in broker.lrange(worker_queue["queue"], 0, -1)]
    assert queued.count("games.tasks.resolve_game") == 2
    assert Game.objects.get(pk=game.pk).version == 3
    worker_queue["start"]()
    assert wait_for(lambda: Game.objects.get(pk=game.pk).version == 4), "worker did not resolve"
    assert wait_for(lambda: broker.llen(worker_queue["queue"]) == 0)
    time.sleep(1.0)  # let the duplicate finish
    game.refresh_from_db()
    assert game.version == 4 and game.state["phase"] == "play"
    assert game.actions.filter(kind="resolve").count() == 1
    assert game.state == _replayed(game)


def _replayed(game):
    state = toy_engine.new_game(game.num_players, game.seed, game.options)
    for entry in game.actions.order_by("sequence"):
        state = (toy_engine.resolve(state) if entry.kind == "resolve"
                 else toy_engine.apply(state, entry.seat_number, entry.payload))
    return state


def test_a_real_worker_sweeps_deadlines_and_delivers_the_emails(worker_queue):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat
    from notifications.models import Notification

    game, users = started_toy_game(2)
    # The start's notifications were queued for the worker; make both seats overdue.
    Seat.objects.filter(game=game).update(deadline_at=timezone.now() - timedelta(seconds=1))
    tasks.sweep_deadlines.delay()
    worker_queue["start"]()
    assert wait_for(lambda: Game.objects.get(pk=game.pk).actions.filter(
        source="timeout").count() == 2), "the worker did not sweep"
    assert wait_for(lambda: Game.objects.get(pk=game.pk).version == 3), "no resolution"
    # game_started and timed_out for each player; no second "your turn" for the first seat of
    # the sequential phase: the start already told it, and it has not acted or looked since.
    # (Before the start, the creator was told the game was full: game_lobby.)
    assert wait_for(lambda: Notification.objects.filter(email_status="sent").count() == 5)
    assert sorted(Notification.objects.values_list("kind", flat=True)) == [
        "game_lobby", "game_started", "game_started", "timed_out", "timed_out"]
    emails = sorted(worker_queue["outbox"].glob("*.eml"))
    assert len(emails) == 5
    subjects = sorted(
        line.split(": ", 1)[1] for path in emails for line in path.read_text().splitlines()
        if line.startswith("Subject: ")
    )
    assert sum("ran out of time" in subject for subject in subjects) == 2
