"""Counts the 409s of three-player 7 Wonders turns whose three picks are all sent at once, each
by its player's own API client (thread and database connection), against the version all three
saw. Bounded: TURNPOST_BENCH_TURNS turns (100 by default), printed with the count.

  make test PYTEST_ARGS="tests/perf/test_simultaneous_pick_conflicts.py -s"  (or make bench)
"""

from __future__ import annotations

import os
import random
import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.tokens import token_create
from games import selectors, services
from games.models import Game
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TURNS = int(os.environ.get("TURNPOST_BENCH_TURNS", "100"))


def _send_at_once(requests) -> list:
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def run(index, request):
        try:
            barrier.wait()
            answers[index] = request()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def _client_of(user) -> APIClient:
    _, raw = token_create(user=user, name="bench", scopes=["read", "play"], via="bench")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def test_409s_in_three_player_seven_wonders_turns_with_all_picks_at_once(monkeypatch,
                                                                         benchmark):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "1000000/min")
    counted = benchmark.pedantic(_race_turns, rounds=1, iterations=1)  # `make bench` too
    assert counted["turns"] == TURNS
    assert counted["conflicts"] == 0


def _race_turns() -> dict:
    chooser = random.Random(409)
    turns = conflicts = games = 0
    started = time.perf_counter()
    while turns < TURNS:
        users = [UserFactory() for _ in range(3)]
        clients = {user.pk: _client_of(user) for user in users}
        game = services.game_create(creator=users[0], engine_slug="seven_wonders",
                                    num_players=3)
        for user in users[1:]:
            services.game_join(game_id=game.pk, user=user)
        game = services.game_start(game_id=game.pk, user=users[0])
        games += 1
        seat_user = {seat.number: seat.user for seat in game.seats.select_related("user")}
        while turns < TURNS:
            game = Game.objects.get(pk=game.pk)
            if game.status != "active":
                break
            awaited = selectors.awaiting_seats(game)
            if not awaited:
                services.game_resolve(game_id=game.pk)  # a resolution not yet run
                continue
            seen = game.version
            picks = [(seat_user[seat], chooser.choice(
                selectors.legal_actions_for(game, seat_user[seat]))["action"])
                     for seat in awaited]
            url = f"/api/v1/games/{game.pk}/actions/"
            answers = _send_at_once([
                (lambda client=clients[user.pk], action=action, seen=seen, url=url: client.post(
                    url, {"action": action, "version": seen}, format="json"))
                for user, action in picks])
            codes = [answer.status_code for answer in answers]
            assert set(codes) <= {200, 409}, [a.content for a in answers]
            if len(awaited) == 3:
                turns += 1
                conflicts += codes.count(409)
    seconds = time.perf_counter() - started
    print(f"\n{turns} three-player 7 Wonders turns ({games} games), all three picks sent at "
          f"once: {conflicts} answered 409 ({seconds:.1f} s)")
    return {"turns": turns, "conflicts": conflicts}
