"""Server-Sent Events: `GET /api/v1/games/{id}/stream` (every change of one game, as the viewer
may see it), and the helpers the per-player stream (notifications/streams.py) shares.

These are Django async views returning a StreamingHttpResponse over an async generator, served
by uvicorn workers (config/gunicorn.py); they hold no database connection while waiting. Events
carry an `id`; a client that reconnects with `Last-Event-ID` (browsers do it by themselves) gets
everything after it from the database, so nothing is lost across a disconnect.

A stream ends when what let it in ends (games/api/stream_access.py: a `closed` event, then the
end), and a player and an address hold only so many at once (games/live/leases.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import weakref
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from rest_framework import exceptions
from rest_framework.throttling import BaseThrottle

from accounts.api.authentication import TokenOrBearerAuthentication
from accounts.models import Sanction, restriction_message
from accounts.tokens import has_scope
from games.api.errors import error_body
from games.api.stream_access import StreamAccess, access_of
from games.live import hub as live
from games.live import presence
from games.live.leases import Lease
from games.presentation.texts import message_text

#: Browsers wait this long before reconnecting a dropped stream.
RECONNECT_MILLISECONDS = 3000
#: A client refused for holding too many streams is asked to wait this long.
TOO_MANY_STREAMS_RETRY_SECONDS = 30


class StreamRefused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JsonResponse:
        response = JsonResponse(error_body(self.code, self.message), status=self.status)
        if self.status == 401:
            response["WWW-Authenticate"] = 'Bearer realm="api"'
        if self.status == 429:
            response["Retry-After"] = str(TOO_MANY_STREAMS_RETRY_SECONDS)
        return response


def _token_user(request: HttpRequest):
    """The token's user and the token, or (None, None) without a token header."""
    try:
        found = TokenOrBearerAuthentication().authenticate(request)
    except exceptions.AuthenticationFailed as failure:
        raise StreamRefused(401, "authentication_failed", str(failure.detail)) from None
    if found and not has_scope(found[1], "read"):
        raise StreamRefused(403, "insufficient_scope",
                            gettext("This token lacks the 'read' scope a stream needs."))
    return found or (None, None)


async def stream_viewer(request: HttpRequest):
    """The caller, by API token (`Authorization: Bearer …`) or by the session cookie, and the
    StreamAccess that keeps their stream open. Under a WSGI server a stream would never reach
    the client (it is buffered whole): refused there, so that clients (the game page) fall back
    to polling. A banned player opens none (an open one is closed, stream_access.py)."""
    if not isinstance(request, ASGIRequest):
        raise StreamRefused(503, "streams_unavailable",
                            gettext("Event streams need the ASGI server; poll the game "
                                    "instead."))
    # Served without middleware (config/asgi.py): the host is checked here, and the session
    # read here, as SessionMiddleware and AuthenticationMiddleware would.
    request.get_host()
    return await live.db_call(_token_or_session_viewer)(request)


def _token_or_session_viewer(request: HttpRequest) -> tuple[object, StreamAccess]:
    user, token = _token_user(request)
    if user is None:
        if not hasattr(request, "session"):
            from importlib import import_module

            engine = import_module(settings.SESSION_ENGINE)
            request.session = engine.SessionStore(
                request.COOKIES.get(settings.SESSION_COOKIE_NAME))
        from django.contrib.auth import get_user

        user = get_user(request)
    # Whose budget the answer's rate-limit headers tell (config.asgi, as AuthenticationMiddleware
    # gives it to RateLimitHeadersMiddleware elsewhere).
    request.user = user
    if user.is_authenticated and (ban := Sanction.objects.bans_in_force().filter(
            user=user).first()):
        raise StreamRefused(403, "account_banned", restriction_message(ban))
    return user, access_of(request, user, token)


