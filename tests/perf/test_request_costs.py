"""Server CPU per request, as ratios to the floor (the cheapest authenticated request, GET
/api/v1/engines/ with a token), measured side by side in one run against the production server
(gunicorn with uvicorn workers, config/gunicorn.py, DJANGO_DEBUG=false) on PostgreSQL and Redis,
with a Celery worker taking the follow-ups; then moves/s and POST latency at 50 clients playing
at once. The HTTP client runs in its own process (tests/perf/request_load.py). A load test:
`make bench` only, bounded in count and time, loopback only.

    TURNPOST_BENCH_GAMES        games (Stone Age, 2 players) in the cost batches (default 60)
    TURNPOST_BENCH_BATCH        requests per batch of each read kind (default 120)
    TURNPOST_BENCH_ROUNDS       rounds of batches (default 4)
    TURNPOST_BENCH_CLIENTS      clients of the moves/s run, one game each (default 50)
    TURNPOST_BENCH_SECONDS      length of the moves/s run (default 20)
    TURNPOST_BENCH_WORKERS      gunicorn workers (default 2, one per core)
    TURNPOST_BENCH_SERVER       GUNICORN_WORKER_CLASS: `uvicorn` (default, ASGI, as the image
                                runs) or `gthread` (WSGI, for processes that serve no
                                event streams)
    TURNPOST_BENCH_THREADS      threads per gthread worker (default 8)
    TURNPOST_BENCH_KINDS        the kinds of the cost batches (default all; the floor first)
    TURNPOST_BENCH_PY_SPY       path of a py-spy binary: the workers' stacks while they hold
                                the GIL during the cost batches, in
                                TEST_ARTIFACTS_DIR/request-profile-N.txt (collapsed stacks)

The moves/s run also reports the CPU a move costs (GET actions + POST) in each process taking
part: the server workers, the Celery worker (the follow-ups of each move), the database
backends and the load client, and the moves/s the machine's cores would allow at that cost.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests
from django.test import Client

from accounts.tokens import ALL_SCOPES, token_create
from games import services
from tests.factories import UserFactory
from tests.live.conftest import database_url, free_port
from tests.perf import cost_table, process_cpu
from tests.perf.test_sweep_speed import ARTIFACTS

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
GAMES = int(os.environ.get("TURNPOST_BENCH_GAMES", "60"))
BATCH = int(os.environ.get("TURNPOST_BENCH_BATCH", "120"))
ROUNDS = int(os.environ.get("TURNPOST_BENCH_ROUNDS", "4"))
CLIENTS = int(os.environ.get("TURNPOST_BENCH_CLIENTS", "50"))
SECONDS = float(os.environ.get("TURNPOST_BENCH_SECONDS", "20"))
WORKERS = int(os.environ.get("TURNPOST_BENCH_WORKERS", "2"))
SERVER = os.environ.get("TURNPOST_BENCH_SERVER", "uvicorn")
THREADS = int(os.environ.get("TURNPOST_BENCH_THREADS", "8"))
#: The request kinds of the cost batches, the floor first (TURNPOST_BENCH_KINDS: a comma-separated
#: subset, e.g. "floor,poll" to look at one kind with TURNPOST_BENCH_PY_SPY).
KINDS = os.environ.get("TURNPOST_BENCH_KINDS",
                       "floor,move,detail,detail-304,poll,page,actions").split(",")


def _game_specs(count: int) -> list[dict]:
    specs = []
    for _ in range(count):
        # No addresses: this is not also an email load (that has its own bench).
        users = [UserFactory(email=""), UserFactory(email="")]
        game = services.game_create(creator=users[0], engine_slug="stone_age", num_players=2)
        services.game_join(game_id=game.pk, user=users[1])
        game = services.game_start(game_id=game.pk, user=users[0])
        tokens, sessions = {}, {}
        for seat in game.seats.select_related("user"):
            tokens[seat.number] = token_create(user=seat.user, name="bench", scopes=ALL_SCOPES,
                                               via="bench")[1]
            browser = Client()
            browser.force_login(seat.user)
            sessions[seat.number] = browser.cookies["sessionid"].value
        specs.append({"id": game.pk, "tokens": tokens, "sessions": sessions})
    return specs


def _workers(master: int) -> list[int]:
    return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def _profile(pids: list[int]) -> list[subprocess.Popen]:
    """py-spy on each server worker for the length of the cost batches (TURNPOST_BENCH_PY_SPY:
    the path of a py-spy binary), written as collapsed stacks to
    TEST_ARTIFACTS_DIR/request-profile-N.txt."""
    py_spy = os.environ.get("TURNPOST_BENCH_PY_SPY")
    if not py_spy:
        return []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return [subprocess.Popen([py_spy, "record", "--format", "raw", "--rate", "200", "--gil",
                              "--nonblocking", "--pid", str(pid),
                              "--output", str(ARTIFACTS / f"request-profile-{index}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for index, pid in enumerate(pids)]


def _start(tmp_path, env: dict) -> tuple[subprocess.Popen, subprocess.Popen, str]:
    # Production settings serve hashed static files from the manifest collectstatic writes.
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True, timeout=300)
    port = free_port()
    log = (tmp_path / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-c", "config/gunicorn.py",
         "--access-logfile", "/dev/null"],
        cwd=ROOT, env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}",
                       "GUNICORN_WORKERS": str(WORKERS), "GUNICORN_WORKER_CLASS": SERVER,
                       "GUNICORN_THREADS": str(THREADS)},
        stdout=log, stderr=subprocess.STDOUT)
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.celery_worker", "celery,mail"], cwd=ROOT, env=env,
        stdout=(tmp_path / "celery.log").open("w"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            if requests.get(f"{base}/api/v1/engines/", timeout=10).status_code == 200:
                break
        except requests.RequestException:
            time.sleep(0.2)
    return server, worker, base


def _run_client(tmp_path, name: str, plan: dict, timeout: float) -> dict:
    plan_path, results = tmp_path / f"{name}-plan.json", tmp_path / f"{name}-results.json"
    plan_path.write_text(json.dumps(plan))
    client = subprocess.run([sys.executable, "-m", "tests.perf.request_load", str(plan_path),
                             str(results)], cwd=ROOT, timeout=timeout)
    assert client.returncode == 0
    return json.loads(results.read_text())


def _database_cpu() -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend connected to this test database (the
    server's pools and the Celery worker's connection), by process id."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid()")
        pids = [row[0] for row in cursor.fetchall()]
    spent = {}
    for pid in pids:
        with contextlib.suppress(OSError):  # gone meanwhile
            spent[pid] = process_cpu.cpu_seconds(pid)
    return spent


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def test_request_costs_and_moves_per_second(benchmark, settings, tmp_path):
    if benchmark.disabled:
        pytest.skip("a load test: `make bench` runs it")
    settings.EVENTS_CHANNEL_PREFIX = prefix = f"bench-{uuid.uuid4().hex[:10]}"
    # The server's key signs the sessions made here: with another key every cookie's session
    # would be refused (and flushed), and the poll and page measured as an anonymous visitor's.
    settings.SECRET_KEY = secret_key = secrets.token_urlsafe(64)
    specs = _game_specs(max(GAMES, CLIENTS))
    env = {**os.environ, "DATABASE_URL": database_url(), "DATA_DIR": str(tmp_path),
           "EVENTS_CHANNEL_PREFIX": prefix, "DJANGO_DEBUG": "false",
           "DJANGO_SECRET_KEY": secret_key, "DJANGO_SECURE_SSL_REDIRECT": "false",
           "DATABASE_CONN_MAX_AGE": "0"}
    server, worker, base = _start(tmp_path, env)
    try:
        pids = _workers(server.pid)
        assert len(pids) == WORKERS
        # The cookies made here sign the players in (the poll and page are a player's).
        signed_in = requests.get(f"{base}/settings/", allow_redirects=False, timeout=30,
                                 cookies={"sessionid": specs[0]["sessions"][0]})
        assert signed_in.status_code == 200, signed_in.status_code
        costs_plan = {"mode": "costs", "base": base, "worker_pids": pids, "kinds": KINDS,
                      "games": specs[:GAMES], "batch": BATCH, "concurrency": 4,
                      "connections": 8}
        _run_client(tmp_path, "warm-up", {**costs_plan, "rounds": 1, "batch": 20}, 300)
        spies = _profile(pids)
        spent = benchmark.pedantic(_run_client, args=(tmp_path, "costs",
                                                      {**costs_plan, "rounds": ROUNDS}, 900),
                                   rounds=1, iterations=1)
        for spy in spies:
            spy.send_signal(signal.SIGINT)
            spy.wait(60)
        database_before = _database_cpu()
        played = _run_client(tmp_path, "moves", {
            "mode": "moves", "base": base, "games": specs[:CLIENTS], "seconds": SECONDS,
            "max_moves": int(SECONDS * 400), "connections": CLIENTS, "worker_pids": pids,
            "other_pids": {"celery": [worker.pid]}}, SECONDS * 5 + 120)
        # Backends opened during the run count whole; one closed during it is missed.
        played["cpu_seconds"]["database"] = sum(
            spent - database_before.get(pid, 0.0) for pid, spent in _database_cpu().items())
    finally:
        for process in (server, worker):
            process.terminate()
            process.wait(30)

    per_request_ms = {kind: 1000 * row["cpu_seconds"] / row["requests"]
                      for kind, row in spent.items()}
    floor = per_request_ms["floor"]
    for kind in KINDS:
        cost_table.record(f"request CPU: {kind}", per_request_ms[kind], "ms/request",
                          floor_ratio=per_request_ms[kind] / floor,
                          note=f"{spent[kind]['requests']} requests"
                          + (f", {spent[kind]['not_modified']} answered 304"
                             if kind == "detail-304" else ""))
    moves_per_second = len(played["post_ms"]) / played["seconds"]
    post_p95 = _percentile(played["post_ms"], 0.95)
    note = f"{CLIENTS} clients, {played['seconds']:.0f} s, GET actions + POST per move"
    cost_table.record("moves/s at 50 clients", moves_per_second, "moves/s", note=note)
    cost_table.record("POST p95 at 50 clients", post_p95, "ms", note=note)
    cost_table.record("GET actions p95 at 50 clients", _percentile(played["get_ms"], 0.95), "ms",
                      note=note)
    moves_played = len(played["post_ms"])
    cpu_per_move = {name: 1000 * seconds / moves_played
                    for name, seconds in played["cpu_seconds"].items()}
    for name, value in cpu_per_move.items():
        cost_table.record(f"CPU per move: {name}", value, "ms/move",
                          note="GET actions + POST" if name == "server" else "")
    machine = sum(cpu_per_move.values())
    ceiling = 1000 * (os.cpu_count() or 1) / machine
    cost_table.record("moves/s the cores allow", ceiling, "moves/s",
                      note=f"{os.cpu_count()} cores / {machine:.1f} ms of CPU a move, all "
                           "processes above")
    report = {"cpu_ms_per_request": per_request_ms,
              "floor_ratios": {kind: value / floor for kind, value in per_request_ms.items()},
              "requests": {kind: row["requests"] for kind, row in spent.items()},
              "moves_per_second": moves_per_second, "post_p50_ms": _percentile(
                  played["post_ms"], 0.5), "post_p95_ms": post_p95,
              "moves": len(played["post_ms"]), "failures": played["failures"][:10],
              "cpu_ms_per_move": cpu_per_move, "moves_per_second_cores_allow": ceiling,
              "server": SERVER, "workers": WORKERS,
              "load_average_1min": os.getloadavg()[0]}
    benchmark.extra_info.update(report)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "request-costs.json").write_text(json.dumps(report, indent=2))
    print("\n" + json.dumps(report, indent=2))
    assert not played["failures"], played["failures"][:5]
