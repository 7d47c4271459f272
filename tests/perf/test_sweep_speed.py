"""Measures one deadline sweep over many active seats of which some are due, on PostgreSQL, and
records the query plans. Reports numbers; asserts only that the due seats were all handled."""

from __future__ import annotations

import json
import os
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app as celery_app
from games import services
from games.models import Game, GameStatus, Seat
from tests.engines.toy import toy_engine
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

SEATS = int(os.environ.get("TURNPOST_BENCH_SEATS", "100000"))
DUE = int(os.environ.get("TURNPOST_BENCH_DUE", "1000"))
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS_DIR", Path(__file__).resolve().parents[2]
                                / "test-artifacts"))
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_sweep_over_many_active_seats():
    users = [UserFactory() for _ in range(4)]
    state = toy_engine.new_game(4, "bench-seed")
    games = Game.objects.bulk_create(
        Game(engine="toy", options={"rounds": 2}, num_players=4, seed="bench-seed", state=state,
             status=GameStatus.ACTIVE, created_by=users[0], started_at=NOW - timedelta(hours=20))
        for _ in range(SEATS // 4)
    )
    due_games = {game.pk for game in games[:DUE]}
    seats = []
    for game in games:
        for number, user in enumerate(users):
            due = game.pk in due_games and number == 0
            seats.append(Seat(
                game=game, user=user, number=number, join_order=number,
                turn_started_at=NOW - timedelta(hours=20),
                deadline_at=NOW - timedelta(minutes=1) if due else NOW + timedelta(hours=4),
                remind_at=NOW + timedelta(hours=2),
            ))
    Seat.objects.bulk_create(seats, batch_size=5000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_seat; ANALYZE games_game;")

    from games.models import Seat as SeatModel

    due_plan = (SeatModel.objects.filter(deadline_at__lte=NOW, game__status=GameStatus.ACTIVE)
                .order_by("deadline_at").values_list("game_id", flat=True)[:8000].explain())
    plans = {
        "due_games": due_plan,
        "due_reminders": Seat.objects.filter(
            remind_at__lte=NOW, reminded_at__isnull=True, deadline_at__gt=NOW,
            game__status=GameStatus.ACTIVE, is_bot=False).explain(),
    }
    # Deliveries go to a throwaway queue: the sweep's own cost is what is measured.
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = False, queue
    try:
        import cProfile

        profiler = cProfile.Profile() if os.environ.get("TURNPOST_PROFILE") else None
        started = time.perf_counter()
        if profiler:
            profiler.enable()
        report = services.deadlines_sweep(now=NOW, limit=DUE * 2)
        elapsed = time.perf_counter() - started
        if profiler:
            profiler.disable()
            profiler.dump_stats(str(ARTIFACTS / "sweep.prof"))
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = previous
        import redis

        redis.Redis.from_url(os.environ["REDIS_URL"]).delete(queue)
    assert report.timed_out_seats == DUE and report.games == DUE
    result = {
        "active_seats": len(seats), "due_seats": DUE, "sweep_seconds": round(elapsed, 2),
        "timeouts_per_second": round(DUE / elapsed, 1), "plans": plans,
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "sweep-benchmark.json").write_text(json.dumps(result, indent=2))
    print(f"\nsweep: {DUE} due of {len(seats)} active seats in {elapsed:.2f}s")
    print(plans["due_games"])
    assert "games_seat_deadline_at" in plans["due_games"] or "Index" in plans["due_games"]
