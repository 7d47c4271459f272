"""Who is looking at a game: the game page (its load and its poll) and the game's event stream
note each look in the shared cache; notifications read them to hold back a turn email from a
player who already sees the game (notifications/policy.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.core.cache import cache

#: A page polls every 4 s (30 s when hidden) and a stream's heartbeat comes every 15 s
#: (STREAM_HEARTBEAT_SECONDS): a game last looked at within this is open now.
OPEN_SECONDS = 60
#: How long a look is kept at all: longer than any grace period a player may choose. The moment
#: is stored as the value and compared with the caller's clock; this only tidies the cache.
KEPT_SECONDS = 3 * 60 * 60


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{user_id}:{game_id}"


def look_note(*, user_id: int | None, game_id: int, now: datetime) -> None:
    """The player sees the game now (a Redis outage only costs the note: the cache fails open)."""
    if user_id is not None:
        cache.set(_key(user_id, game_id), now.timestamp(), timeout=KEPT_SECONDS)


async def alook_note(*, user_id: int | None, game_id: int, now: datetime) -> None:
    """look_note for an event stream's loop."""
    if user_id is not None:
        await cache.aset(_key(user_id, game_id), now.timestamp(), timeout=KEPT_SECONDS)


def last_look(*, user_id: int, game_id: int) -> datetime | None:
    moment = cache.get(_key(user_id, game_id))
    return datetime.fromtimestamp(moment, UTC) if moment is not None else None


def is_open(*, user_id: int, game_id: int, now: datetime) -> bool:
    """The game's page or stream is open now (it looked within OPEN_SECONDS)."""
    seen = last_look(user_id=user_id, game_id=game_id)
    return seen is not None and (now - seen).total_seconds() <= OPEN_SECONDS
