"""A real ASGI server (uvicorn, as `make run` and the image serve) on the test database, and a
private bus channel prefix shared by the test process (which publishes) and the server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Ports this suite may listen on (the project's test servers use their own ranges; each xdist
#: worker gets its share of them, tests/isolation.py).
PORTS = range(int(os.environ.get("TEST_SERVER_PORTS_FROM", "8600")),
              int(os.environ.get("TEST_SERVER_PORTS_TO", "8700")))


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in the test range")


def database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    return (f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT'] or 5432}"
            f"/{db['NAME']}")


@pytest.fixture
def channel_prefix(settings):
    settings.EVENTS_CHANNEL_PREFIX = f"test-{uuid.uuid4().hex[:10]}"
    return settings.EVENTS_CHANNEL_PREFIX


def start_server(tmp_path, env_overrides: dict) -> tuple[subprocess.Popen, str, Path]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url(), "DATA_DIR": str(tmp_path),
           "STREAM_HEARTBEAT_SECONDS": "1", "STREAM_POLL_SECONDS": "0.2", **env_overrides}
    log_path = tmp_path / f"uvicorn-{port}.log"
    log = log_path.open("w")
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("uvicorn")), "config.asgi:application",
         "--host", "127.0.0.1", "--port", str(port), "--timeout-graceful-shutdown", "1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert process.poll() is None, log_path.read_text()
        time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}", log_path


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


@pytest.fixture
def asgi_server(transactional_db, channel_prefix, tmp_path):
    """uvicorn serving the project with Redis pub/sub between it and this test process."""
    process, url, log_path = start_server(tmp_path, {"EVENTS_CHANNEL_PREFIX": channel_prefix})
    yield url
    stop_server(process)
    print(log_path.read_text()[-3000:])
