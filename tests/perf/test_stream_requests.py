"""Requests (and bytes) an API client spends on one finished game: following the game's event
stream versus polling the game, measured side by side in one game of Stone Age played to the
end over HTTP against uvicorn. Seat 0 follows the stream (it asks for its choices only when an
event says it is its turn); seat 1 polls the game every TURNPOST_BENCH_POLL_SECONDS (default
1 s) and asks for its choices when the game says it is awaited. Both play their first legal
action at once. A load test: `make bench` only.

The poller's count grows with the game's length in time, not in moves: this game lasts minutes;
at a turn a day the same poller makes ~86,400 requests a day of game at 1 s, 21,600 at 4 s.
"""

from __future__ import annotations

import json
import os
import threading
import time

import pytest
import requests

from tests.api.clients import token_of
from tests.factories import started_game
from tests.live.conftest import start_server, stop_server
from tests.live.sse import SSEStream
from tests.perf.test_sweep_speed import ARTIFACTS

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

POLL_SECONDS = float(os.environ.get("TURNPOST_BENCH_POLL_SECONDS", "1"))
GAME_LIMIT_SECONDS = 900


class Counted:
    """An HTTP client that counts its requests and the bytes it received."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.session = base, requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.requests = self.bytes = 0

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        response = self.session.request(method, self.base + path, timeout=30, **kwargs)
        self.requests += 1
        self.bytes += len(response.content)
        assert response.status_code in (200, 409), (response.status_code, response.text[:300])
        return response

    def play(self, game_id: int, version: int) -> bool:
        """Asks for the choices, plays the first; False if there were none or it was stale."""
        choices = self.call("GET", f"/api/v1/games/{game_id}/actions/").json()
        if not choices:
            return False
        return self.call("POST", f"/api/v1/games/{game_id}/actions/",
                         json={"action": choices[0]["action"], "version": version}
                         ).status_code == 200


def stream_client(base: str, token: str, game_id: int, seat: int, out: dict) -> None:
    client = Counted(base, token)
    stream = SSEStream(f"{base}/api/v1/games/{game_id}/stream",
                       {"Authorization": f"Bearer {token}"}, timeout=60)
    client.requests += 1
    event = stream.next_event(60)
    version, my_turn = event["data"]["version"], seat in event["data"]["awaiting"]
    while True:
        if my_turn and not client.play(game_id, version):
            # Stale: the game moved on; a fresh version comes with the next event.
            pass
        event = stream.next_event(60)
        if event is None or event["event"] == "end":
            break
        if event["event"] in ("move", "status"):
            version, my_turn = event["data"]["version"], event["data"]["your_turn"]
    out.update(requests=client.requests, bytes=client.bytes + len(stream.text().encode()))
    stream.close()


def polling_client(base: str, token: str, game_id: int, seat: int, out: dict) -> None:
    client = Counted(base, token)
    while True:
        game = client.call("GET", f"/api/v1/games/{game_id}/").json()
        if game["status"] != "active":
            break
        if seat in game["view"].get("active_seats", []):
            client.play(game_id, game["version"])
            continue
        time.sleep(POLL_SECONDS)
    out.update(requests=client.requests, bytes=client.bytes)


def test_requests_per_finished_game_stream_versus_polling(benchmark, settings, tmp_path):
    if benchmark.disabled:
        pytest.skip("a load test: `make bench` runs it")
    settings.EVENTS_CHANNEL_PREFIX = prefix = f"bench-req-{os.getpid()}"
    server, base, log = start_server(tmp_path, {"EVENTS_CHANNEL_PREFIX": prefix,
                                                "API_THROTTLE_USER": "100000/min"})
    try:
        game, users = started_game(2, engine="stone_age", seed="requests-per-game")
        results: dict = {"stream": {}, "polling": {}}
        threads = [
            threading.Thread(target=stream_client, args=(base, token_of(users[0]), game.pk, 0,
                                                         results["stream"])),
            threading.Thread(target=polling_client, args=(base, token_of(users[1]), game.pk, 1,
                                                          results["polling"])),
        ]

        def play_game() -> None:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(GAME_LIMIT_SECONDS)

        started = time.monotonic()
        benchmark.pedantic(play_game, rounds=1, iterations=1)
        seconds = time.monotonic() - started
    finally:
        stop_server(server)
    game.refresh_from_db()
    assert game.status == "finished", log.read_text()[-2000:]
    decisions = {seat: game.actions.filter(seat_number=seat, kind="move").count()
                 for seat in (0, 1)}
    report = {
        "game": "Stone Age, 2 players", "versions": game.version, "seconds": round(seconds, 1),
        "poll_interval_seconds": POLL_SECONDS,
        "stream_client": {**results["stream"], "decisions": decisions[0]},
        "polling_client": {**results["polling"], "decisions": decisions[1]},
        "requests_ratio_polling_to_stream": round(
            results["polling"]["requests"] / results["stream"]["requests"], 2),
        "bytes_ratio_polling_to_stream": round(
            results["polling"]["bytes"] / results["stream"]["bytes"], 2),
    }
    benchmark.extra_info.update(report)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "stream-requests.json").write_text(json.dumps(report, indent=2))
    print("\n" + json.dumps(report, indent=2))
