"""The listening side of the live-event bus, for the event streams (games/api/streams.py).

One `Hub` per event loop (one per ASGI worker process) holds a single Redis connection
subscribed to every channel under EVENTS_CHANNEL_PREFIX and hands each message to the streams
of that game or player in this process through in-memory queues, so thousands of open streams
cost one Redis connection. Without REDIS_URL (the embedded defaults of `make run`) the hub reads
new log entries and notifications from the database instead, every STREAM_POLL_SECONDS: all
streams are served by the one web process then.

What a message says is looked up once per process (`Hub.game_facts`), then each stream picks
what its own viewer may see.

The hub also ends streams whose access ended: each stream registers what let it in, and every
STREAM_ACCESS_CHECK_SECONDS the hub asks ACCESS_CHECK (games/api/stream_access.py) about all of
them in one batch of queries, and closes those that lost it. It keeps the process's stream
leases (games/live/leases.py: how many streams a player and an address hold) alive.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import weakref
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections

from games.live import bus
from games.live.leases import LEASE_RENEW_SECONDS, Leases

logger = logging.getLogger(__name__)

#: A stream that falls this far behind is closed (the client reconnects with Last-Event-ID and
#: catches up from the log) rather than buffering without bound.
QUEUE_LIMIT = 256
#: Facts of recent log entries kept per process (each is read once for all its streams).
FACTS_CACHE_SIZE = 2048
_ENTRY_FIELDS = ("sequence", "seat_number", "payload", "public_text", "actor_text",
                 "status_after", "awaiting_after")


@dataclass(frozen=True)
class LogEntry:
    """One log entry as the streams need it: its texts, read back from the row (which is not
    kept: its payload may hold a secret); `text_for` picks the one its viewer may see."""

    sequence: int
    seat_number: int | None
    public_text: dict
    actor_text: dict | None = None
    #: The game's status and awaited seats right after this entry (None: not kept, an entry
    #: older than that column), so that its event reads the same live and resumed.
    status_after: str | None = None
    awaiting_after: tuple[int, ...] | None = None

    @classmethod
    def from_row(cls, sequence: int, seat_number: int | None, payload, public_text: str,
                 actor_text: str | None, status_after: str = "",
                 awaiting_after: list[int] | None = None) -> LogEntry:
        from games.models import Action

        row = Action(sequence=sequence, seat_number=seat_number, payload=payload,
                     public_text=public_text, actor_text=actor_text)
        kept = awaiting_after is not None
        return cls(sequence=sequence, seat_number=seat_number, public_text=row.text_for(None),
                   actor_text=row.text_for(seat_number) if row.hides_something else None,
                   status_after=status_after if kept else None,
                   awaiting_after=tuple(awaiting_after) if kept else None)

    def text_for(self, seat_number: int | None) -> dict:
        if seat_number is not None and seat_number == self.seat_number and self.actor_text:
            return self.actor_text
        return self.public_text


@dataclass(frozen=True)
class GameFacts:
    """A game as it stands after a change: what every viewer may know (no state, no view)."""

    game_id: int
    version: int
    status: str
    awaiting: tuple[int, ...]
    seats_taken: int
    entry: LogEntry | None
    engine: str = ""
    #: The event as sent to each viewer seat, made once for all the streams of that seat.
    rendered: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.status in ("finished", "aborted")


#: Log entries read at once when a message arrives: a move that ends a round writes a dozen
#: (each placement resolved, feeding, the new round), each with its own message; the first
#: message reads them all, so the others find them cached.
ENTRIES_PER_READ = 64


def load_game_facts(game_id: int, sequence: int | None = None) -> list[GameFacts]:
    """The game's status now, with log entry `sequence` and the entries after it (up to
    ENTRIES_PER_READ), one GameFacts each; without `sequence` the status alone (one item).
    Empty if the game or that entry is gone. One query (the game joined to its seats and those
    entries), as it runs for the messages of every move in each worker."""
    from django.db.models import FilteredRelation, Q

    from games.models import Game

    games = Game.objects.filter(pk=game_id).order_by()
    columns = ["version", "status", "seats__id", "seats__number", "seats__deadline_at", "engine"]
    if sequence is not None:
        games = games.annotate(entry=FilteredRelation("actions", condition=Q(
            actions__sequence__gte=sequence,
            actions__sequence__lt=sequence + ENTRIES_PER_READ)))
        columns += [f"entry__{field}" for field in _ENTRY_FIELDS]
    rows = list(games.values_list(*columns))
    if not rows:
        return []
    version, status = rows[0][:2]
    seats = {row[2]: row[3:5] for row in rows if row[2] is not None}
    common = {"game_id": game_id, "version": version, "status": status,
              "awaiting": tuple(sorted(number for number, deadline in seats.values()
                                       if deadline is not None)),
              "seats_taken": len(seats), "engine": rows[0][5]}
    if sequence is None:
        return [GameFacts(**common, entry=None)]
    entries: dict[int, LogEntry] = {}
    for row in rows:  # each entry comes once per seat
        if row[6] is not None and row[6] not in entries:
            entries[row[6]] = LogEntry.from_row(*row[6:6 + len(_ENTRY_FIELDS)])
    if sequence not in entries:
        return []
    return [GameFacts(**common, entry=entries[number]) for number in sorted(entries)]


def load_log_entries(game_id: int, after: int, limit: int = 1000) -> list[LogEntry]:
    from games.models import Action

    return [LogEntry.from_row(**row) for row in
            Action.objects.filter(game_id=game_id, sequence__gt=after).order_by("sequence")
            .values(*_ENTRY_FIELDS)[:limit]]


#: How often a worker thread lets the next query check its database connection (a round trip:
#: CONN_HEALTH_CHECKS) and drops it past CONN_MAX_AGE; not at every call, as the facts of every
#: move are read through here.
CONNECTION_CHECK_SECONDS = 5.0
_thread_state = threading.local()


def db_call(function):
    """Runs ORM code off the event loop, in a worker thread whose connection is checked every
    CONNECTION_CHECK_SECONDS and dropped after an error (the streams live for hours;
    CONN_MAX_AGE still applies)."""

    def call(*args, **kwargs):
        now = time.monotonic()
        if now - getattr(_thread_state, "checked_at", -CONNECTION_CHECK_SECONDS) \
                >= CONNECTION_CHECK_SECONDS:
            close_old_connections()
            _thread_state.checked_at = now
        try:
            return function(*args, **kwargs)
        except DatabaseError:
            close_old_connections()  # a broken connection is closed, not handed to the next call
            raise

    return sync_to_async(call, thread_sensitive=False)


#: `check(accesses) -> {index: reason}`: which of the open streams' accesses (what each stream
#: registered with `Hub.subscribe`) were lost, and why; set by games/api/stream_access.py.
ACCESS_CHECK = None


class Hub:
    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self._task: asyncio.Task | None = None
        self._heartbeats: asyncio.Task | None = None
        self._guard: asyncio.Task | None = None
        self._facts: OrderedDict[tuple[int, int | None], asyncio.Future] = OrderedDict()
        #: Each open stream's key and what let it in, checked every STREAM_ACCESS_CHECK_SECONDS.
        self._access: dict[asyncio.Queue, tuple[str, object]] = {}
        self.leases = Leases()

    # ---- streams register here ----

    def subscribe(self, key: str, access=None) -> asyncio.Queue:
        """A queue of the messages for `key`; with `access`, the stream is closed (a
        `{"closed": reason}` message) when ACCESS_CHECK finds that access lost."""
        self._ensure_listening()
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_LIMIT)
        self._queues[key].add(queue)
        if access is not None:
            self._access[queue] = (key, access)
        return queue

    def unsubscribe(self, key: str, queue: asyncio.Queue) -> None:
        self._access.pop(queue, None)
        queues = self._queues.get(key)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self._queues[key]

    def close_stream(self, queue: asyncio.Queue, reason: str) -> None:
        """Tells the stream to close, ahead of anything still queued (none of which its viewer
        may get any more), and sends it nothing further."""
        key, _ = self._access.get(queue, (None, None))
        if key is not None:
            self.unsubscribe(key, queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait({"closed": reason})

    @property
    def stream_count(self) -> int:
        return sum(len(queues) for queues in self._queues.values())

    def dispatch(self, key: str, message: dict) -> None:
        for queue in list(self._queues.get(key, ())):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                # Wakes the stream with a marker it answers by closing (see streams.py).
                queue.get_nowait()
                queue.put_nowait({"overflow": True})

    async def game_facts(self, game_id: int, sequence: int | None) -> GameFacts | None:
        """Facts for one change, read from the database once for all streams of this process,
        together with the entries after it (their messages follow). Status-only changes (no
        sequence) are not cached: they are rare and must be fresh."""
        if sequence is None:
            found = await db_call(load_game_facts)(game_id, None)
            return found[0] if found else None
        key = (game_id, sequence)
        future = self._facts.get(key)
        if future is None:
            loop = asyncio.get_running_loop()
            future = self._remember(key, loop.create_future())
            try:
                found = await db_call(load_game_facts)(game_id, sequence)
            except Exception as error:
                self._facts.pop(key, None)
                future.set_exception(error)
                future.exception()  # retrieved here, so asyncio does not warn if none awaits
                raise
            future.set_result(found[0] if found else None)
            for later in found[1:]:
                later_key = (game_id, later.entry.sequence)
                if later_key not in self._facts:
                    self._remember(later_key, loop.create_future()).set_result(later)
        return await asyncio.shield(future)

    def _remember(self, key: tuple[int, int], future: asyncio.Future) -> asyncio.Future:
        self._facts[key] = future
        while len(self._facts) > FACTS_CACHE_SIZE:
            self._facts.popitem(last=False)
        return future

    # ---- where messages come from ----

    def _ensure_listening(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done():
            listen = self._listen_redis if settings.REDIS_URL else self._poll_database
            self._task = loop.create_task(listen())
        if self._heartbeats is None or self._heartbeats.done():
            self._heartbeats = loop.create_task(self._beat())
        if self._guard is None or self._guard.done():
            self._guard = loop.create_task(self._check_access())

    async def _check_access(self) -> None:
        """One timer for all streams of the process: every STREAM_ACCESS_CHECK_SECONDS the
        accesses of all open streams are checked in one batch (a few queries, not one per
        stream), and the streams that lost theirs are closed; every LEASE_RENEW_SECONDS the
        process's stream leases are renewed."""
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(settings.STREAM_ACCESS_CHECK_SECONDS)
            watched = list(self._access.items())
            if watched and ACCESS_CHECK is not None:
                try:
                    lost = await db_call(ACCESS_CHECK)([access for _, (_, access) in watched])
                except Exception:
                    logger.warning("Live events: checking the streams' access failed; retrying",
                                   exc_info=True)
                    lost = {}
                for index, reason in lost.items():
                    self.close_stream(watched[index][0], reason)
            if time.monotonic() - renewed >= LEASE_RENEW_SECONDS:
                renewed = time.monotonic()
                try:
                    await self.leases.renew()
                except Exception:
                    logger.warning("Live events: renewing the stream leases failed",
                                   exc_info=True)

    async def _beat(self) -> None:
        """One timer for all streams of the process: every STREAM_HEARTBEAT_SECONDS each stream
        is woken to send a comment line (a stream with events waiting needs none)."""
        while True:
            await asyncio.sleep(settings.STREAM_HEARTBEAT_SECONDS)
            for queues in list(self._queues.values()):
                for queue in list(queues):
                    if queue.empty():
                        queue.put_nowait(None)

    async def _listen_redis(self) -> None:
        import redis.asyncio as aioredis

        prefix = f"{settings.EVENTS_CHANNEL_PREFIX}:"
        pause = 0.5
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(bus.channel_pattern())
                    pause = 0.5
                    async for message in pubsub.listen():
                        if message["type"] != "pmessage":
                            continue
                        channel = message["channel"].decode()
                        try:
                            body = json.loads(message["data"])
                        except ValueError:
                            continue
                        self.dispatch(channel.removeprefix(prefix), body)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("Live events: Redis subscription lost; retrying", exc_info=True)
                # Streams learn of anything missed at their next event or reconnection.
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10)
            finally:
                await client.aclose()

    async def _poll_database(self) -> None:
        """The relay for a single process without Redis: each registered source (new log
        entries here, new notifications in notifications/streams.py) is read in turn."""
        cursors = [(await db_call(source)(None))[1] for source in POLL_SOURCES]
        while True:
            await asyncio.sleep(settings.STREAM_POLL_SECONDS)
            for index, source in enumerate(POLL_SOURCES):
                try:
                    messages, cursors[index] = await db_call(source)(cursors[index])
                except Exception:
                    logger.warning("Live events: reading changes failed; retrying",
                                   exc_info=True)
                    continue
                for key, body in messages:
                    self.dispatch(key, body)
            # Status changes without a log entry (joins, start, abort): each watched game looks
            # again; its streams send only what changed.
            for key in list(self._queues):
                if key.startswith("game:"):
                    self.dispatch(key, {"game": int(key.split(":", 1)[1]), "version": None,
                                        "action": None})


def _new_log_entries(after: int | None) -> tuple[list, int]:
    from games.models import Action

    if after is None:
        return [], Action.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    rows = list(Action.objects.filter(pk__gt=after).order_by("pk")
                .values_list("game_id", "sequence", "pk")[:5000])
    messages = [(f"game:{game_id}", {"game": game_id, "version": sequence, "action": pk})
                for game_id, sequence, pk in rows]
    return messages, rows[-1][2] if rows else after


#: Where the database relay looks for changes: callables `source(after)` returning
#: `(messages, cursor)`, called with None first for the starting cursor.
POLL_SOURCES = [_new_log_entries]


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """This event loop's hub (an ASGI worker runs one loop for all its requests)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found
