"""Production settings pass Django's deployment checks; gunicorn's settings pick the server."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_check_deploy_is_clean_with_production_environment(tmp_path):
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "x" * 20 + "-a-long-random-production-secret-value-9f3k2",
        "DJANGO_ALLOWED_HOSTS": "turnpost.example",
        "SITE_URL": "https://turnpost.example",
        "DATA_DIR": str(tmp_path),
        # Inbound email webhooks refuse to run in production without it (notifications.E001).
        "ANYMAIL_WEBHOOK_SECRET": "hook:a-long-random-webhook-password",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_its_own_secret(tmp_path):
    env = {**os.environ, "DJANGO_DEBUG": "false", "DATA_DIR": str(tmp_path),
           "DJANGO_ALLOWED_HOSTS": "turnpost.example"}
    env.pop("DJANGO_SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stdout + result.stderr


def _gunicorn_settings(monkeypatch, **environment) -> dict:
    import runpy

    monkeypatch.delenv("GUNICORN_WORKER_CLASS", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "config" / "gunicorn.py"))


def test_gunicorn_serves_asgi_unless_told_to_serve_wsgi_in_threads(monkeypatch):
    default = _gunicorn_settings(monkeypatch)
    assert (default["worker_class"], default["wsgi_app"]) == ("uvicorn_worker.UvicornWorker",
                                                              "config.asgi:application")
    threaded = _gunicorn_settings(monkeypatch, GUNICORN_WORKER_CLASS="gthread",
                                  GUNICORN_THREADS="4")
    assert (threaded["worker_class"], threaded["wsgi_app"], threaded["threads"]) == (
        "gthread", "config.wsgi:application", 4)
    with pytest.raises(SystemExit, match="GUNICORN_WORKER_CLASS"):
        _gunicorn_settings(monkeypatch, GUNICORN_WORKER_CLASS="sync")
