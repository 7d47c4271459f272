"""Every shipped engine, played to the end by real players through the HTTP API alone (moves
chosen at random among the legal actions the API lists), with the web page rendered along the
way; simultaneous turns are resolved by the Celery task the service enqueues on commit."""

from __future__ import annotations

import importlib
import json
import math
import random
import statistics
import time

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games.engines.registry import BUILTIN_ENGINE_MODULES, get_engine
from games.models import Game
from tests.conftest import wait_for
from tests.engines.toy import toy_engine
from tests.factories import PASSWORD, UserFactory, confirm_email
from tests.perf.test_sweep_speed import ARTIFACTS

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The shipped engines, and the test-only toy game so the harness itself is always exercised.
ENGINES = {engine.slug: engine for engine in [
    toy_engine, *(importlib.import_module(module).engine for module in BUILTIN_ENGINE_MODULES)]}
#: Safety stop: a game longer than this is a bug (a stuck or looping engine).
MAX_REQUESTS = 20_000
#: The web page is rendered every this many moves, for the mover and for a spectator.
PAGE_EVERY = 40


@pytest.fixture(autouse=True)
def _robot_speed_allowed(monkeypatch):
    """These players are scripts making thousands of requests a minute; the per-user API rate
    limit would stop them, so it is lifted here alone."""
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "1000000/min")


