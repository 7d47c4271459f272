"""`GET /api/v1/stream/events`: one player's notices as Server-Sent Events, carrying what the
player's notification list shows, nothing more."""

# Their turn, a game started or finished, an invitation, a mention in a chat, reminders,
# timeouts, moderators' messages. Each event's `id` is the notification's id; `Last-Event-ID`
# replays what came after it.

from __future__ import annotations

from collections.abc import AsyncIterator

from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games.api.stream_access import StreamAccess
from games.api.streams import (
    HEARTBEAT,
    RECONNECT_MILLISECONDS,
    StreamRefused,
    closed_event,
    event_stream,
    last_event_id,
    next_message,
    sse,
    stream_lease,
    stream_viewer,
)
from games.live import hub as live
from games.live.leases import Lease
from notifications.models import Notification
from notifications.rendering import notice

#: A reconnecting client gets at most this many missed notices (the newest are kept by the
#: notification list and the API).
REPLAY_LIMIT = 500


def _notices(user_id: int, after: int, limit: int = REPLAY_LIMIT) -> list[dict]:
    rows = (Notification.objects.filter(user_id=user_id, pk__gt=after).select_related("game")
            .order_by("pk")[:limit])
    return [notice(row) for row in rows]


def _latest_id(user_id: int) -> int:
    return (Notification.objects.filter(user_id=user_id).order_by("-pk")
            .values_list("pk", flat=True).first() or 0)


async def _user_events(user_id: int, last: int | None, access: StreamAccess,
                       lease: Lease) -> AsyncIterator[str]:
    hub = live.hub()
    key = f"user:{user_id}"
    queue = hub.subscribe(key, access)
    try:
        yield f"retry: {RECONNECT_MILLISECONDS}\n\n"
        if last is None:
            last = await live.db_call(_latest_id)(user_id)
            yield sse({"user": user_id, "last_id": last}, "hello")
        while True:
            for item in await live.db_call(_notices)(user_id, last):
                yield sse(item, item["kind"], item["id"])
                last = item["id"]
            message = await next_message(queue)
            while message is None:
                yield HEARTBEAT
                message = await next_message(queue)
            # Messages only wake the stream; the database says what is new. Those already
            # queued are covered by the same read.
            while not queue.empty() and not message.get("closed"):
                message = queue.get_nowait() or {}
                if message.get("overflow"):
                    break
            if message.get("closed"):
                yield closed_event(message)
                return
            if message.get("overflow"):
                return
    finally:
        hub.unsubscribe(key, queue)
        hub.leases.release(lease)


@require_GET
async def user_stream(request: HttpRequest):
    """Events named after the notification kind (`your_turn`, `game_started`, `game_finished`,
    `invitation`, `mention`, …), first a `hello` unless resuming."""
    # Served without LocaleMiddleware: a refusal reads in the language the request asks for.
    with translation.override(translation.get_language_from_request(request)):
        try:
            user, access = await stream_viewer(request)
            if not user.is_authenticated:
                raise StreamRefused(401, "not_authenticated", gettext(
                    "Sign in, or send an API token: Authorization: Bearer <token>."))
            last = last_event_id(request)
            lease = await stream_lease(request, user)
        except StreamRefused as refused:
            return refused.response()
    return event_stream(_user_events(user.pk, last, access, lease), lease)


def _new_notifications(after: int | None) -> tuple[list, int]:
    """The database relay's source for player streams (games/live.py), without Redis."""
    if after is None:
        return [], Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    rows = list(Notification.objects.filter(pk__gt=after).order_by("pk")
                .values_list("user_id", "pk")[:5000])
    return ([(f"user:{user_id}", {"user": user_id, "notification": pk}) for user_id, pk in rows],
            rows[-1][1] if rows else after)


if _new_notifications not in live.POLL_SOURCES:
    live.POLL_SOURCES.append(_new_notifications)
