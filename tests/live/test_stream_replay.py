"""An event resumed by Last-Event-ID is the event that was sent live, byte for byte: each `move`
carries the game as it stood right after its log entry (status, awaited seats, whose turn), not
as it stands when the client comes back. Recorded live for both players and a spectator over a
stretch of Stone Age with several log entries per move (dice, feeding, new rounds), then
resumed from every id. The events also match the schema's components for them."""

from __future__ import annotations

import jsonschema
import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.api.clients import token_of
from tests.factories import UserFactory, started_game
from tests.live.helpers import auth, play_moves
from tests.live.sse import SSEStream

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

MOVES = 8


def _through(version):
    return lambda event: event.get("id") is not None and int(event["id"]) >= version


def test_every_resumed_event_is_the_one_sent_live(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="stream-replay")
    viewers = {"seat 0": token_of(users[0]), "seat 1": token_of(users[1]),
               "spectator": token_of(UserFactory())}
    url = f"{asgi_server}/api/v1/games/{game.pk}/stream"
    live = {name: SSEStream(url, auth(token)) for name, token in viewers.items()}
    snapshots = {name: stream.next_event() for name, stream in live.items()}
    first = {name: int(snapshot["id"]) for name, snapshot in snapshots.items()}
    play_moves(game.pk, MOVES)
    last = Game.objects.get(pk=game.pk).version
    sent, recorded = {}, []
    for name, stream in live.items():
        events = [snapshots[name], *stream.events_until(_through(last))]
        stream.close()
        recorded += events
        sent[name] = {int(event["id"]): event["raw"] for event in events
                      if event["event"] == "move"}
        assert sorted(sent[name]) == list(range(first[name] + 1, last + 1)), name
    components = APIClient().get("/api/schema/", {"format": "json"}).json()["components"]
    event_schema = {"move": "GameMoveEvent", "snapshot": "GameSnapshotEvent"}
    for event in recorded:
        if event["event"] in event_schema:
            jsonschema.Draft202012Validator(
                {"$ref": f"#/components/schemas/{event_schema[event['event']]}",
                 "components": components}).validate(event["data"])
    # The turn changed hands along the way: the events tell different awaited seats.
    assert len({raw.split('"awaiting":')[1][:5] for raw in sent["seat 0"].values()}) > 1

    for name, token in viewers.items():
        for resume_from in range(first[name], last):
            stream = SSEStream(url, {**auth(token), "Last-Event-ID": str(resume_from)})
            events = stream.events_until(_through(last))
            stream.close()
            resumed = {int(event["id"]): event["raw"] for event in events
                       if event["event"] == "move"}
            expected = {number: raw for number, raw in sent[name].items()
                        if number > resume_from}
            assert resumed == expected, (name, resume_from)
