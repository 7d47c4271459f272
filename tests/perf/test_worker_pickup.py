"""How long a task waits for a worker on the embedded filesystem broker (no REDIS_URL): the
project's worker polls the queue folder every FILESYSTEM_BROKER_POLL_SECONDS. Measured side by
side in one run: kombu's default interval (1 s) and the project's setting, each with tasks sent
at random moments (so every phase of the polling cycle is sampled).

  make test PYTEST_ARGS="tests/perf/test_worker_pickup.py -s"  (or make bench)
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery

from config import filesystem_broker
from tests.conftest import wait_for

pytestmark = pytest.mark.celery_worker

ROOT = Path(__file__).resolve().parents[2]
TASKS = int(os.environ.get("TURNPOST_BENCH_PICKUPS", "25"))


def _measure(tmp_path: Path, poll_seconds: str) -> list[float]:
    data_dir = tmp_path / f"poll-{poll_seconds}"
    data_dir.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("REDIS_URL", "REDIS_CACHE_URL", "DATABASE_URL", "CELERY_QUEUE")}
    env.update(DATA_DIR=str(data_dir), FILESYSTEM_BROKER_POLL_SECONDS=poll_seconds)
    log = data_dir / "worker.log"
    with open(log, "w") as out:
        worker = subprocess.Popen([sys.executable, "-m", "tests.perf.pickup_worker"], cwd=ROOT,
                                  env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        assert wait_for(lambda: " ready." in log.read_text(), timeout=60), log.read_text()
        broker = data_dir / "broker"
        sender = Celery("pickup-sender", broker=f"{filesystem_broker.SCHEME}://")
        sender.conf.broker_transport_options = {
            "data_folder_in": str(broker / "queue"), "data_folder_out": str(broker / "queue"),
            "processed_folder": str(broker / "processed"), "store_processed": False,
            "control_folder": str(broker / "control")}
        results = data_dir / "waits.txt"
        chooser = random.Random(poll_seconds)
        for number in range(TASKS):
            time.sleep(chooser.uniform(0.05, 0.6))
            sender.send_task("bench.pickup", args=[time.time(), str(results)], queue="celery")
            assert wait_for(lambda n=number: results.exists()
                            and len(results.read_text().split()) > n, timeout=30)
        return [float(line) for line in results.read_text().split()]
    finally:
        worker.terminate()
        worker.wait(20)


def test_task_pickup_wait_on_the_filesystem_broker(tmp_path, benchmark):
    configured = os.environ.get("FILESYSTEM_BROKER_POLL_SECONDS", "0.05")
    rows = {}

    def both() -> None:
        for label, poll in (("kombu default, 1 s", "1.0"),
                            (f"project, {configured} s", configured)):
            rows[label] = sorted(_measure(tmp_path, poll))

    benchmark.pedantic(both, rounds=1, iterations=1)  # `make bench` runs it too
    for label, waits in rows.items():
        print(f"\n{label}: {len(waits)} tasks, median {statistics.median(waits) * 1000:.0f} ms,"
              f" 95th {waits[int(len(waits) * 0.95) - 1] * 1000:.0f} ms,"
              f" max {waits[-1] * 1000:.0f} ms")
    default, tuned = rows.values()
    ratio = statistics.median(default) / statistics.median(tuned)
    print(f"median wait, kombu default / project setting: {ratio:.1f}")
    assert len(default) == len(tuned) == TASKS  # every task was picked up, once
