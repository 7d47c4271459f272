"""`make run`'s process set on the embedded defaults: web, worker and beat start on SQLite and the
filesystem broker, serve requests, and all stop on SIGTERM to the process group; the links in
emails follow the port `make run PORT=…` serves on unless SITE_URL is set; the secret key is
made at random into DATA_DIR on first run, never taken from the repository."""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Each test starts Django processes (the whole `make run` set, or several in turn): 12–70 s each.
pytestmark = pytest.mark.slow


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
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_SECRET_KEY"}
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
            assert stat.S_IMODE((tmp_path / "secret-key").stat().st_mode) == 0o600
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)
    text = log_path.read_text()
    for name in ("web.1", "worker.1", "beat.1"):
        assert f"{name} stopped" in text, text[-3000:]


#: Renders a real notification email (no database needed) and prints SITE_URL, then the email.
_EMAIL_LINKS = """
from django.conf import settings
from django.utils import timezone
from accounts.models import User
from notifications.models import Notification
from notifications.rendering import build_email
user = User(pk=1, username="alice", email="alice@example.com")
note = Notification(user=user, kind="mention", context={"author": "bob", "text": "hi"})
print(settings.SITE_URL)
print(build_email(note, timezone.now()).body)
"""


def _run_env(tmp_path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SITE_URL", "WEB_PORT"}}
    env["DATA_DIR"] = str(tmp_path)
    return env


def _make_run_environment(env: dict[str, str], port: int) -> dict[str, str]:
    """The WEB_PORT and SITE_URL `make run PORT=…` starts its processes with (a dry run)."""
    dry_run = subprocess.run(["make", "-n", "run", f"PORT={port}"], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True).stdout
    line = next(line for line in dry_run.splitlines() if "WEB_PORT=" in line)
    return {"WEB_PORT": re.search(r"WEB_PORT=(\d+)", line)[1],
            "SITE_URL": re.search(r'SITE_URL="([^"]*)"', line)[1]}


def _email_links(env: dict[str, str]) -> tuple[str, list[str]]:
    out = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", _EMAIL_LINKS],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    site_url, _, body = out.partition("\n")
    return site_url.strip(), re.findall(r"https?://\S+", body)


def test_make_run_on_another_port_puts_that_port_in_every_email_link(tmp_path):
    env = _run_env(tmp_path)
    started_with = _make_run_environment(env, 8101)
    assert started_with == {"WEB_PORT": "8101", "SITE_URL": "http://127.0.0.1:8101"}
    site_url, links = _email_links({**env, **started_with})
    assert site_url == "http://127.0.0.1:8101"
    assert links and all(link.startswith("http://127.0.0.1:8101/") for link in links), links
    # Started without make (honcho -f Procfile.dev with WEB_PORT only), the same holds.
    assert _email_links({**env, "WEB_PORT": "8101"})[0] == "http://127.0.0.1:8101"


def test_a_site_url_that_is_set_wins_over_the_port(tmp_path):
    env = {**_run_env(tmp_path), "SITE_URL": "https://play.example.org"}
    started_with = _make_run_environment(env, 8101)
    assert started_with["SITE_URL"] == "https://play.example.org"
    site_url, links = _email_links({**env, **started_with})
    assert site_url == "https://play.example.org"
    assert links and all(link.startswith("https://play.example.org/") for link in links)


#: The key config/settings.py once shipped for development: no server may sign with it again.
OLD_REPOSITORY_KEY = "insecure-development-key-only-for-the-embedded-defaults-never-in-production"


def test_make_run_makes_its_own_secret_key_once_into_data_dir(tmp_path):
    env = {key: value for key, value in _run_env(tmp_path).items()
           if key not in {"DJANGO_SECRET_KEY", "DJANGO_DEBUG"}}

    def secret_key(data_dir: Path) -> str:
        return subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c",
             "from django.conf import settings; print(settings.SECRET_KEY)"],
            cwd=ROOT, env={**env, "DATA_DIR": str(data_dir)}, capture_output=True, text=True,
            check=True).stdout.strip()

    first = secret_key(tmp_path)
    key_file = tmp_path / "secret-key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and key_file.read_text().strip() == first
    assert first != OLD_REPOSITORY_KEY and len(first) >= 50
    assert secret_key(tmp_path) == first  # kept: sessions and reply addresses survive a restart
    assert secret_key(tmp_path / "elsewhere") not in (first, OLD_REPOSITORY_KEY)
    assert OLD_REPOSITORY_KEY not in (ROOT / "config" / "settings.py").read_text()


def test_processes_starting_together_agree_on_one_key(tmp_path):
    """Web, workers and beat load the settings at the same moment when started without
    `make run`'s migrate before them: the first key written is the one all of them use."""
    code = ("import sys; from pathlib import Path; from config.local_secrets import "
            "development_secret; print(development_secret(Path(sys.argv[1])))")
    processes = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "secret-key")],
                                  cwd=ROOT, stdout=subprocess.PIPE, text=True) for _ in range(6)]
    keys = {process.communicate(timeout=60)[0].strip() for process in processes}
    assert len(keys) == 1 and keys == {(tmp_path / "secret-key").read_text().strip()}
    assert [path.name for path in tmp_path.iterdir()] == ["secret-key"]  # no drafts left
