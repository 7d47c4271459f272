"""Measures a submit-action request (token auth, DRF, row lock, engine, log append, commit)
against PostgreSQL. Reports median and 95th percentile; asserts only that every request worked.
`make bench` runs it with pytest-benchmark statistics as well."""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games import services
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

REQUESTS = int(os.environ.get("TURNPOST_BENCH_REQUESTS", "300"))
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS_DIR", Path(__file__).resolve().parents[2]
                                / "test-artifacts"))


def _fresh_game(users, clients):
    game = services.game_create(creator=users[0], engine_slug="toy", num_players=2)
    services.game_join(game_id=game.pk, user=users[1])
    game = services.game_start(game_id=game.pk, user=users[0])
    seat_zero = game.seats.get(number=0).user
    return game.pk, clients[users.index(seat_zero)]


def test_submit_action_latency(benchmark):
    users = [UserFactory(), UserFactory()]
    clients = []
    for user in users:
        client = APIClient()
        client.force_authenticate(user=None)
        from rest_framework.authtoken.models import Token

        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        clients.append(client)
    payload = {"action": {"type": "bid", "amount": 2}, "version": 0}

    def setup():
        game_id, client = _fresh_game(users, clients)
        return (f"/api/v1/games/{game_id}/actions/", client), {}

    def submit(url, client):
        response = client.post(url, payload, format="json")
        assert response.status_code == 200, response.content
        return response

    timings = []
    for _ in range(REQUESTS):
        (url, client), _ = setup()
        started = time.perf_counter()
        submit(url, client)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    report = {
        "requests": len(timings),
        "median_ms": round(statistics.median(timings), 2),
        "p95_ms": round(timings[int(len(timings) * 0.95) - 1], 2),
        "max_ms": round(timings[-1], 2),
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "submit-latency.json").write_text(json.dumps(report, indent=2))
    print(f"\nsubmit action on PostgreSQL: {report}")
    benchmark.pedantic(submit, setup=setup, rounds=20 if benchmark.enabled else 1)
