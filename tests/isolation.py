"""Gives each pytest-xdist worker its own Redis databases (broker and cache), event channel
prefix, data folder and server ports, in the environment before Django reads its settings; the
test database pytest-django already suffixes per worker. Also one secret key for a test run and
the processes it starts. Loaded with `-p tests.isolation`."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The variables each worker gets its own value of, as they were given (a test that starts a
#: pytest of its own hands these to it).
GIVEN = {name: os.environ[name] for name in (
    "REDIS_URL", "REDIS_CACHE_URL", "EVENTS_CHANNEL_PREFIX", "DATA_DIR", "TEST_SERVER_PORTS_FROM",
    "TEST_SERVER_PORTS_TO") if name in os.environ}
#: The port range of the test servers (tests/live/conftest.py), split between the workers.
PORTS = (8600, 8700)


def _redis_db(url: str) -> int:
    path = urlsplit(url).path.strip("/")
    return int(path) if path.isdigit() else 0


def _with_redis_db(url: str, db: int) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{db}"))


def worker_environment(environ: dict[str, str], worker: str, count: int) -> dict[str, str]:
    """The variables of worker `worker` ("gw0", "gw1", ...) of `count`: worker n takes the
    broker and cache databases 2n above the given ones (settings' default cache is database 1),
    its own channel prefix, a subfolder of DATA_DIR and its share of the port range."""
    number = int(worker.removeprefix("gw"))
    changed = {
        "EVENTS_CHANNEL_PREFIX": f"{environ.get('EVENTS_CHANNEL_PREFIX', 'turnpost')}-{worker}",
        "DATA_DIR": str(Path(environ.get("DATA_DIR", ROOT / "var")) / worker),
    }
    low = int(environ.get("TEST_SERVER_PORTS_FROM", PORTS[0]))
    share = (int(environ.get("TEST_SERVER_PORTS_TO", PORTS[1])) - low) // count
    if share < 1:
        raise pytest.UsageError(f"{count} workers cannot share the test server ports")
    changed["TEST_SERVER_PORTS_FROM"] = str(low + number * share)
    changed["TEST_SERVER_PORTS_TO"] = str(low + (number + 1) * share)
    if broker := environ.get("REDIS_URL"):
        cache = environ.get("REDIS_CACHE_URL", _with_redis_db(broker, 1))
        broker_db, cache_db = _redis_db(broker), _redis_db(cache)
        taken = {broker_db + 2 * n for n in range(count)} | {cache_db + 2 * n for n in range(count)}
        if len(taken) < 2 * count:
            # The cache must not share the broker's database (clearing it would drop tasks).
            raise pytest.UsageError(
                f"Redis databases {broker_db} (REDIS_URL) and {cache_db} (REDIS_CACHE_URL) would"
                f" overlap between {count} workers: choose numbers an odd distance apart")
        changed["REDIS_URL"] = _with_redis_db(broker, broker_db + 2 * number)
        changed["REDIS_CACHE_URL"] = _with_redis_db(cache, cache_db + 2 * number)
    return changed


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests():
    # pytest-django reads the settings in this same hook; tryfirst runs this one before it.
    # xdist names the worker in the environment before pytest starts in it.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is not None:
        count = int(os.environ["PYTEST_XDIST_WORKER_COUNT"])
        os.environ.update(worker_environment(os.environ, worker, count))
    share_development_secret_key()


def share_development_secret_key() -> None:
    """The random key the settings make in DATA_DIR, given to the processes the tests start
    (workers, servers) through DJANGO_SECRET_KEY: they run with DATA_DIRs of their own, and
    would otherwise each sign with a key of their own."""
    from config.local_secrets import development_secret

    data_dir = Path(os.environ.get("DATA_DIR", ROOT / "var"))
    data_dir.mkdir(parents=True, exist_ok=True)
    if not os.environ.get("DJANGO_SECRET_KEY"):
        os.environ["DJANGO_SECRET_KEY"] = development_secret(data_dir / "secret-key")
