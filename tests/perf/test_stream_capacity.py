"""Event stream capacity on this machine, over loopback: how many streams the production server
(gunicorn with uvicorn workers, config/gunicorn.py) holds open at once, how long a move takes to
reach every stream of its game while moves are made at a steady rate, and the server memory each
open stream costs. A load test: it runs under `make bench` only (skipped by the ordinary suite),
for a bounded time; run it niced: `nice -n 10 make bench PYTEST_ARGS=...` (see README).

    TURNPOST_BENCH_STREAMS   streams to open (default 2000)
    TURNPOST_BENCH_PER_GAME  streams per game (default 20)
    TURNPOST_BENCH_MOVES_PER_SECOND, TURNPOST_BENCH_SECONDS  the move load: comma-separated
                             rates, one run each (10,25,50), for 20 s each
    TURNPOST_BENCH_WORKERS   gunicorn workers (default 2, one per core)
    TURNPOST_BENCH_STREAM_SIDE_ONLY=1  the moves are made first, unheard (on another channel
                             prefix), then announced at the rate by tests/perf/stream_publish.py:
                             the streams' latency without the moves' own CPU on the same cores
    TURNPOST_BENCH_PY_SPY    path of a py-spy binary: profile the workers while the moves are
                             made (collapsed stacks in TEST_ARTIFACTS_DIR/stream-profile-*.txt)
"""

from __future__ import annotations

import json
import os
import resource
import secrets
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from games import services
from tests.factories import UserFactory
from tests.live.conftest import database_url, free_port
from tests.live.sse import SSEStream
from tests.perf import cost_table
from tests.perf.process_cpu import cpu_seconds
from tests.perf.test_sweep_speed import ARTIFACTS

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
STREAMS = int(os.environ.get("TURNPOST_BENCH_STREAMS", "2000"))
PER_GAME = int(os.environ.get("TURNPOST_BENCH_PER_GAME", "20"))
#: One run per rate, each with its own games, server and streams, rows side by side.
RATES = [float(rate) for rate in
         os.environ.get("TURNPOST_BENCH_MOVES_PER_SECOND", "10,25,50").split(",")]
SECONDS = float(os.environ.get("TURNPOST_BENCH_SECONDS", "20"))
WORKERS = int(os.environ.get("TURNPOST_BENCH_WORKERS", "2"))
MOVER_PROCESSES = int(os.environ.get("TURNPOST_BENCH_MOVERS", "2"))
MOVER_THREADS = int(os.environ.get("TURNPOST_BENCH_MOVER_THREADS", "8"))
STREAM_SIDE_ONLY = os.environ.get("TURNPOST_BENCH_STREAM_SIDE_ONLY") == "1"
#: After the last move, how long the test waits for its events to reach every stream.
LATE_SECONDS = 60
#: The movers import Django before the first move is due.
MOVERS_START_SECONDS = 8


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _machine_cpu() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot, from /proc/stat."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return sum(ticks) - idle, sum(ticks)


def _children_cpu_seconds() -> float:
    """CPU time of this process's waited-for children (the movers, once they have exited)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _profile(pids: list[int]) -> list[subprocess.Popen]:
    """py-spy on each worker for the length of the move load (TURNPOST_BENCH_PY_SPY)."""
    py_spy = os.environ.get("TURNPOST_BENCH_PY_SPY")
    if not py_spy:
        return []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return [subprocess.Popen([py_spy, "record", "--format", "raw", "--rate", "50",
                              "--nonblocking", "--duration", str(int(SECONDS)),
                              "--pid", str(pid),
                              "--output", str(ARTIFACTS / f"stream-profile-{index}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for index, pid in enumerate(pids)]


def _wait_for_arrivals(clients: subprocess.Popen, expected: int) -> None:
    """Until every move event has reached its streams, or LATE_SECONDS have passed (late ones
    are then counted with their latency, not lost)."""
    deadline = time.monotonic() + LATE_SECONDS
    while time.monotonic() < deadline:
        time.sleep(1)
        clients.send_signal(signal.SIGUSR1)
        line = clients.stdout.readline()
        if line.startswith("ARRIVED") and int(line.split()[1]) >= expected:
            return


def _workers(master: int) -> list[int]:
    return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def _workers_rss_kib(master: int) -> int:
    return sum(_rss_kib(pid) for pid in _workers(master))


def _start_gunicorn(tmp_path, prefix: str):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url(), "DATA_DIR": str(tmp_path),
           "EVENTS_CHANNEL_PREFIX": prefix, "GUNICORN_BIND": f"127.0.0.1:{port}",
           "GUNICORN_WORKERS": str(WORKERS), "DJANGO_DEBUG": "false",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(64), "DJANGO_SECURE_SSL_REDIRECT": "false",
           "DATABASE_CONN_MAX_AGE": "600",
           # One client address holds every stream here: no limit of streams per address.
           "STREAM_MAX_PER_ADDRESS": str(STREAMS), "STREAM_MAX_PER_USER": str(STREAMS)}
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-c", "config/gunicorn.py",
         "--access-logfile", "/dev/null"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return process, f"http://127.0.0.1:{port}"


def _games(count: int) -> list[int]:
    ids = []
    for _ in range(count):
        # No addresses: the move load is not also an email load (that has its own bench).
        users = [UserFactory(email=""), UserFactory(email="")]
        game = services.game_create(creator=users[0], engine_slug="stone_age", num_players=2)
        services.game_join(game_id=game.pk, user=users[1])
        ids.append(services.game_start(game_id=game.pk, user=users[0]).pk)
    return ids


def _make_moves(game_ids: list[int], tmp_path, env: dict, rate: float,
                total: int) -> list[list]:
    """`rate` moves a second, `total` in all, made by MOVER_PROCESSES processes through
    the service (one process cannot make 50 a second: each move is CPU work in Python)."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"games": game_ids, "rate": rate,
                                "start": time.time() + MOVERS_START_SECONDS,
                                "total": total, "processes": MOVER_PROCESSES,
                                "threads": MOVER_THREADS}))
    movers = [subprocess.Popen([sys.executable, "-m", "tests.perf.stream_moves", str(plan),
                                str(index), str(tmp_path / f"moves-{index}.json")],
                               cwd=ROOT, env=env)
              for index in range(MOVER_PROCESSES)]
    for mover in movers:
        assert mover.wait(SECONDS * 20 + 60) == 0
    return [made for index in range(MOVER_PROCESSES)
            for made in json.loads((tmp_path / f"moves-{index}.json").read_text())]


