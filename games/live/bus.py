"""The live-event bus: after a change commits, one small message on Redis pub/sub says which
game (or which player's notices) changed, and nothing else.

Messages carry ids only: game id, version, log entry id; user id, notification id. Whoever
listens (event streams, the game page) reads the rest from the database through the same
`view`/`describe` rules as the pages, for the one viewer it serves, so no hidden information is
ever put on the bus. Channels ignore Redis database numbers, so every channel name starts with
EVENTS_CHANNEL_PREFIX. Without REDIS_URL nothing is published: the listener in games/live.py
then reads new log entries and notifications from the database instead.
"""

from __future__ import annotations

import functools
import json
import logging

import redis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

def game_channel(game_id: int) -> str:
    return f"{settings.EVENTS_CHANNEL_PREFIX}:game:{game_id}"


def user_channel(user_id: int) -> str:
    return f"{settings.EVENTS_CHANNEL_PREFIX}:user:{user_id}"


def channel_pattern() -> str:
    return f"{settings.EVENTS_CHANNEL_PREFIX}:*"


@functools.cache
def _client(url: str) -> redis.Redis:
    # One connection pool per process (redis-py's pools are thread-safe).
    return redis.Redis.from_url(url, socket_connect_timeout=settings.EVENTS_PUBLISH_TIMEOUT,
                                socket_timeout=settings.EVENTS_PUBLISH_TIMEOUT)


def _redis() -> redis.Redis | None:
    return _client(settings.REDIS_URL) if settings.REDIS_URL else None


def publish(channel: str, message: dict) -> None:
    """Publishes now. A Redis outage is logged, never raised: the change is committed, and a
    stream that missed the message catches up from the action log at the next one (or when the
    client reconnects with Last-Event-ID)."""
    client = _redis()
    if client is None:
        return
    try:
        client.publish(channel, json.dumps(message, separators=(",", ":")))
    except (redis.RedisError, OSError):
        logger.warning("Could not publish a live event on %s", channel, exc_info=True)


def publish_many(messages: list[tuple[str, dict]]) -> None:
    """Publishes these (channel, message) pairs now, in one round trip to Redis; an outage is
    logged, never raised, as in `publish`."""
    client = _redis()
    if client is None or not messages:
        return
    try:
        with client.pipeline(transaction=False) as pipeline:
            for channel, message in messages:
                pipeline.publish(channel, json.dumps(message, separators=(",", ":")))
            pipeline.execute()
    except (redis.RedisError, OSError):
        logger.warning("Could not publish %s live events", len(messages), exc_info=True)


def publish_game_after_commit(game_id: int, version: int | None = None,
                              action_id: int | None = None) -> None:
    """A game changed: a new log entry (`version`, `action_id`), or its status or seats
    (neither)."""
    transaction.on_commit(lambda: publish(
        game_channel(game_id), {"game": game_id, "version": version, "action": action_id}))


def publish_games_after_commit(entries: list[tuple[int, int, int]]) -> None:
    """New log entries (game id, version, entry id) of several games, e.g. a deadline sweep's
    batch: one message each, all sent in one round trip."""
    messages = [(game_channel(game_id), {"game": game_id, "version": version, "action": action})
                for game_id, version, action in entries]
    transaction.on_commit(lambda: publish_many(messages))


def publish_user_after_commit(user_id: int, notification_id: int) -> None:
    """A player has a new notice (their turn, a game started or finished, an invitation...)."""
    transaction.on_commit(lambda: publish(
        user_channel(user_id), {"user": user_id, "notification": notification_id}))


def publish_users_after_commit(notices: list[tuple[int, int]]) -> None:
    """Several new notices (user id, notification id), sent in one round trip."""
    if len(notices) == 1:
        publish_user_after_commit(*notices[0])
        return
    messages = [(user_channel(user_id), {"user": user_id, "notification": notification_id})
                for user_id, notification_id in notices]
    transaction.on_commit(lambda: publish_many(messages))
