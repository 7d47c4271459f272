"""The deadline sweep at scale, on PostgreSQL and Redis with real Celery workers: among 100,000
active seats, 1,000 due ones are fanned out by the beat task and timed out by one worker, then
another 1,000 by two workers. Records timeouts/s per worker and with two workers, the workers'
CPU and the SQL statements (of a batch swept in this process) a timeout, and the time to handle
the 1,000 (with the worst lateness this gives under the beat period) in the cost table. Only
under `make bench` (pytest --benchmark-enable); asserts only that each seat was handled once.

    make bench PYTEST_ARGS=tests/perf/test_sweep_speed.py
    (TURNPOST_BENCH_SEATS / TURNPOST_BENCH_DUE scale it down for a quick look)"""

from __future__ import annotations

import json
import os
import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services, tasks
from games.models import Action, Game, GameStatus, Seat
from tests.conftest import wait_for
from tests.engines.toy import toy_engine
from tests.factories import UserFactory
from tests.perf import cost_table
from tests.perf.engine_play import BENCHMARKS_ONLY
from tests.perf.process_cpu import cpu_seconds

pytestmark = [BENCHMARKS_ONLY, pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

BATCH_DONE = re.compile(r"games\.tasks\.sweep_deadline_batch\[[^\]]+\] succeeded")
SEATS = int(os.environ.get("TURNPOST_BENCH_SEATS", "100000"))
DUE = int(os.environ.get("TURNPOST_BENCH_DUE", "1000"))
#: Where benchmarks (and a few tests) leave their reports.
ARTIFACTS = cost_table.artifacts_dir()


def _active_games(count: int) -> list[Game]:
    """`count` toy games of four seats, all waiting for their secret bids, due in hours."""
    users = [UserFactory() for _ in range(4)]
    now = timezone.now()
    state = toy_engine.new_game(4, "bench-seed")
    games = Game.objects.bulk_create(
        (Game(engine="toy", options={"rounds": 2}, num_players=4, seed="bench-seed",
              state=state, status=GameStatus.ACTIVE, created_by=users[0],
              started_at=now - timedelta(hours=20), time_per_move=timedelta(hours=24))
         for _ in range(count)), batch_size=2000)
    Seat.objects.bulk_create(
        (Seat(game=game, user=user, number=number, join_order=number,
              turn_started_at=now - timedelta(hours=20), deadline_at=now + timedelta(hours=4),
              remind_at=now + timedelta(hours=2))
         for game in games for number, user in enumerate(users)), batch_size=5000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_seat; ANALYZE games_game;")
    return games


def _sweep(games: list[Game], worker_pids: list[int]) -> tuple[float, float]:
    """Makes seat 0 of these games due, runs the beat's fan-out, and waits for the workers:
    (seconds from the fan-out to the last timeout, CPU seconds the workers used meanwhile)."""
    ids = [game.pk for game in games]
    Seat.objects.filter(game_id__in=ids, number=0).update(
        deadline_at=timezone.now() - timedelta(seconds=1))
    before = Action.objects.filter(source="timeout").count()
    cpu_before = sum(cpu_seconds(pid) for pid in worker_pids)
    started = time.perf_counter()
    fanned_out = tasks.sweep_deadlines()
    assert fanned_out["due_games"] == len(ids)
    assert wait_for(lambda: Action.objects.filter(source="timeout").count() - before >= len(ids),
                    timeout=900, interval=0.05), "the workers did not time out every due seat"
    return (time.perf_counter() - started,
            sum(cpu_seconds(pid) for pid in worker_pids) - cpu_before)


def _statements_per_timeout(games: list[Game]) -> float:
    """SQL statements of one batch swept in this process, per timeout (the workers run the
    same code; their statements cannot be counted from here)."""
    ids = [game.pk for game in games]
    Seat.objects.filter(game_id__in=ids, number=0).update(
        deadline_at=timezone.now() - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        report = services.deadlines_sweep_games(game_ids=ids)
    assert report.timed_out_seats == len(ids)
    return len(queries) / len(ids)


def test_sweep_at_scale_with_one_and_two_workers(worker_queue, benchmark):
    games = _active_games(SEATS // 4)
    assert len(games) >= 2 * DUE + tasks.SWEEP_BATCH_SIZE, "TURNPOST_BENCH_SEATS is too small"
    statements = _statements_per_timeout(games[2 * DUE:2 * DUE + tasks.SWEEP_BATCH_SIZE])
    workers = worker_queue["extra_processes"]
    # The fan-out's one query must read the deadline index, not the 100,000 seats.
    due_plan = (Seat.objects.filter(deadline_at__lte=timezone.now(), game__status="active")
                .order_by("deadline_at").values_list("game_id", flat=True).explain())

    def add_worker() -> list[int]:
        worker_queue["add_game_worker"]()
        assert wait_for(lambda: all(" ready." in Path(log.name).read_text() for _, log in workers))
        return [process.pid for process, _ in workers]

    def batches_done() -> list[int]:
        return [len(BATCH_DONE.findall(Path(log.name).read_text())) for _, log in workers]

    one_worker_seconds, one_worker_cpu = _sweep(games[:DUE], add_worker())
    batches = -(-DUE // tasks.SWEEP_BATCH_SIZE)
    assert wait_for(lambda: sum(batches_done()) == batches)
    before = [*batches_done(), 0]
    # Timed by hand in _sweep; pytest-benchmark's row is the two-worker sweep.
    two_worker_seconds, two_workers_cpu = benchmark.pedantic(
        _sweep, args=(games[DUE:2 * DUE], add_worker()), rounds=1, iterations=1)
    assert wait_for(lambda: sum(batches_done()) == 2 * batches)
    shares = [done - earlier for done, earlier in zip(batches_done(), before, strict=True)]

    # Each seat once: one timeout move per due game, nothing else timed out.
    timed_out = Action.objects.filter(source="timeout")
    assert timed_out.count() == 2 * DUE + tasks.SWEEP_BATCH_SIZE
    assert timed_out.values("game_id").distinct().count() == 2 * DUE + tasks.SWEEP_BATCH_SIZE
    period = settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]["schedule"].total_seconds()
    result = {
        "active_seats": SEATS, "due_seats": DUE,
        "one_worker_seconds": round(one_worker_seconds, 2),
        "two_workers_seconds": round(two_worker_seconds, 2),
        "timeouts_per_second_one_worker": round(DUE / one_worker_seconds, 1),
        "timeouts_per_second_two_workers": round(DUE / two_worker_seconds, 1),
        "sql_statements_per_timeout": round(statements, 2),
        "worker_cpu_ms_per_timeout": round(1000 * one_worker_cpu / DUE, 1),
        "workers_cpu_ms_per_timeout_two_workers": round(1000 * two_workers_cpu / DUE, 1),
        "batches_each_of_two_workers": shares,
        "beat_period_seconds": period,
        # A seat falls due just after a beat run: it waits a period, then the sweep's length.
        "worst_lateness_seconds": round(period + two_worker_seconds, 1),
        "load_average": os.getloadavg()[0],
        "due_games_plan": due_plan,
    }
    cost_table.record("sweep: timeouts/s, 1 worker", result["timeouts_per_second_one_worker"],
                      "timeouts/s", note=f"{DUE} due of {SEATS} active seats; worker CPU "
                                         f"{result['worker_cpu_ms_per_timeout']} ms and "
                                         f"{result['sql_statements_per_timeout']} SQL statements "
                                         "a timeout")
    cost_table.record("sweep: timeouts/s, 2 workers", result["timeouts_per_second_two_workers"],
                      "timeouts/s", note="two solo worker processes taking batches of ids")
    cost_table.record(f"sweep: {DUE} due of {SEATS} seats", two_worker_seconds, "s",
                      note=f"fan-out to last timeout, 2 workers; worst lateness "
                           f"{result['worst_lateness_seconds']} s with beat every {period:.0f} s")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "sweep-benchmark.json").write_text(json.dumps(result, indent=2))
    print(f"\nsweep: {json.dumps(result)}")
