"""API clients for the scale-out benchmark: threads that play their seats through the REST API,
spread over several web processes (loopback only), until a move budget or a time limit is spent.
Writes {"moves", "stale", "errors": [...], "post_seconds": [...]} to the results file.

    python -m tests.perf.scale_out_clients <plan.json> <results.json>

plan.json: {"bases": ["http://127.0.0.1:PORT", ...], "seats": [[game_id, token], ...],
            "threads": n, "max_moves": n, "seconds": s}
"""

from __future__ import annotations

import http.client
import json
import random
import sys
import threading
import time
import uuid
from urllib.parse import urlparse


class Client:
    """One keep-alive connection per web process, with a player's token."""

    def __init__(self, bases: list[str]):
        self.connections = [http.client.HTTPConnection(urlparse(base).hostname,
                                                       urlparse(base).port, timeout=60)
                            for base in bases]

    def request(self, method: str, path: str, token: str, body: dict | None = None):
        connection = random.choice(self.connections)  # any web process serves any request
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            # A retry after a dropped connection cannot apply a move twice.
            headers.update({"Content-Type": "application/json",
                            "Idempotency-Key": uuid.uuid4().hex})
        for attempt in range(2):
            try:
                connection.request(method, path, payload, headers)
                response = connection.getresponse()
                data = response.read()
                break
            except (ConnectionError, http.client.RemoteDisconnected):
                # The server closes a keep-alive connection left idle: reconnect, once.
                connection.close()
                if attempt:
                    raise
        return response.status, (json.loads(data) if data else None)


def main(plan_path: str, results_path: str) -> None:
    with open(plan_path) as source:
        plan = json.load(source)
    deadline = time.monotonic() + plan["seconds"]
    lock = threading.Lock()
    results = {"moves": 0, "stale": 0, "errors": [], "post_seconds": []}

    def budget_left() -> bool:
        with lock:
            return results["moves"] < plan["max_moves"] and time.monotonic() < deadline

    def play(seats: list[list]) -> None:
        client = Client(plan["bases"])
        idle_rounds = 0
        while budget_left() and idle_rounds < 200:
            moved = False
            for game_id, token in seats:
                if not budget_left():
                    return
                try:
                    moved |= one_move(client, game_id, token)
                except Exception as error:  # recorded: the benchmark asserts there are none
                    with lock:
                        results["errors"].append(f"{game_id}: {type(error).__name__}: {error}")
            idle_rounds = 0 if moved else idle_rounds + 1
            if not moved:
                time.sleep(0.2)  # waiting for a resolution or for the other players

    def one_move(client: Client, game_id: int, token: str) -> bool:
        status, actions = client.request("GET", f"/api/v1/games/{game_id}/actions/", token)
        if status != 200:
            raise RuntimeError(f"GET actions answered {status}: {actions}")
        if not actions:
            return False
        status, game = client.request("GET", f"/api/v1/games/{game_id}/", token)
        if status != 200:
            raise RuntimeError(f"GET game answered {status}")
        choice = random.choice(actions)["action"]
        started = time.perf_counter()
        status, body = client.request("POST", f"/api/v1/games/{game_id}/actions/", token,
                                      {"action": choice, "version": game["version"]})
        elapsed = time.perf_counter() - started
        with lock:
            if status == 200:
                results["moves"] += 1
                results["post_seconds"].append(elapsed)
            elif status in (409, 422):  # another seat moved first: legal, try again
                results["stale"] += 1
            else:
                results["errors"].append(f"{game_id}: POST answered {status}: {body}")
        return status == 200

    seats = plan["seats"]
    threads = [threading.Thread(target=play, args=(seats[index::plan["threads"]],))
               for index in range(plan["threads"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(results_path, "w") as out:
        json.dump(results, out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
