"""Load client for the stream capacity benchmark: opens many event streams over loopback from
one asyncio process and records when each move event arrives.

    python -m tests.perf.sse_load <base_url> <games.json> <streams_per_game> <results.json>

Prints "READY <open streams>" once every stream has its snapshot, "ARRIVED <move events>" on
each SIGUSR1 (so the test can wait for late ones); on SIGTERM writes
{"open": n, "closed": n, "failed": n, "arrivals": [[game, version, unix_time], ...]} and exits.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from urllib.parse import urlparse

OPEN_AT_ONCE = 100  # connections being opened concurrently (a ramp, not a stampede)


class Load:
    def __init__(self, base: str) -> None:
        parsed = urlparse(base)
        self.host, self.port = parsed.hostname, parsed.port
        self.arrivals: list[tuple[int, int, float]] = []
        self.open = self.closed = self.failed = 0
        self.ready = asyncio.Event()
        self.expected = 0

    async def stream(self, game_id: int, gate: asyncio.Semaphore) -> None:
        async with gate:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port, limit=2**20)
                writer.write(f"GET /api/v1/games/{game_id}/stream HTTP/1.1\r\n"
                             f"Host: {self.host}:{self.port}\r\nAccept: text/event-stream\r\n"
                             f"\r\n".encode())
                await writer.drain()
                status = await reader.readline()
                if b" 200 " not in status:
                    raise ConnectionError(status)
                while (await reader.readline()) not in (b"\r\n", b""):
                    pass
                # The snapshot comes first; the stream counts as held once it is here.
                while not (await reader.readline()).startswith(b"event: snapshot"):
                    pass
            except (OSError, ConnectionError):
                self.failed += 1
                self._check_ready()
                return
        self.open += 1
        self._check_ready()
        version = None
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"id: "):
                    version = int(line[4:])
                elif line.startswith(b"event: move") and version is not None:
                    self.arrivals.append((game_id, version, time.time()))
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self.open -= 1
            self.closed += 1
            writer.close()

    def _check_ready(self) -> None:
        if self.open + self.failed >= self.expected:
            self.ready.set()


async def main(base: str, games_path: str, per_game: int, results_path: str) -> None:
    load = Load(base)
    with open(games_path) as source:
        games = json.load(source)
    load.expected = len(games) * per_game
    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    tasks = [asyncio.create_task(load.stream(game_id, gate))
             for _ in range(per_game) for game_id in games]
    await load.ready.wait()
    print(f"READY {load.open} failed {load.failed}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGUSR1,
                            lambda: print(f"ARRIVED {len(load.arrivals)}", flush=True))
    await stop.wait()
    held = load.open
    for task in tasks:
        task.cancel()
    with open(results_path, "w") as out:
        json.dump({"open": held, "failed": load.failed, "arrivals": load.arrivals}, out)


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]))
