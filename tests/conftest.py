"""Shared fixtures. Tests that need real services are marked (postgres, redis, celery_worker,
browser); where a service is missing they are skipped with the reason, unless
TURNPOST_REQUIRE_SERVICES=1 (set by CI), in which case they fail loudly instead. Also the
Hypothesis profiles, and which tests `make test` collects and in what order."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest
from hypothesis import settings as hypothesis_settings

from config.catalogs import compile_catalogs
from config.celery import app as celery_app
from games.engines import registry
from tests.engines.toy import toy_engine

REQUIRE_SERVICES = os.environ.get("TURNPOST_REQUIRE_SERVICES") == "1"

# Tests read the catalogs as edited, even when pytest runs without `make install` before it.
compile_catalogs()
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
PERF = ROOT / "tests" / "perf"

# HYPOTHESIS_PROFILE picks one. Properties that set their own count scale it with max_examples
# (tests/engines/conformance.examples: as written at 100). `dev` (`make test`) tries half as many
# and keeps the example database in .hypothesis/, so that a failure found once is tried first next
# time; `ci` tries as many as written, keeps no database and prints the blob that reproduces a
# failure (@reproduce_failure); `fuzz` (`make fuzz`) tries twenty times as many.
hypothesis_settings.register_profile("dev", deadline=None, max_examples=50)
hypothesis_settings.register_profile("ci", deadline=None, database=None, print_blob=True)
hypothesis_settings.register_profile("fuzz", deadline=None, max_examples=2000)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_ignore_collect(collection_path, config):
    """tests/perf (benchmarks, load tests and their checks) is collected only when named on the
    command line, as `make bench` does: `make test` leaves it out."""
    if collection_path != PERF and PERF not in collection_path.parents:
        return None
    for arg in config.args:
        named = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if named == PERF or PERF in named.parents:
            return None
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    # The modules with slow tests first, whole (their module fixtures are set up once), in their
    # order (the sort is stable): xdist's workers take them on while the quick tests fill in
    # around them, instead of one worker finishing a long test alone at the end. Before
    # pytest-django's own sort (tryfirst runs this one first), which keeps the transactional
    # tests, whose flush empties the tables migrations filled, after the others.
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


def _redis_reachable() -> str | None:
    url = os.environ.get("REDIS_URL")
    if not url:
        return "REDIS_URL is not set"
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), 2):
            return None
    except OSError as error:
        return f"Redis at {url} is unreachable: {error}"


def _postgres_missing() -> str | None:
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not point at PostgreSQL"
    return None


def _node_tools_missing() -> str | None:
    bin_dir = Path(__file__).resolve().parents[1] / "tools/node/node_modules/.bin"
    missing = [tool for tool in ("redocly", "openapi-typescript", "tsc")
               if not (bin_dir / tool).exists()]
    if missing:
        return f"npm tools missing: {', '.join(missing)} (make install runs npm ci)"
    return None


def _missing_for(item) -> list[str]:
    reasons = []
    markers = {mark.name for mark in item.iter_markers()}
    if {"postgres", "celery_worker"} & markers and (reason := _postgres_missing()):
        reasons.append(reason)
    if {"redis", "celery_worker"} & markers and (reason := _redis_reachable()):
        reasons.append(reason)
    if "node_tools" in markers and (reason := _node_tools_missing()):
        reasons.append(reason)
    if "browser" in markers and not os.path.exists(CHROMIUM):
        reasons.append(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    return reasons


def pytest_runtest_setup(item):
    reasons = _missing_for(item)
    if not reasons:
        return
    message = "; ".join(reasons)
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(autouse=True, scope="session")
def _toy_engine_registered():
    """The test-only toy game is available to the services during tests, and only then."""
    registry.register(toy_engine)
    yield
    registry.unregister(toy_engine.slug)


@pytest.fixture(autouse=True, scope="session")
def _celery_in_process():
    """Ordinary tests run Celery tasks in-process (the real task code, no broker); the tests
    marked celery_worker switch this off and talk to a real worker."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True, scope="session")
def _no_connection_outlives_the_test_database(request):
    """Daemon threads of the live server may still hold a keep-alive request's connection when
    the session ends; end them (after every test, before the test database is dropped)."""
    if not _django_active(request):
        yield
        return
    request.getfixturevalue("django_db_setup")
    yield
    from django.db import connection

    # Nothing to do when the test database is already gone (its fixture was finalised first,
    # which happens when no test of the run used the database).
    test_database_alive = connection.settings_dict["NAME"].startswith("test_")
    if connection.vendor != "postgresql" or not test_database_alive:
        return
    with request.getfixturevalue("django_db_blocker").unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()")


