"""xdist's workers share no state (tests/isolation.py): what each worker is given is disjoint from
what the others are given, and the running worker's Django, Celery, test database and test
servers were configured with it (not with what the whole run was given)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.isolation import GIVEN, worker_environment

RUN = {"REDIS_URL": "redis://127.0.0.1:6379/0", "EVENTS_CHANNEL_PREFIX": "turnpost",
       "DATA_DIR": "/srv/turnpost"}


@pytest.mark.parametrize("count", [2, 3, 8])
def test_the_workers_are_given_disjoint_databases_channels_folders_and_ports(count):
    workers = [worker_environment(RUN, f"gw{number}", count) for number in range(count)]
    redis = [env[name] for env in workers for name in ("REDIS_URL", "REDIS_CACHE_URL")]
    assert len(set(redis)) == 2 * count
    assert redis[:2] == ["redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/1"]
    for name in ("EVENTS_CHANNEL_PREFIX", "DATA_DIR"):
        assert len({env[name] for env in workers}) == count
    ports = [set(range(int(env["TEST_SERVER_PORTS_FROM"]), int(env["TEST_SERVER_PORTS_TO"])))
             for env in workers]
    assert all(ports) and sum(map(len, ports)) == len(set().union(*ports))


def test_a_cache_database_the_next_worker_would_take_for_its_broker_is_refused():
    with pytest.raises(pytest.UsageError, match="overlap"):
        worker_environment({**RUN, "REDIS_CACHE_URL": "redis://127.0.0.1:6379/2"}, "gw0", 2)


@pytest.mark.django_db
def test_this_worker_runs_on_what_it_was_given():
    from django.conf import settings
    from django.db import connection

    from config.celery import app
    from tests.live.conftest import PORTS

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        pytest.skip("not run by an xdist worker (make test runs on several)")
    given = worker_environment(GIVEN, worker, int(os.environ["PYTEST_XDIST_WORKER_COUNT"]))
    assert connection.settings_dict["NAME"].endswith(f"_{worker}")
    assert given["EVENTS_CHANNEL_PREFIX"] == settings.EVENTS_CHANNEL_PREFIX
    assert Path(given["DATA_DIR"]).resolve() == settings.DATA_DIR
    assert range(int(given["TEST_SERVER_PORTS_FROM"]), int(given["TEST_SERVER_PORTS_TO"])) == PORTS
    if "REDIS_URL" in GIVEN:
        assert app.conf.broker_url == settings.REDIS_URL == given["REDIS_URL"]
        assert settings.CACHES["default"]["LOCATION"] == given["REDIS_CACHE_URL"]
