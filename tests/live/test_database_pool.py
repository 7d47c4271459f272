"""After PostgreSQL drops the pooled connections (a restart, a failover), the first request is
served on a fresh connection, not answered 503 while the database is back."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from django.db import connection

from tests.live.conftest import start_server, stop_server

# A server of its own and a wait for PostgreSQL to drop its connections: 10 s.
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _drop_the_servers_connections() -> int:
    """What a PostgreSQL restart does to the pool's idle connections: every other connection
    to the test database is ended by the server."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return cursor.fetchone()[0]


def test_the_pool_replaces_connections_the_database_dropped(transactional_db, tmp_path):
    process, url, log_path = start_server(tmp_path, {
        "DJANGO_DEBUG": "false", "DATABASE_POOL_SIZE": "2",
        "DJANGO_SECRET_KEY": "pool-test-" + "a-production-key-for-this-test-only-" * 2,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "false"})
    try:
        assert _get(url + "/api/v1/games/")[0] == 200, log_path.read_text()[-2000:]
        assert _drop_the_servers_connections() >= 1
        # Every request after it, the first included, is served.
        for _ in range(3):
            status, body = _get(url + "/api/v1/games/")
            assert status == 200, (body, log_path.read_text()[-2000:])
    finally:
        stop_server(process)
