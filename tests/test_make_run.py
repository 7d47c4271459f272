"""`make run`'s process set on the embedded defaults: web, worker and beat start on SQLite and the
filesystem broker, serve requests, and all stop on SIGTERM to the process group."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status
    except OSError:
        return 0


def test_web_worker_and_beat_start_on_embedded_defaults_and_stop_together(tmp_path):
    port = _free_port()
    env = {
        key: value for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    bin_dir = str(Path(sys.executable).parent)
    env.update({"DATA_DIR": str(tmp_path), "WEB_PORT": str(port),
                "PATH": f"{bin_dir}:{env.get('PATH', '')}"})
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   env=env, check=True)
    log_path = tmp_path / "run.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [str(Path(bin_dir) / "honcho"), "-f", "Procfile.dev", "start"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            ready = ""
            while time.monotonic() < deadline:
                ready = log_path.read_text()
                if (_get(f"http://127.0.0.1:{port}/api/v1/engines/") == 200
                        and "ready." in ready and "beat: Starting" in ready):
                    break
                time.sleep(0.5)
            assert _get(f"http://127.0.0.1:{port}/") == 200, ready[-3000:]
            assert "ready." in ready and "beat: Starting" in ready, ready[-3000:]
            assert (tmp_path / "turnpost.sqlite3").exists()
            assert (tmp_path / "broker" / "queue").is_dir()
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)
    text = log_path.read_text()
    for name in ("web.1", "worker.1", "beat.1"):
        assert f"{name} stopped" in text, text[-3000:]