async def stream_lease(request: HttpRequest, user) -> Lease:
    """One of the streams the caller may hold at once (STREAM_MAX_PER_USER, and
    STREAM_MAX_PER_ADDRESS for their address as the throttles see it, behind NUM_PROXIES)."""
    address = BaseThrottle().get_ident(request)
    user_id = user.pk if user.is_authenticated else None
    lease = await live.hub().leases.acquire(user_id, address)
    if lease is None:
        raise StreamRefused(429, "too_many_streams", gettext(
            "Too many event streams are open for this account or address; close one, or try "
            "again later."))
    return lease


def last_event_id(request: HttpRequest) -> int | None:
    """`Last-Event-ID` (sent by browsers when they reconnect), or `?last_event_id=` for clients
    that cannot set headers."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    if raw in (None, ""):
        return None
    try:
        value = int(raw)
    except ValueError:
        raise StreamRefused(400, "invalid",
                            gettext("Last-Event-ID must be a whole number.")) from None
    if value < 0:
        raise StreamRefused(400, "invalid", gettext("Last-Event-ID must not be negative."))
    return value


def sse(data: Any, event: str | None = None, event_id: int | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + "\n\n"


HEARTBEAT = ": heartbeat\n\n"


async def next_message(queue: asyncio.Queue) -> dict | None:
    """The next bus message, or None when a heartbeat is due (the hub wakes every stream of
    its process every STREAM_HEARTBEAT_SECONDS: one timer, not one per stream). A message
    with `closed` ends the stream: its access ended (see `closed_event`)."""
    return await queue.get()


def closed_event(message: dict) -> str:
    """The last event of a stream whose access ended: why (`token_revoked`, `token_expired`,
    `signed_out`, `password_changed`, `account_banned`, `account_inactive`, `not_visible`,
    `seat_changed`)."""
    return sse({"reason": message["closed"]}, "closed")


def event_stream(events: AsyncIterator[str], lease: Lease) -> StreamingHttpResponse:
    """The response of a stream; its lease is given back when the stream ends (`events`
    does it in its `finally`) or, failing that, when the response is dropped (a client gone
    before the first event: the generator never ran)."""
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    response["X-Content-Type-Options"] = "nosniff"
    weakref.finalize(response, live.hub().leases.release, lease)
    return response


# ---- one game -----------------------------------------------------------------------------------


def _game_start(game_id: int, user) -> dict:
    """What the stream needs before it starts: the viewer's seat and the snapshot, read in one
    snapshot of the database (version, awaited seats and view of one version). Refused exactly
    as the game page and the API refuse (a game the user may not see is not found)."""
    from games import selectors

    with selectors.snapshot():
        game = selectors.game_with_seats(game_id)
        access = selectors.game_access(user, game) if game is not None else None
        if access is None or not access.may_view:
            raise StreamRefused(404, "not_found", gettext("There is no such game."))
        return {
            "seat": access.seat_number,
            "snapshot": {
                "game": game.pk, "version": game.version, "status": game.status,
                "awaiting": selectors.awaiting_seats(game), "seat": access.seat_number,
                "seats_taken": len(game.seats.all()),
                "view": selectors.game_view_for(game, user),
            },
        }


def _seen_after(facts: live.GameFacts, entry: live.LogEntry | None) -> tuple[str, tuple]:
    """The status and awaited seats a `move` event tells: the game's right after its log entry
    (the same whenever the event is sent: live, or resumed by Last-Event-ID), or the game's now
    for a `status` event and for entries logged before the log kept them."""
    if entry is not None and entry.awaiting_after is not None:
        return entry.status_after, entry.awaiting_after
    return facts.status, facts.awaiting


def _change(facts: live.GameFacts, entry: live.LogEntry | None, seat: int | None) -> dict:
    status, awaiting = _seen_after(facts, entry)
    change = {"game": facts.game_id, "version": entry.sequence if entry else facts.version,
              "status": status, "awaiting": list(awaiting),
              "your_turn": seat is not None and seat in awaiting}
    if entry is not None:
        message = entry.text_for(seat)
        change["log"] = {"sequence": entry.sequence, "seat": entry.seat_number,
                         "text": message_text(facts.engine, message, language="en"),
                         "message": message}
    return change


async def _game_events(game_id: int, seat: int | None, snapshot: dict, last: int | None,
                       access: StreamAccess, lease: Lease) -> AsyncIterator[str]:
    hub = live.hub()
    key = f"game:{game_id}"
    # Listening starts before the database is read, so no change falls between the two.
    queue = hub.subscribe(key, access)
    shown = (snapshot["status"], tuple(snapshot["awaiting"]), snapshot["seats_taken"])
    first = sse(snapshot, "snapshot", snapshot["version"]) if last is None else ""
    if last is None:
        last = snapshot["version"]
    del snapshot  # the view is large; an open stream keeps only what it compares
    player = access.user_id if seat is not None else None
    try:
        yield f"retry: {RECONNECT_MILLISECONDS}\n\n" + first
        del first
        facts = await hub.game_facts(game_id, None)
        # True after an event from the bus: the game may already be further on (a move with
        # several log entries), but their messages are on their way, each rendered once per
        # process; reading the log here would be a query for every stream.
        from_bus = False
        while facts is not None:
            if not from_bus and facts.version > last:  # resuming, or a missed message
                entry = None
                for entry in await live.db_call(live.load_log_entries)(game_id, last):
                    yield sse(_change(facts, entry, seat), "move", entry.sequence)
                    last = entry.sequence
                # What the client saw last: a `status` event follows if the game changed since.
                shown = (*_seen_after(facts, entry), facts.seats_taken)
            if not from_bus and (facts.status, facts.awaiting, facts.seats_taken) != shown:
                shown = (facts.status, facts.awaiting, facts.seats_taken)
                yield sse({**_change(facts, None, seat), "seats_taken": facts.seats_taken},
                          "status")
            if facts.over and last >= facts.version:
                yield sse({"game": game_id, "status": facts.status}, "end")
                return
            # A player's open stream is a look at the game (no turn email while it is open).
            await presence.alook_note(user_id=player, game_id=game_id, now=timezone.now())
            message = await next_message(queue)
            while message is None:
                yield HEARTBEAT
                await presence.alook_note(user_id=player, game_id=game_id, now=timezone.now())
                message = await next_message(queue)
            if message.get("closed"):
                yield closed_event(message)
                return
            if message.get("overflow"):
                return  # too far behind: the client reconnects with Last-Event-ID
            version = message.get("version")
            if version is not None and version <= last:
                continue
            if version == last + 1:
                facts = await hub.game_facts(game_id, version)
                if facts is not None and facts.entry is not None:
                    event = facts.rendered.get(seat)
                    if event is None:
                        event = facts.rendered[seat] = sse(_change(facts, facts.entry, seat),
                                                           "move", version)
                    yield event
                    last = version
                    shown = (*_seen_after(facts, facts.entry), facts.seats_taken)
                    from_bus = True
                    continue
            # A status change, or a gap (a message was lost): look at the game itself.
            facts = await hub.game_facts(game_id, None)
            from_bus = False
    finally:
        hub.unsubscribe(key, queue)
        hub.leases.release(lease)


@require_GET
async def game_stream(request: HttpRequest, game_id: int):
    """Events: `snapshot` (first, unless resuming: version, status, awaited seats, the game as
    the viewer may see it), `move` (each log entry: its text for this viewer, the awaited
    seats), `status` (joins, start, abort without a log entry), `end` (then the stream closes).
    The `id` of each `snapshot` and `move` is the game version."""
    # Served without LocaleMiddleware: a refusal reads in the language the request asks for.
    with translation.override(translation.get_language_from_request(request)):
        try:
            user, access = await stream_viewer(request)
            last = last_event_id(request)
            game_id = int(game_id)
            start = await live.db_call(_game_start)(game_id, user)
            lease = await stream_lease(request, user)
        except StreamRefused as refused:
            return refused.response()
    access = dataclasses.replace(access, game_id=game_id, seat=start["seat"])
    return event_stream(_game_events(game_id, start["seat"], start["snapshot"], last, access,
                                     lease), lease)