def _announce_moves(made: list[list], tmp_path, prefix: str, rate: float) -> list[list]:
    """The moves made beforehand, announced on the bus at `rate` (STREAM_SIDE_ONLY)."""
    plan = tmp_path / "announce.json"
    plan.write_text(json.dumps({"moves": sorted(made, key=lambda move: move[3]), "rate": rate,
                                "start": time.time() + 1}))
    results = tmp_path / "announced.json"
    from django.conf import settings

    subprocess.run([sys.executable, "-m", "tests.perf.stream_publish", settings.REDIS_URL,
                    prefix, str(plan), str(results)], cwd=ROOT, check=True,
                   timeout=SECONDS * 5 + 60)
    return json.loads(results.read_text())


@pytest.mark.parametrize("rate", RATES, ids=[f"{rate:g}-moves-per-second" for rate in RATES])
def test_stream_capacity_and_delivery_latency(benchmark, settings, tmp_path, rate):
    if benchmark.disabled:
        pytest.skip("a load test: `make bench` runs it")
    settings.EVENTS_CHANNEL_PREFIX = prefix = f"bench-{uuid.uuid4().hex[:10]}"
    game_ids = _games(max(1, STREAMS // PER_GAME))
    server, base = _start_gunicorn(tmp_path, prefix)
    clients = None
    try:
        for _ in range(100):
            try:
                SSEStream(f"{base}/api/v1/games/{game_ids[0]}/stream").close()
                break
            except OSError:
                time.sleep(0.2)
        for game_id in game_ids[:2 * WORKERS]:  # every worker has served a stream once
            warm = SSEStream(f"{base}/api/v1/games/{game_id}/stream")
            assert warm.next_event()["event"] == "snapshot"
            warm.close()
        time.sleep(1)
        rss_before = _workers_rss_kib(server.pid)

        games_file = tmp_path / "games.json"
        games_file.write_text(json.dumps(game_ids))
        results_file = tmp_path / "arrivals.json"
        clients = subprocess.Popen(
            [sys.executable, "-m", "tests.perf.sse_load", base, str(games_file), str(PER_GAME),
             str(results_file)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        opened_at = time.monotonic()
        ready = clients.stdout.readline()
        open_seconds = time.monotonic() - opened_at
        assert ready.startswith("READY"), ready
        held_at_start = int(ready.split()[1])
        time.sleep(2)
        rss_open = _workers_rss_kib(server.pid)
        cpu_before = (sum(cpu_seconds(pid) for pid in _workers(server.pid)),
                      cpu_seconds(clients.pid), _children_cpu_seconds(), _machine_cpu())

        # As in production: with DEBUG on, Django would also keep every query in memory.
        mover_env = {**os.environ, "DATABASE_URL": database_url(), "DATA_DIR": str(tmp_path),
                     "EVENTS_CHANNEL_PREFIX": prefix, "DJANGO_DEBUG": "false",
                     "DJANGO_SECRET_KEY": secrets.token_urlsafe(64)}
        if STREAM_SIDE_ONLY:
            # Made as fast as the movers go, on channels nobody hears; announced below.
            made_unheard = _make_moves(game_ids, tmp_path, {
                **mover_env, "EVENTS_CHANNEL_PREFIX": f"{prefix}-unheard"}, 1000,
                int(rate * SECONDS))
            cpu_before = (sum(cpu_seconds(pid) for pid in _workers(server.pid)),
                          cpu_seconds(clients.pid), _children_cpu_seconds(), _machine_cpu())
        profilers = _profile(_workers(server.pid))
        if STREAM_SIDE_ONLY:
            made = benchmark.pedantic(_announce_moves,
                                      args=(made_unheard, tmp_path, prefix, rate),
                                      rounds=1, iterations=1)
        else:
            made = benchmark.pedantic(_make_moves, args=(game_ids, tmp_path, mover_env, rate,
                                                         int(rate * SECONDS)),
                                      rounds=1, iterations=1)
        commits = sorted(committed for *_, committed in made)
        moving_seconds = commits[-1] - commits[0]
        _wait_for_arrivals(clients, sum(last - first + 1 for _, first, last, _ in made) * PER_GAME)
        machine = _machine_cpu()
        cpu_used = (sum(cpu_seconds(pid) for pid in _workers(server.pid)) - cpu_before[0],
                    cpu_seconds(clients.pid) - cpu_before[1],
                    _children_cpu_seconds() - cpu_before[2],
                    (machine[0] - cpu_before[3][0]) / max(machine[1] - cpu_before[3][1], 1))
        for profiler in profilers:
            profiler.wait(60)
        load_average = os.getloadavg()[0]
        clients.send_signal(signal.SIGTERM)
        clients.wait(60)
        results = json.loads(results_file.read_text())
    finally:
        if clients is not None and clients.poll() is None:
            clients.kill()  # the run failed before the client was told to stop
        server.terminate()
        server.wait(30)

    committed_at = {}
    for game_id, first, last, committed in made:
        for version in range(first, last + 1):
            committed_at[(game_id, version)] = committed
    latencies = sorted(arrived - committed_at[(game_id, version)]
                       for game_id, version, arrived in results["arrivals"]
                       if (game_id, version) in committed_at)
    expected = sum(last - first + 1 for _, first, last, _ in made) * PER_GAME
    p50 = statistics.median(latencies)
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    report = {
        "streams_requested": len(game_ids) * PER_GAME, "streams_held": results["open"],
        "streams_open_before_moves": held_at_start, "streams_failed": results["failed"],
        "seconds_to_open_all": round(open_seconds, 1), "workers": WORKERS,
        "stream_side_only": STREAM_SIDE_ONLY,
        "moves": len(made), "moves_per_second_target": rate, "seconds": SECONDS,
        "moves_per_second_made": round(len(made) / moving_seconds, 1),
        "deliveries_expected": expected, "deliveries": len(latencies),
        "latency_p50_ms": round(p50 * 1000, 1), "latency_p95_ms": round(p95 * 1000, 1),
        "latency_max_ms": round(latencies[-1] * 1000, 1),
        "server_cpu_seconds_during_moves": round(cpu_used[0], 1),
        "client_cpu_seconds_during_moves": round(cpu_used[1], 1),
        "mover_cpu_seconds": round(cpu_used[2], 1),
        # What each move costs, whatever else the machine was doing: the stream side (both
        # workers, every stream of the game), and the service making it (the movers).
        "server_cpu_ms_per_move": round(cpu_used[0] * 1000 / len(made), 2),
        "mover_cpu_ms_per_move": round(cpu_used[2] * 1000 / len(made), 2),
        "machine_cpu_busy_percent_during_moves": round(cpu_used[3] * 100),
        "machine_load_average_1min": round(load_average, 1), "cores": os.cpu_count(),
        "server_rss_before_mib": round(rss_before / 1024, 1),
        "server_rss_open_mib": round(rss_open / 1024, 1),
        "kib_per_open_stream": round((rss_open - rss_before) / max(held_at_start, 1), 1),
    }
    benchmark.extra_info.update(report)
    mode = " (stream side only)" if STREAM_SIDE_ONLY else ""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = f"stream-capacity-{rate:g}{'-stream-side' if STREAM_SIDE_ONLY else ''}.json"
    (ARTIFACTS / name).write_text(json.dumps(report, indent=2))
    print("\n" + json.dumps(report, indent=2))
    made_rate = f"{rate:g}/s target, {report['moves_per_second_made']}/s made"
    setting = (f"{report['streams_held']} streams, {WORKERS} workers, load "
               f"{report['machine_load_average_1min']}")
    for row, key, unit, note in [
            (f"stream move p50 at {rate:g} moves/s", "latency_p50_ms", "ms",
             f"{made_rate}; {setting}"),
            (f"stream move p95 at {rate:g} moves/s", "latency_p95_ms", "ms",
             f"{made_rate}; {setting}"),
            (f"stream server CPU/move at {rate:g}/s", "server_cpu_ms_per_move", "ms",
             f"{PER_GAME} streams of the game, all workers; {made_rate}"),
            (f"stream bench mover CPU/move {rate:g}/s", "mover_cpu_ms_per_move", "ms",
             "game_action_submit in the movers, their start-up included"),
            (f"memory per open stream at {rate:g}/s", "kib_per_open_stream", "KiB", setting)]:
        if STREAM_SIDE_ONLY and key == "mover_cpu_ms_per_move":
            continue  # the moves were made before the measurement
        cost_table.record(row + mode, report[key], unit, note=note)
    assert results["open"] == len(game_ids) * PER_GAME, report
    assert len(latencies) == expected, report
