"""The loopback HTTP client of tests/perf/test_request_costs.py, in its own process (asyncio +
aiohttp keep-alive connections), so the server's CPU is all the server's:

    python -m tests.perf.request_load PLAN.json RESULTS.json

`costs` mode: batches of each request kind side by side (floor, move, detail, detail-304, poll,
page, actions), each batch between two readings of the server workers' CPU time
(/proc/<pid>/stat utime + stime); returns the CPU seconds and request count per kind.
`moves` mode: one client per game plays it (GET its choices, POST the first) until the time or
the move budget runs out; returns every POST's latency, and the CPU seconds spent meanwhile by
the server workers, the other processes named in the plan (the Celery worker) and the client
itself. Bounded in count and time; loopback only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from pathlib import Path

import aiohttp
from multidict import CIMultiDict

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def awaited_of(body: dict) -> list[int]:
    """The seats awaited after a move: in the move's own answer, or in the game it carries."""
    if "awaiting_seats" in body:
        return body["awaiting_seats"]
    return body["game"]["awaiting_seats"]


class Game:
    def __init__(self, spec: dict) -> None:
        self.id = spec["id"]
        self.tokens = {int(seat): token for seat, token in spec["tokens"].items()}
        self.sessions = {int(seat): cookie for seat, cookie in spec["sessions"].items()}
        self.version = 0
        self.awaited: list[int] = []
        self.etag = ""
        self.next_move: tuple[str, dict] | None = None

    def auth(self, seat: int) -> dict:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def cookie(self, seat: int) -> dict:
        return {"Cookie": f"sessionid={self.sessions[seat]}"}


async def call(http, method: str, url: str, headers: dict, body=None) -> tuple[int, dict, bytes]:
    async with http.request(method, url, headers=headers, json=body) as response:
        content = await response.read()
        # Header names compare case-insensitively (the ASGI server sends them in lower case).
        return response.status, CIMultiDict(response.headers), content


async def refresh(http, base: str, game: Game) -> None:
    """Version and awaited seats from the game itself (outside every measured batch)."""
    status, headers, content = await call(http, "GET", f"{base}/api/v1/games/{game.id}/",
                                          game.auth(0))
    assert status == 200, (status, content[:300])
    body = json.loads(content)
    game.version, game.awaited = body["version"], body["awaiting_seats"]
    game.etag = headers.get("ETag", "")


async def prepare_move(http, base: str, game: Game) -> None:
    """The first legal action of the awaited seat, to be posted in a measured batch."""
    game.next_move = None
    if not game.awaited:
        return
    seat = game.awaited[0]
    status, _, content = await call(http, "GET", f"{base}/api/v1/games/{game.id}/actions/",
                                    game.auth(seat))
    choices = json.loads(content)
    if status == 200 and choices:
        game.next_move = (game.tokens[seat],
                          {"action": choices[0]["action"], "version": game.version})


def request_of(kind: str, base: str, game: Game, index: int) -> tuple[str, str, dict, dict | None]:
    seat = index % len(game.tokens)
    api = f"{base}/api/v1/games/{game.id}"
    if kind == "floor":
        return "GET", f"{base}/api/v1/engines/", game.auth(seat), None
    if kind == "detail":
        return "GET", f"{api}/", game.auth(0), None
    if kind == "detail-304":
        return "GET", f"{api}/", {**game.auth(0), "If-None-Match": game.etag}, None
    if kind == "poll":
        return "GET", f"{base}/games/{game.id}/version/", game.cookie(seat), None
    if kind == "page":
        return "GET", f"{base}/games/{game.id}/", game.cookie(seat), None
    if kind == "actions":
        return "GET", f"{api}/actions/", game.auth(game.awaited[0] if game.awaited else 0), None
    raise ValueError(kind)


#: A detail sent with the ETag it was just given is not modified (games.api.conditional).
EXPECTED = {"detail-304": (304,)}


