"""Scale-out on one machine, as `docker compose up --scale web=3 --scale worker=3` runs it, with
plain processes: three gunicorn web processes, three Celery game workers and Celery beat against
PostgreSQL and Redis. API clients (loopback, bounded in moves and time) play 7 Wonders games
spread over the three web processes, so simultaneous picks meet and are resolved by whichever
worker takes the task; other games have every seat past its deadline, for beat's sweep. Then:
no errors, each game's log gapless and replaying to its state with each resolution made when
one was due (so none twice), each due seat timed out once. Only under `make bench`:

    make bench PYTEST_ARGS=tests/perf/test_scale_out.py
    (TURNPOST_SCALE_GAMES, _DUE_GAMES, _MOVES, _SECONDS, _THREADS size the load)"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.tokens import token_create
from games import services
from games.engines.base import match_legal
from games.engines.registry import get_engine
from games.models import Action, ActionKind, Game, Seat
from tests.conftest import ROOT, wait_for
from tests.factories import UserFactory
from tests.live.conftest import database_url, free_port
from tests.perf import cost_table
from tests.perf.engine_play import BENCHMARKS_ONLY
from tests.perf.process_cpu import cpu_seconds

pytestmark = [BENCHMARKS_ONLY, pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

WEB_PROCESSES = 3
GAME_WORKERS = 3
GAMES = int(os.environ.get("TURNPOST_SCALE_GAMES", "24"))
DUE_GAMES = int(os.environ.get("TURNPOST_SCALE_DUE_GAMES", "40"))
MAX_MOVES = int(os.environ.get("TURNPOST_SCALE_MOVES", "600"))
SECONDS = float(os.environ.get("TURNPOST_SCALE_SECONDS", "90"))
THREADS = int(os.environ.get("TURNPOST_SCALE_THREADS", "24"))
#: Beat looks for due seats this often here (30 s in production), so the bench stays short.
SWEEP_SECONDS = 5


def _seven_wonders_games(count: int) -> list[tuple[Game, list]]:
    games = []
    for _ in range(count):
        users = [UserFactory(email="") for _ in range(3)]  # no addresses: not an email bench
        game = services.game_create(creator=users[0], engine_slug="seven_wonders",
                                    num_players=3, time_per_move=timedelta(days=3))
        for user in users[1:]:
            services.game_join(game_id=game.pk, user=user)
        games.append((services.game_start(game_id=game.pk, user=users[0]), users))
    return games


def _start(name: str, command: list[str], env: dict, tmp_path: Path) -> subprocess.Popen:
    log = (tmp_path / f"{name}.log").open("w")
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def _errors_in_logs(tmp_path: Path) -> list[str]:
    return [f"{path.name}: {line}" for path in sorted(tmp_path.glob("*.log"))
            for line in path.read_text().splitlines()
            if "Traceback" in line or " ERROR" in line or "] ERROR/" in line]


def test_three_web_processes_three_workers_and_beat(worker_queue, benchmark, tmp_path):
    played = _seven_wonders_games(GAMES)
    due = _seven_wonders_games(DUE_GAMES)
    seats = [[game.pk, token_create(user=user, name="bench", scopes=["read", "play"],
                                    via="web")[1]]
             for game, users in played for user in users]

    env = {**worker_queue["env"], "DATABASE_URL": database_url(), "DJANGO_DEBUG": "false",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(64), "DJANGO_SECURE_SSL_REDIRECT": "false",
           "DEADLINE_SWEEP_SECONDS": str(SWEEP_SECONDS), "GUNICORN_WORKERS": "1",
           "API_THROTTLE_USER": "100000/min",
           # Under the ASGI server each request's synchronous part runs in a thread of its own,
           # so a kept connection is never reused nor closed (docs/scaling.md): connect per
           # request, as behind PgBouncer.
           "DATABASE_CONN_MAX_AGE": "0"}
    processes, bases = [], []
    try:
        for number in range(WEB_PROCESSES):
            port = free_port()
            bases.append(f"http://127.0.0.1:{port}")
            processes.append(_start(
                f"web-{number}", [str(Path(sys.executable).with_name("gunicorn")), "-c",
                                  "config/gunicorn.py", "--access-logfile", "/dev/null"],
                {**env, "GUNICORN_BIND": f"127.0.0.1:{port}"}, tmp_path))
        for _ in range(GAME_WORKERS):
            worker_queue["add_game_worker"]()
        processes.append(_start("beat", [sys.executable, "-m", "celery", "-A", "config", "beat",
                                         "--loglevel=INFO", "-s",
                                         str(tmp_path / "beat-schedule")], env, tmp_path))
        assert wait_for(lambda: all(" ready." in Path(log.name).read_text()
                                    for _, log in worker_queue["extra_processes"]), timeout=90)
        assert wait_for(lambda: all(_answers(base) for base in bases), timeout=90)

        # The due games' seats fall due just as the load starts.
        due_ids = [game.pk for game, _ in due]
        due_at = timezone.now()
        Seat.objects.filter(game_id__in=due_ids).update(deadline_at=due_at)
        plan = tmp_path / "plan.json"
        plan.write_text(json.dumps({"bases": bases, "seats": seats, "threads": THREADS,
                                    "max_moves": MAX_MOVES, "seconds": SECONDS}))
        results_path = tmp_path / "clients.json"
        web_pids = [pid for process in processes[:WEB_PROCESSES]
                    for pid in (process.pid, *_children(process.pid))]
        worker_pids = [process.pid for process, _ in worker_queue["extra_processes"]]
        cpu_before = [sum(map(cpu_seconds, pids)) for pids in (web_pids, worker_pids)]
        started = time.perf_counter()

        def load() -> dict:
            clients = subprocess.run(
                [sys.executable, "-m", "tests.perf.scale_out_clients", str(plan),
                 str(results_path)], cwd=ROOT, timeout=SECONDS + 120)
            assert clients.returncode == 0
            return json.loads(results_path.read_text())

        results = benchmark.pedantic(load, rounds=1, iterations=1)
        load_seconds = time.perf_counter() - started
        web_cpu, worker_cpu = (sum(map(cpu_seconds, pids)) - before
                               for pids, before in zip((web_pids, worker_pids), cpu_before,
                                                       strict=True))
        due_seats = 3 * DUE_GAMES
        assert wait_for(lambda: Action.objects.filter(game_id__in=due_ids, source="timeout")
                        .count() >= due_seats, timeout=180), "beat and the workers did not sweep"
        swept_seconds = (Action.objects.filter(game_id__in=due_ids, source="timeout")
                         .latest("created_at").created_at - due_at).total_seconds()
        all_ids = [game.pk for game, _ in played] + due_ids
        assert wait_for(lambda: not Game.objects.filter(pk__in=all_ids,
                                                        needs_resolution=True).exists(),
                        timeout=120), "a resolution was not made"
        time.sleep(2 * SWEEP_SECONDS)  # a duplicate sweep or resolution would land by now
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)

    assert results["errors"] == [], results["errors"][:10]
    assert _errors_in_logs(tmp_path) == []
    resolutions = 0
    for game_id in all_ids:
        game = Game.objects.get(pk=game_id)
        log = list(game.actions.order_by("sequence").values_list("sequence", "kind"))
        assert [sequence for sequence, _ in log] == list(range(1, game.version + 1))
        resolutions += _resolutions_each_when_due(game)
        assert services.game_replay_verify(game=game), game_id
    timeouts = Action.objects.filter(game_id__in=due_ids, source="timeout")
    assert timeouts.count() == due_seats
    assert timeouts.values("game_id", "seat_number").distinct().count() == due_seats
    assert set(Seat.objects.filter(game_id__in=due_ids).values_list("timeout_count",
                                                                    flat=True)) == {1}

    posts = sorted(results["post_seconds"])
    report = {
        "web_processes": WEB_PROCESSES, "game_workers": GAME_WORKERS, "games": GAMES,
        "moves": results["moves"], "stale_or_refused": results["stale"],
        "load_seconds": round(load_seconds, 1),
        "moves_per_second": round(results["moves"] / load_seconds, 1),
        "post_p50_ms": round(1000 * statistics.median(posts), 1) if posts else None,
        "post_p95_ms": round(1000 * posts[int(0.95 * (len(posts) - 1))], 1) if posts else None,
        # Server CPU per move (GET actions, GET game, POST), all web processes together, and
        # the workers' CPU over the same time (resolutions, sweeps, bot-free here).
        "web_cpu_ms_per_move": round(1000 * web_cpu / max(results["moves"], 1), 1),
        "worker_cpu_seconds_during_load": round(worker_cpu, 1),
        "resolutions": resolutions, "due_seats": due_seats,
        # From the deadline to the last of the due seats' timeouts, under the moves' load.
        "last_due_seat_timed_out_after_seconds": round(swept_seconds, 1),
        "load_average": os.getloadavg()[0],
    }
    cost_table.record("scale-out: moves/s (3 web, 3 workers)", report["moves_per_second"],
                      "moves/s", note=f"{results['moves']} moves by {THREADS} API clients, "
                                      f"POST p95 {report['post_p95_ms']} ms, web CPU "
                                      f"{report['web_cpu_ms_per_move']} ms a move, 0 errors")
    cost_table.record("scale-out: resolutions, exactly once", resolutions, "resolutions",
                      note=f"{GAMES} 7 Wonders games for 3; each when due, none twice")
    cost_table.record("scale-out: last due seat timed out", swept_seconds, "s after deadline",
                      note=f"{due_seats} seats due at once, beat every {SWEEP_SECONDS} s, "
                           f"each timed out once")
    cost_table.save_report("scale-out.json", report)
    print(f"\nscale-out: {json.dumps(report)}")
    assert results["moves"] > 0 and resolutions > 0


def _resolutions_each_when_due(game: Game) -> int:
    """Replays the log, checking that each resolution came when one was due (a duplicate would
    come when none is); returns how many there were."""
    engine = get_engine(game.engine)
    state = engine.new_game_at_version(game.num_players, game.seed, game.options,
                                       game.rules_version)
    resolutions = 0
    for entry in game.actions.order_by("sequence"):
        if entry.kind == ActionKind.RESOLVE:
            assert engine.ready_to_resolve(state), f"game {game.pk}: #{entry.sequence} not due"
            state = engine.resolve(state)
            resolutions += 1
        else:
            listed = match_legal(entry.payload, engine.legal_actions(state, entry.seat_number))
            state = engine.apply(state, entry.seat_number, listed)
    return resolutions


def _children(pid: int) -> list[int]:
    return [int(child) for child in
            Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _answers(base: str) -> bool:
    import http.client
    from urllib.parse import urlparse

    try:
        connection = http.client.HTTPConnection(urlparse(base).hostname, urlparse(base).port,
                                                timeout=5)
        connection.request("GET", "/api/v1/engines/")
        return connection.getresponse().status in (200, 401, 403)
    except OSError:
        return False
