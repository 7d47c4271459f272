"""A small Server-Sent Events reader for the tests, over plain sockets (what a third-party
client does): each event as a dict with `event`, `id`, parsed `data`, and `raw` (its lines as
sent)."""

from __future__ import annotations

import http.client
import json
import time
from urllib.parse import urlparse


class SSEStream:
    def __init__(self, url: str, headers: dict | None = None, timeout: float = 10.0) -> None:
        parsed = urlparse(url)
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port,
                                                     timeout=timeout)
        path = parsed.path + (f"?{parsed.query}" if parsed.query else "")
        self.connection.request("GET", path, headers={"Accept": "text/event-stream",
                                                      **(headers or {})})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.raw: list[str] = []  # every line received, heartbeats included
        self.closed = False

    def body(self) -> dict:
        return json.loads(self.response.read())

    def next_event(self, timeout: float = 10.0) -> dict | None:
        """The next event (comments skipped), or None when the server closed the stream; raises
        TimeoutError after `timeout` seconds without one, heartbeats or not."""
        deadline = time.monotonic() + timeout
        event: dict = {}
        data: list[str] = []
        block: list[str] = []  # the event's lines as sent, comments left out
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no event within {timeout} s")
            self.connection.sock.settimeout(left)
            line = self.response.readline()
            if not line:
                self.closed = True
                return None
            text = line.decode().rstrip("\n")
            self.raw.append(text)
            if text == "":
                if data or "event" in event:
                    event["data"] = json.loads("\n".join(data)) if data else None
                    event.setdefault("event", "message")
                    event["raw"] = "\n".join(block) + "\n\n"
                    return event
                block = []
                continue
            if text.startswith(":"):
                continue
            block.append(text)
            field, _, value = text.partition(":")
            value = value.removeprefix(" ")
            if field == "data":
                data.append(value)
            elif field in ("event", "id", "retry"):
                event[field] = value

    def events_until(self, predicate, timeout: float = 10.0) -> list[dict]:
        """Events until one satisfies `predicate` (included); fails after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no matching event within {timeout} s; saw {seen}"
            event = self.next_event(left)
            assert event is not None, f"stream closed; saw {seen}"
            seen.append(event)
            if predicate(event):
                return seen

    def text(self) -> str:
        return "\n".join(self.raw)

    def close(self) -> None:
        self.connection.close()
