"""Every answer under /api/ is JSON {code, message, details}, whatever went wrong: an address that
is not there, a non-numeric id, a body too deep or too large, an unreachable database."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from rest_framework.test import APIClient

from tests.conftest import ROOT, wait_for
from tests.factories import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _json_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and body["message"] and isinstance(body["details"], dict)
    return body


@pytest.mark.parametrize("path", ["/api/v1/games/abc/", "/api/v1/games/1e3/actions/",
                                  "/api/v1/no-such-thing/", "/api/v1/games/99999999/"])
def test_addresses_that_are_not_there_are_json_404(path):
    response = APIClient().get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


def test_html_pages_keep_their_html_404():
    response = APIClient().get("/games/abc/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def _mover(game, users):
    from games.engines.registry import get_engine

    seat = get_engine(game.engine).active_seats(game.state)[0]
    client = APIClient()
    client.force_authenticate(users[seat])
    return client


def test_deeply_nested_json_is_a_400_not_a_crash():
    game, users = started_game(2)
    client = _mover(game, users)
    url = f"/api/v1/games/{game.pk}/actions/"
    for depth in (40, 100_000):
        body = '{"action": ' + "[" * depth + "]" * depth + ', "version": 0}'
        response = client.post(url, body, content_type="application/json")
        error = _json_error(response, 400, "malformed_request")
        assert "nested" in error["message"]


def test_a_body_over_the_limit_is_a_json_413(settings):
    game, users = started_game(2)
    client = _mover(game, users)
    body = json.dumps({"action": {"type": "bank", "pad": "x" * (settings.API_MAX_BODY_BYTES)},
                       "version": game.version})
    response = client.post(f"/api/v1/games/{game.pk}/actions/", body,
                           content_type="application/json")
    _json_error(response, 413, "request_too_large")


def test_forms_and_multipart_bodies_are_refused_by_the_json_api():
    game, users = started_game(2)
    client = _mover(game, users)
    response = client.post(f"/api/v1/games/{game.pk}/actions/", {"version": "0"},
                           format="multipart")
    _json_error(response, 415, "unsupported_media_type")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def server_without_database(tmp_path):
    """The production WSGI app under gunicorn, its DATABASE_URL pointing at a port where no
    PostgreSQL listens (as when the database is down)."""
    port = _free_port()
    env = {**os.environ, "DJANGO_DEBUG": "false", "DATA_DIR": str(tmp_path),
           "DJANGO_SECRET_KEY": "k3y-" + "production-secret-for-this-test-only-" * 2,
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "false",
           "DATABASE_URL": f"postgres://postgres@127.0.0.1:{_free_port()}/turnpost",
           # Each request waits this long for the pool to connect before its 503 (default 10).
           "DATABASE_POOL_TIMEOUT": "2"}
    env.pop("REDIS_URL", None)
    env.pop("REDIS_CACHE_URL", None)
    # As the production image does at build time (the error pages use hashed static names).
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT,
                   env=env, check=True)
    log = open(tmp_path / "gunicorn.log", "w+")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", "1"], cwd=ROOT, env=env, stdout=log,
        stderr=subprocess.STDOUT)

    def listening():
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return True
        except OSError:
            return False

    try:
        assert wait_for(listening, timeout=30), (tmp_path / "gunicorn.log").read_text()
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def _fetch(url: str, data: bytes | None = None):
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_an_unreachable_database_is_a_json_503_with_retry_after(server_without_database):
    for path, data in [("/api/v1/games/", None), ("/api/v1/games/1/", None),
                       ("/api/v1/auth/token/", b'{"username": "a", "password": "b"}')]:
        status, headers, body = _fetch(server_without_database + path, data)
        assert status == 503, (path, body[:300])
        assert headers["Content-Type"].startswith("application/json")
        assert headers["Retry-After"] == "5"
        assert json.loads(body)["code"] == "database_unavailable"
    status, headers, body = _fetch(server_without_database + "/")
    assert status == 503 and headers["Content-Type"].startswith("text/html")