def _django_active(request) -> bool:
    # Engine tests may run with `-p no:django`: they must not need Django at all.
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True)
def _isolated_data(request, tmp_path):
    """Each test gets its own outbox and an empty cache (throttle counters included), and
    leaves the default language active."""
    if not _django_active(request):
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.EMAIL_OUTBOX_DIR = tmp_path / "outbox"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # Password hashing is deliberately slow; tests only need it to work.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.cache import caches
    from django.utils import translation

    for each in caches.all():  # the per-process ones (rendered views, texts) too
        each.clear()
    yield
    # A request leaves the language it was read in active in this thread (LocaleMiddleware does
    # not undo it): the next test starts in the default language, whatever the order.
    translation.deactivate()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


def wait_for(predicate, timeout=45.0, interval=0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


@pytest.fixture
def worker_queue(tmp_path):
    """A private queue and its private mail queue, and a worker process consuming both (started
    by the test with `worker_queue["start"]()`), connected to the test database.
    `start(mail_worker=True)` serves the mail queue with a second worker instead, as production
    does, so that a hung mail server cannot hold up game work; `start(game_workers=2)` starts
    further workers on the game queue, racing the first one for its tasks."""
    import redis
    from django.db import connection

    queue = f"test-{uuid.uuid4().hex[:8]}"
    mail_queue = f"{queue}-mail"
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT'] or 5432}"
        f"/{db['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": database_url, "DATA_DIR": str(tmp_path),
           "EMAIL_BACKEND": "notifications.backends.OutboxEmailBackend", "CELERY_QUEUE": queue,
           "CELERY_MAIL_QUEUE": mail_queue}
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue,
                celery_app.conf.task_routes)
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    celery_app.conf.update(task_routes={"notifications.tasks.*": {"queue": mail_queue}})
    log = open(tmp_path / "worker.log", "w+")  # noqa: SIM115 - closed at teardown
    holder = {"queue": queue, "mail_queue": mail_queue, "env": env, "log": log,
              "process": None, "mail_process": None, "outbox": tmp_path / "outbox",
              "extra_processes": []}
    logs = [tmp_path / "worker.log"]

    def start(*, mail_worker: bool = False, game_workers: int = 1):
        holder["process"] = subprocess.Popen(
            [sys.executable, "-m", "tests.celery_worker",
             queue if mail_worker else f"{queue},{mail_queue}"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
        for _ in range(game_workers - 1):
            add_game_worker()
        if mail_worker:
            logs.append(tmp_path / "mail-worker.log")
            holder["mail_log"] = open(logs[-1], "w+")  # noqa: SIM115 - closed at teardown
            holder["mail_process"] = subprocess.Popen(
                [sys.executable, "-m", "tests.celery_worker", mail_queue],
                cwd=ROOT, env=env, stdout=holder["mail_log"], stderr=subprocess.STDOUT,
            )

    def add_game_worker():
        """One more worker on the game queue only (mail tasks wait for the mail worker)."""
        number = len(holder["extra_processes"]) + 2
        logs.append(tmp_path / f"worker-{number}.log")
        extra_log = open(logs[-1], "w+")  # noqa: SIM115 - closed at teardown
        holder["extra_processes"].append((subprocess.Popen(
            [sys.executable, "-m", "tests.celery_worker", queue, f"game{number}"],
            cwd=ROOT, env=env, stdout=extra_log, stderr=subprocess.STDOUT,
        ), extra_log))

    def wait_ready() -> bool:
        return wait_for(lambda: all(" ready." in path.read_text() for path in logs))

    holder["start"] = start
    holder["wait_ready"] = wait_ready
    holder["add_game_worker"] = add_game_worker
    yield holder
    celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = previous[:2]
    celery_app.conf.update(task_routes=previous[2])
    processes = [holder["process"], holder["mail_process"],
                 *(process for process, _ in holder["extra_processes"])]
    for process in processes:
        if process is not None:
            process.terminate()
    for process in processes:
        if process is not None:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()  # a solo worker stuck in a hung send does not stop on TERM
                process.wait(10)
    redis.Redis.from_url(os.environ["REDIS_URL"]).delete(queue, mail_queue)
    for path in logs:
        print(path.name, path.read_text()[-3000:])
    log.close()
    for _, extra_log in holder["extra_processes"]:
        extra_log.close()
    if holder.get("mail_log"):
        holder["mail_log"].close()