async def costs(plan: dict, http, games: list[Game]) -> dict:
    base, pids, batch = plan["base"], plan["worker_pids"], plan["batch"]
    kinds = plan["kinds"]
    spent = {kind: {"cpu_seconds": 0.0, "requests": 0, "not_modified": 0} for kind in kinds}
    limit = asyncio.Semaphore(plan["concurrency"])

    async def one(kind, method, url, headers, body):
        async with limit:
            status, _, content = await call(http, method, url, headers, body)
        assert status in EXPECTED.get(kind, (200,)), (url, status, content[:300])
        spent[kind]["not_modified"] += status == 304

    for _ in range(plan["rounds"]):
        for game in games:
            await refresh(http, base, game)
        for kind in kinds:
            if kind == "move":
                for game in games:
                    await prepare_move(http, base, game)
                moves = [(game, game.next_move) for game in games if game.next_move]
                jobs = [one(kind, "POST", f"{base}/api/v1/games/{game.id}/actions/",
                            {"Authorization": f"Bearer {token}"}, body)
                        for game, (token, body) in moves]
            else:
                if kind == "detail-304":
                    for game in games:
                        await refresh(http, base, game)
                jobs = [one(kind, *request_of(kind, base, games[i % len(games)], i))
                        for i in range(batch)]
            before = cpu_seconds(pids)
            await asyncio.gather(*jobs)
            spent[kind]["cpu_seconds"] += cpu_seconds(pids) - before
            spent[kind]["requests"] += len(jobs)
            if kind == "move":
                for game in games:
                    await refresh(http, base, game)
    return spent


def process_cpu(groups: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of each group of processes (a process gone since counts nothing)."""
    spent = {}
    for name, pids in groups.items():
        spent[name] = 0.0
        for pid in pids:
            with contextlib.suppress(OSError):
                spent[name] += cpu_seconds([pid])
    return spent


async def moves(plan: dict, http, games: list[Game]) -> dict:
    base = plan["base"]
    budget = {"left": plan["max_moves"]}
    post_ms: list[float] = []
    get_ms: list[float] = []
    failures: list[str] = []

    async def play(game: Game) -> None:
        await refresh(http, base, game)
        while game.awaited and time.monotonic() < stop_at and budget["left"] > 0:
            budget["left"] -= 1
            seat = game.awaited[0]
            started = time.perf_counter()
            status, _, content = await call(http, "GET", f"{base}/api/v1/games/{game.id}/actions/",
                                            game.auth(seat))
            get_ms.append((time.perf_counter() - started) * 1000)
            choices = json.loads(content)
            if status != 200 or not choices:
                failures.append(f"GET actions {status}")
                return
            started = time.perf_counter()
            status, _, content = await call(
                http, "POST", f"{base}/api/v1/games/{game.id}/actions/", game.auth(seat),
                {"action": choices[0]["action"], "version": game.version})
            post_ms.append((time.perf_counter() - started) * 1000)
            if status != 200:
                failures.append(f"POST {status} {content[:200]!r}")
                return
            body = json.loads(content)
            game.version, game.awaited = body["version"], awaited_of(body)

    groups = {"server": plan["worker_pids"], **plan.get("other_pids", {})}
    before, client_before = process_cpu(groups), time.process_time()
    started = time.monotonic()
    stop_at = started + plan["seconds"]
    await asyncio.gather(*(play(game) for game in games))
    seconds = time.monotonic() - started
    after = process_cpu(groups)
    cpu = {name: after[name] - before[name] for name in groups}
    cpu["client"] = time.process_time() - client_before
    return {"seconds": seconds, "post_ms": post_ms, "get_ms": get_ms, "failures": failures,
            "cpu_seconds": cpu}


async def main(plan: dict) -> dict:
    games = [Game(spec) for spec in plan["games"]]
    connector = aiohttp.TCPConnector(limit=plan["connections"], force_close=False)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        if plan["mode"] == "costs":
            return await costs(plan, http, games)
        return await moves(plan, http, games)


if __name__ == "__main__":
    plan = json.loads(Path(sys.argv[1]).read_text())
    Path(sys.argv[2]).write_text(json.dumps(asyncio.run(main(plan))))