def token_client(user) -> APIClient:
    confirm_email(user)
    client = APIClient()
    response = client.post("/api/v1/auth/token/",
                           {"username": user.username, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def players_for(engine) -> int:
    return max(engine.min_players, min(3, engine.max_players))


def start_game(slug: str, count: int) -> tuple[int, dict[int, APIClient], dict[int, object]]:
    users = [UserFactory() for _ in range(count)]
    clients = [token_client(user) for user in users]
    response = clients[0].post("/api/v1/games/", {
        "engine": slug, "num_players": count, "time_per_move": 86400}, format="json")
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    response = clients[0].post(f"/api/v1/games/{game_id}/start/")
    assert response.status_code == 200, response.content
    by_name = {user.username: (client, user) for user, client in zip(users, clients, strict=True)}
    seat_client, seat_user = {}, {}
    for seat in response.json()["seats"]:
        seat_client[seat["number"]], seat_user[seat["number"]] = by_name[seat["username"]]
    return game_id, seat_client, seat_user


def render_page(game_id: int, user, seed: str) -> None:
    web = Client()
    if user is not None:
        web.force_login(user)
    page = web.get(f"/games/{game_id}/")
    assert page.status_code == 200
    assert seed not in page.content.decode()


def play_through_api(slug: str, on_resolution_due=None, count: int | None = None
                     ) -> tuple[Game, int]:
    """Plays `slug` to the end through the API (with `count` players, default players_for);
    returns the finished game and the move count. `on_resolution_due(game_id, version)` is
    called when the last secret pick of a turn is in."""
    engine = get_engine(slug)
    count = count or players_for(engine)
    game_id, seat_client, seat_user = start_game(slug, count)
    seed = Game.objects.get(pk=game_id).seed
    chooser = random.Random(f"api-game-{slug}")
    moves = 0
    for _ in range(MAX_REQUESTS):
        game = seat_client[0].get(f"/api/v1/games/{game_id}/").json()
        if game["status"] == "finished":
            break
        awaiting = game["awaiting_seats"]
        assert awaiting, f"nobody is awaited in an active game at version {game['version']}"
        seat = chooser.choice(awaiting)
        client = seat_client[seat]
        legal = client.get(f"/api/v1/games/{game_id}/actions/").json()
        assert legal, f"seat {seat} is awaited but has no legal action"
        choice = chooser.choice(legal)
        assert choice["description"]
        response = client.post(f"/api/v1/games/{game_id}/actions/",
                               {"action": choice["action"], "version": game["version"]},
                               format="json")
        assert response.status_code == 200, response.content
        moves += 1
        after = response.json()  # the new version, status and awaited seats
        if on_resolution_due and after["status"] == "active" and not after["awaiting_seats"]:
            on_resolution_due(game_id, after["version"])
        if moves % PAGE_EVERY == 1:
            render_page(game_id, seat_user[seat], seed)
            render_page(game_id, None, seed)
    else:
        raise AssertionError(f"{slug} did not finish within {MAX_REQUESTS} requests")

    final = Game.objects.get(pk=game_id)
    assert final.result["winners"] and len(final.result["scores"]) == count
    assert final.state == replayed(final), "the stored log does not replay to the stored state"
    for seat in seat_client:
        detail = seat_client[seat].get(f"/api/v1/games/{game_id}/").json()
        assert detail["status"] == "finished" and seed not in str(detail)
        render_page(game_id, seat_user[seat], seed)
    log = seat_client[0].get(f"/api/v1/games/{game_id}/log/").json()
    assert log["count"] == final.version
    return final, moves


# The toy engine's whole game in `make test`; the shipped engines' in `make test-slow`.
@pytest.mark.parametrize("slug", [
    pytest.param(slug, marks=() if slug == "toy" else pytest.mark.slow)
    for slug in ENGINES])
def test_a_whole_game_through_the_api(slug):
    """Celery runs in-process here: the resolution task runs as the move's transaction commits."""
    game, moves = play_through_api(slug)
    assert game.status == "finished" and moves > 0


@pytest.mark.slow
def test_seven_wonders_for_two_through_the_api():
    """The two-player variant: the seat holding the Free City card is asked twice a turn (its
    own card, then the Free City's), through the same endpoints; the result ranks two seats."""
    game, moves = play_through_api("seven_wonders", count=2)
    assert game.status == "finished" and game.num_players == 2
    # 18 turns of three picks (the controller's two and the other seat's one), and any
    # Halicarnassus or Babylon decision.
    assert moves >= 18 * 3
    assert "free_city" in game.result and set(game.result["winners"]) <= {0, 1}
    city_picks = [a for a in game.actions.filter(kind="move")
                  if a.payload.get("free_city") and a.payload["type"] != "discard_build"]
    assert len(city_picks) >= 18
    # Seat 0 holds the Free City card in turns 1, 3, 5 of each Age, seat 1 in turns 2, 4, 6.
    assert sum(a.seat_number == 0 for a in city_picks) >= 9
    assert sum(a.seat_number == 1 for a in city_picks) >= 9


SIMULTANEOUS = [slug for slug, engine in ENGINES.items() if engine.simultaneous]


@pytest.mark.slow
@pytest.mark.celery_worker
@pytest.mark.parametrize("slug", SIMULTANEOUS)
def test_a_whole_simultaneous_game_with_a_real_worker(slug, worker_queue):
    """Every secret-pick turn is resolved by a separate worker process; the time from the last
    pick's response to the resolved turn is measured (reported, not asserted)."""
    worker_queue["start"]()
    assert worker_queue["wait_ready"](), "the worker did not start"
    latencies: list[float] = []

    def wait_for_the_worker(game_id: int, version: int) -> None:
        started = time.perf_counter()
        resolved = wait_for(lambda: Game.objects.get(pk=game_id).version > version,
                            timeout=60, interval=0.005)
        assert resolved, f"the worker did not resolve game {game_id} at version {version}"
        latencies.append(time.perf_counter() - started)

    game, _ = play_through_api(slug, on_resolution_due=wait_for_the_worker)
    assert latencies and game.actions.filter(kind="resolve").count() == len(latencies)
    latencies.sort()
    summary = {"engine": slug, "resolutions": len(latencies),
               "median_ms": round(1000 * statistics.median(latencies), 1),
               "p95_ms": round(1000 * latencies[math.ceil(0.95 * len(latencies)) - 1], 1)}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"worker-resolution-{slug}.json").write_text(json.dumps(summary, indent=1))
    print(summary)


def replayed(game: Game) -> dict:
    engine = get_engine(game.engine)
    state = engine.new_game(game.num_players, game.seed, game.options)
    for entry in game.actions.order_by("sequence"):
        state = (engine.resolve(state) if entry.kind == "resolve"
                 else engine.apply(state, entry.seat_number, entry.payload))
    return state
