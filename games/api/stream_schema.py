"""The two Server-Sent Events streams in the OpenAPI schema (they are async Django views, which
drf-spectacular does not see): their operations, `text/event-stream` answers, and one component
per event's `data`, so generated clients get typed models for what a stream sends
(openapi-python-client: `GameMoveEvent.from_dict(json.loads(data))`). docs/streams.md tells the
same in prose; tests/live/test_stream_replay.py checks live events against these components."""

from __future__ import annotations

from copy import deepcopy

from games.api.schema import EVERY_ANSWER

_INT = {"type": "integer"}
_SEATS = {"type": "array", "items": _INT}
_STATUS = {"$ref": "#/components/schemas/GameStatusEnum"}
_MESSAGE = {"type": "object", "additionalProperties": True,
            "description": "The text as a message key `k` with parameters `p` (see "
                           "docs/rules/translations.md)."}


def _object(description: str, properties: dict, optional: tuple = ()) -> dict:
    return {"type": "object", "description": description, "properties": properties,
            "required": [name for name in properties if name not in optional]}


EVENT_COMPONENTS = {
    "GameSnapshotEvent": _object(
        "`snapshot` (id: the version): first on a game stream, unless resuming.", {
            "game": _INT, "version": _INT, "status": _STATUS, "awaiting": _SEATS,
            "seat": {"type": ["integer", "null"], "description": "Your seat; null: a spectator."},
            "seats_taken": _INT,
            "view": {"type": ["object", "null"], "additionalProperties": True,
                     "description": "The game as you may see it (GET /api/v1/games/{id}/'s "
                                    "`view`); null before it starts."}}),
    "GameStreamLogLine": _object("A log entry as the stream's viewer may read it.", {
        "sequence": _INT, "seat": {"type": ["integer", "null"]},
        "text": {"type": "string", "description": "In English."}, "message": _MESSAGE}),
    "GameMoveEvent": _object(
        "`move` (id: the version): one per log entry, with the game as it stood right after "
        "it; the same bytes live and when resumed by Last-Event-ID.", {
            "game": _INT, "version": _INT, "status": _STATUS, "awaiting": _SEATS,
            "your_turn": {"type": "boolean"},
            "log": {"$ref": "#/components/schemas/GameStreamLogLine"}}),
    "GameStatusEvent": _object(
        "`status` (no id): a change without a log entry (a join, the start, an abort).", {
            "game": _INT, "version": _INT, "status": _STATUS, "awaiting": _SEATS,
            "your_turn": {"type": "boolean"}, "seats_taken": _INT}),
    "GameEndEvent": _object("`end` (no id): the game is over; the stream closes.",
                            {"game": _INT, "status": _STATUS}),
    "StreamClosedEvent": _object(
        "`closed` (no id): what let the stream in ended; the stream closes.", {
            "reason": {"type": "string", "enum": [
                "token_revoked", "token_expired", "signed_out", "password_changed",
                "account_banned", "account_inactive", "not_visible", "seat_changed"]}}),
    "UserStreamHello": _object("`hello` (no id): first on your stream, unless resuming.", {
        "user": _INT, "last_id": {"type": ["integer", "null"]}}),
    "UserNotificationEvent": _object(
        "A notice (id: the notification's id), its event named by `kind`.", {
            "id": _INT, "kind": {"type": "string", "enum": [
                "your_turn", "reminder", "timed_out", "game_started", "game_finished",
                "invitation", "mention", "moderation", "webhook_disabled"]},
            "created_at": {"type": "string", "format": "date-time"},
            "facts": {"type": "object", "additionalProperties": True},
            "game": {"oneOf": [{"$ref": "#/components/schemas/UserNotificationGame"},
                               {"type": "null"}]}}),
    "UserNotificationGame": _object("The game a notice is about.", {
        "id": _INT, "name": {"type": "string"}, "seat": {"type": ["integer", "null"]}}),
}

_RESUME_PARAMETERS = [
    {"in": "header", "name": "Last-Event-ID", "required": False,
     "schema": {"type": "integer", "minimum": 0},
     "description": "Resume after this event id: what came after it is sent first, none lost "
                    "or repeated (browsers send it themselves when they reconnect)."},
    {"in": "query", "name": "last_event_id", "required": False,
     "schema": {"type": "integer", "minimum": 0},
     "description": "The same, for clients that cannot set headers."},
]


def _stream_operation(operation_id: str, summary: str, description: str,
                      events: dict[str, str], errors: list[int]) -> dict:
    listing = "\n".join(f"- `{name}`: `{component}`" for name, component in events.items())
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    return {
        "operationId": operation_id, "summary": summary, "tags": ["streams"],
        "description": f"{description}\n\nEvents (`event:` name, then the `data:` JSON's "
                       f"component):\n{listing}\n\nA `: heartbeat` comment comes every few "
                       "seconds. Served by the ASGI server only (503 `streams_unavailable` "
                       "elsewhere). See docs/streams.md.",
        "security": [{"bearerAuth": []}, {"cookieAuth": []}, {}],
        "responses": {
            "200": {
                "description": "An endless stream of Server-Sent Events (until `end` or "
                               "`closed`).",
                "headers": deepcopy(STREAM_HEADERS),
                "content": {"text/event-stream": {
                    "schema": {"type": "string"},
                    # The event list as data (OpenAPI 3.1 has no SSE item schema yet).
                    "x-events": {name: {"$ref": f"#/components/schemas/{component}"}
                                 for name, component in events.items()}}},
            },
            **{str(code): {"description": "Refused before the stream starts.",
                           "headers": deepcopy(STREAM_HEADERS),
                           "content": deepcopy(error)} for code in errors},
        },
    }


#: Streams are served by the ASGI application outside Django's middleware (config/asgi.py), which
#: gives them the request id and the rate-limit headers of every answer (the budget as it
#: stands: a stream is not counted against it; its own limit is how many are open at once).
STREAM_HEADERS = {name: {"$ref": f"#/components/headers/{name}"} for name in EVERY_ANSWER}


def add_event_streams(result, generator, request, public):
    """Postprocessing hook: the streams' operations and event components."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(
        deepcopy(EVENT_COMPONENTS))
    game = _stream_operation(
        "stream_game", "Every change of one game, as you may see it",
        "A `snapshot` first, then a `move` per log entry (`id`: the game version), `status` "
        "for changes without a log entry, and `end`.",
        {"snapshot": "GameSnapshotEvent", "move": "GameMoveEvent", "status": "GameStatusEvent",
         "end": "GameEndEvent", "closed": "StreamClosedEvent"},
        [400, 401, 403, 404, 429, 503])
    game["parameters"] = [{"in": "path", "name": "id", "required": True,
                           "schema": {"type": "integer", "minimum": 1}},
                          *deepcopy(_RESUME_PARAMETERS)]
    mine = _stream_operation(
        "stream_my_events", "My notices as they happen",
        "`hello` first (unless resuming), then each notice as its kind (`your_turn`, "
        "`mention`, …; `id`: the notification's id).",
        {"hello": "UserStreamHello",
         **{kind: "UserNotificationEvent" for kind in
            EVENT_COMPONENTS["UserNotificationEvent"]["properties"]["kind"]["enum"]},
         "closed": "StreamClosedEvent"},
        [400, 401, 403, 429, 503])
    mine["parameters"] = deepcopy(_RESUME_PARAMETERS)
    result["paths"]["/api/v1/games/{id}/stream"] = {"get": game}
    result["paths"]["/api/v1/stream/events"] = {"get": mine}
    return result
