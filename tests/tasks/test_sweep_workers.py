"""Two real Celery workers race for the same deadline batches (the beat fan-out queued twice),
and the batches come once more later (a redelivery): every due seat is timed out exactly once,
every batch succeeds, and both workers took part."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import services, tasks
from games.models import Action, DeadlineRecord, Game, Seat
from tests.conftest import wait_for
from tests.factories import open_game

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

GAMES = 24
BATCH_DONE = re.compile(r"games\.tasks\.sweep_deadline_batch\[[^\]]+\] succeeded")


def test_two_workers_racing_for_the_same_batches_time_out_each_seat_once(worker_queue,
                                                                         monkeypatch):
    games = []
    for _ in range(GAMES):
        game, users = open_game(3)
        games.append(services.game_start(game_id=game.pk, user=users[0]))
    Seat.objects.filter(game__in=games).update(deadline_at=timezone.now() - timedelta(seconds=5))
    due_seats = GAMES * 3
    # Small batches so both workers get some; two fan-outs queue every game twice.
    monkeypatch.setattr(tasks, "SWEEP_BATCH_SIZE", 3)
    first = tasks.sweep_deadlines()
    second = tasks.sweep_deadlines()
    assert first["due_games"] == second["due_games"] == GAMES
    assert first["batches"] == GAMES // 3

    worker_queue["start"](game_workers=2)
    assert wait_for(lambda: Action.objects.filter(source="timeout").count() >= due_seats,
                    timeout=120), "the workers did not sweep"
    # Let the duplicate batches (and the resolutions the timeouts queue) finish.
    assert wait_for(lambda: not Game.objects.filter(pk__in=[g.pk for g in games],
                                                    needs_resolution=True).exists(), timeout=60)
    assert wait_for(lambda: _batches_done(worker_queue) == 2 * (GAMES // 3), timeout=60)
    # A batch delivered again long after (a redelivery): the seats now wait for the next
    # round with deadlines ahead, so nothing is due and nothing is timed out again.
    due_ids = services.deadlines_due_game_ids()
    assert due_ids == []
    for start in range(0, GAMES, 3):
        tasks.sweep_deadline_batch.delay([game.pk for game in games[start:start + 3]])
    assert wait_for(lambda: _batches_done(worker_queue) == 3 * (GAMES // 3), timeout=60)

    assert Action.objects.filter(source="timeout").count() == due_seats
    assert DeadlineRecord.objects.filter(outcome="timeout").count() == due_seats
    assert set(Seat.objects.filter(game__in=games).values_list("timeout_count", flat=True)) == {1}
    for game in games:
        game.refresh_from_db()
        sequences = list(game.actions.values_list("sequence", flat=True))
        assert sequences == list(range(1, game.version + 1))
        assert services.game_replay_verify(game=game)
    # Both workers ran batches, so they did race.
    assert all(count > 0 for count in _batches_done_by_each(worker_queue))


def _batches_done_by_each(worker_queue) -> list[int]:
    paths = [worker_queue["log"].name, *(log.name for _, log in worker_queue["extra_processes"])]
    return [len(BATCH_DONE.findall(Path(path).read_text())) for path in paths]


def _batches_done(worker_queue) -> int:
    return sum(_batches_done_by_each(worker_queue))
