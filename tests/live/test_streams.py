"""Event streams served by a real uvicorn process, with Redis pub/sub between the process that
moves (this one) and the server: snapshot first, every move as the viewer may see it, resumption
with Last-Event-ID, heartbeats, the end, and nothing hidden."""

from __future__ import annotations

import json
import time

import pytest
from django.test import Client

from games import services
from games.engines.registry import get_engine
from games.models import Action
from games.presentation.names import seat_names
from games.presentation.texts import entry_text, view_texts
from tests.api.clients import token_of
from tests.factories import UserFactory, started_game
from tests.live.conftest import start_server, stop_server
from tests.live.helpers import auth, play_moves
from tests.live.sse import SSEStream

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _is_move(version):
    return lambda event: event["event"] == "move" and int(event["id"]) == version


def test_game_stream_sends_the_snapshot_then_each_move_and_resumes_after_last_event_id(
        asgi_server):
    game, users = started_game(2, engine="stone_age", seed="stream-resume")
    engine = get_engine("stone_age")
    token = token_of(users[0])
    stream = SSEStream(f"{asgi_server}/api/v1/games/{game.pk}/stream", auth(token))
    assert stream.status == 200
    assert stream.response.getheader("Content-Type").startswith("text/event-stream")
    snapshot = stream.next_event()
    game.refresh_from_db()
    assert snapshot["event"] == "snapshot" and int(snapshot["id"]) == game.version
    assert snapshot["data"]["seat"] == 0
    # The view as the page shows it: its texts rendered (in English here), players named.
    shown = view_texts("stone_age", engine.view(game.state, 0), language="en",
                       names=seat_names(game))
    assert snapshot["data"]["view"] == json.loads(json.dumps(shown))

    versions = play_moves(game.pk, 2)
    seen = stream.events_until(_is_move(versions[-1]))
    moves = [event for event in seen if event["event"] == "move"]
    assert [int(event["id"]) for event in moves] == list(range(snapshot["data"]["version"] + 1,
                                                               versions[-1] + 1))
    for event in moves:
        entry = Action.objects.get(game=game, sequence=int(event["id"]))
        assert event["data"]["log"]["text"] == entry_text(entry, 0, language="en")
    stream.close()

    # Disconnected while two more moves happen: resuming loses none and repeats none.
    last_seen = versions[-1]
    more = play_moves(game.pk, 2)
    resumed = SSEStream(f"{asgi_server}/api/v1/games/{game.pk}/stream",
                        {**auth(token), "Last-Event-ID": str(last_seen)})
    seen = resumed.events_until(_is_move(more[-1]))
    assert [event["event"] for event in seen] == ["move"] * (more[-1] - last_seen)
    assert [int(event["id"]) for event in seen] == list(range(last_seen + 1, more[-1] + 1))
    game.refresh_from_db()
    awaited = sorted(seat.number for seat in game.seats.all() if seat.deadline_at)
    assert seen[-1]["data"]["awaiting"] == awaited
    resumed.close()


def test_a_lost_bus_message_is_caught_up_from_the_log_at_the_next_one(asgi_server, settings):
    """Moves reach a stream over the bus; one whose message never came (Redis hiccup) is read
    from the log when the next message shows the gap: none lost, none repeated, in order."""
    game, users = started_game(2, engine="stone_age", seed="stream-gap")
    stream = SSEStream(f"{asgi_server}/api/v1/games/{game.pk}/stream",
                       auth(token_of(users[0])))
    start = int(stream.next_event()["id"])
    heard = play_moves(game.pk, 1)
    prefix = settings.EVENTS_CHANNEL_PREFIX
    settings.EVENTS_CHANNEL_PREFIX = f"{prefix}-lost"  # published where nobody listens
    unheard = play_moves(game.pk, 1)
    settings.EVENTS_CHANNEL_PREFIX = prefix
    last = play_moves(game.pk, 1)[-1]
    assert heard[-1] < unheard[-1] < last
    seen = stream.events_until(_is_move(last))
    assert [int(event["id"]) for event in seen if event["event"] == "move"] == list(
        range(start + 1, last + 1))
    stream.close()


def test_heartbeats_keep_an_idle_stream_alive_and_the_stream_ends_with_the_game(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="stream-end")
    stream = SSEStream(f"{asgi_server}/api/v1/games/{game.pk}/stream", auth(token_of(users[1])))
    assert stream.next_event()["event"] == "snapshot"
    time.sleep(2.5)  # the server under test beats every second
    services.game_abort(game_id=game.pk, reason="test")
    seen = stream.events_until(lambda event: event["event"] == "end")
    assert ": heartbeat" in stream.text()
    assert seen[-1]["data"] == {"game": game.pk, "status": "aborted"}
    assert stream.next_event() is None and stream.closed


def test_no_hidden_information_reaches_other_seats_or_spectators(asgi_server):
    """A 7 Wonders pick is secret until all have picked: its card appears only on the picker's
    own stream."""
    game, users = started_game(3, engine="seven_wonders", seed="stream-secret")
    engine = get_engine("seven_wonders")
    tokens = [token_of(user) for user in users]
    url = f"{asgi_server}/api/v1/games/{game.pk}/stream"
    streams = {0: SSEStream(url, auth(tokens[0])), 1: SSEStream(url, auth(tokens[1])),
               None: SSEStream(url)}
    for stream in streams.values():
        assert stream.next_event()["event"] == "snapshot"
    others_see = json.dumps(engine.view(game.state, 1)) + json.dumps(engine.view(game.state,
                                                                                  None))
    pick = next(action for action in engine.legal_actions(game.state, 0)
                if action["type"] == "build" and action["card"] not in others_see)
    card_name = engine.describe(game.state, 0, pick, viewer=0).split(":")[0].removeprefix(
        "Build ")
    assert card_name and card_name not in others_see
    result = services.game_action_submit(game_id=game.pk, user=users[0], action=pick,
                                         expected_version=game.version)
    version = result.game.version
    for viewer, stream in streams.items():
        event = stream.events_until(_is_move(version))[-1]
        text = stream.text()
        if viewer == 0:
            assert card_name in event["data"]["log"]["text"]
        else:
            assert event["data"]["log"]["text"] == "Seat 0 chose a card."
            assert card_name not in text and pick["card"] not in text
        stream.close()


def test_player_stream_tells_my_turn_and_resumes(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="stream-user")
    game.refresh_from_db()
    first = get_engine("stone_age").active_seats(game.state)[0]
    waiting = users[1 - first]
    token = token_of(waiting)
    stream = SSEStream(f"{asgi_server}/api/v1/stream/events", auth(token))
    hello = stream.next_event()
    assert hello["event"] == "hello"
    play_moves(game.pk, 1)
    turn = stream.events_until(lambda event: event["event"] == "your_turn")[-1]
    assert turn["data"]["game"]["id"] == game.pk
    assert turn["data"]["game"]["seat"] == 1 - first
    stream.close()
    # A notice made while disconnected comes on resumption.
    missed_from = int(turn["id"])
    services.chat_post(game_id=game.pk, user=users[first], body=f"@{waiting.username} hello")
    resumed = SSEStream(f"{asgi_server}/api/v1/stream/events",
                        {**auth(token), "Last-Event-ID": str(missed_from)})
    mention = resumed.events_until(lambda event: event["event"] == "mention")[-1]
    assert int(mention["id"]) > missed_from
    assert mention["data"]["facts"]["text"].endswith("hello")
    resumed.close()


def test_streams_accept_session_and_token_and_refuse_everyone_else(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="stream-auth")
    # A private game (spectators off), made so once its players are seated.
    type(game).objects.filter(pk=game.pk).update(allow_spectators=False)
    client = Client()
    client.force_login(users[0])
    cookie = {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}
    url = f"{asgi_server}/api/v1/games/{game.pk}/stream"
    by_session = SSEStream(url, cookie)
    assert by_session.next_event()["data"]["seat"] == 0
    by_session.close()

    outsider = SSEStream(url, auth(token_of(UserFactory())))
    assert outsider.status == 404 and outsider.body()["code"] == "not_found"
    anonymous = SSEStream(url)
    assert anonymous.status == 404
    bad_token = SSEStream(url, auth("not-a-token"))
    assert bad_token.status == 401 and bad_token.body()["code"] == "authentication_failed"
    no_user = SSEStream(f"{asgi_server}/api/v1/stream/events")
    assert no_user.status == 401 and no_user.body()["code"] == "not_authenticated"
    bad_resume = SSEStream(url, {**auth(token_of(users[1])), "Last-Event-ID": "yesterday"})
    assert bad_resume.status == 400 and bad_resume.body()["code"] == "invalid"
    # A refusal reads in the language the request asks for (no middleware runs here).
    persian = SSEStream(url, {**auth(token_of(UserFactory())), "Accept-Language": "fa"})
    assert persian.status == 404 and persian.body()["message"] == "چنین بازی‌ای وجود ندارد."
    italian = SSEStream(f"{asgi_server}/api/v1/stream/events", {"Accept-Language": "it"})
    assert italian.status == 401 and italian.body()["message"].startswith("Accedi")


@pytest.mark.django_db(transaction=True)
def test_without_redis_one_process_relays_from_the_database(tmp_path, channel_prefix):
    """`make run`'s embedded defaults: no Redis; the web process reads new log entries."""
    process, url, log_path = start_server(tmp_path, {"REDIS_URL": "",
                                                     "EVENTS_CHANNEL_PREFIX": channel_prefix})
    try:
        game, users = started_game(2, engine="stone_age", seed="stream-relay")
        stream = SSEStream(f"{url}/api/v1/games/{game.pk}/stream", auth(token_of(users[0])))
        assert stream.next_event()["event"] == "snapshot"
        versions = play_moves(game.pk, 2)
        seen = stream.events_until(_is_move(versions[-1]))
        assert [int(e["id"]) for e in seen if e["event"] == "move"][-2:] == versions[-2:]
        stream.close()
    finally:
        stop_server(process)


@pytest.mark.django_db(transaction=True)  # the hub reads from its own thread's connection
def test_one_read_serves_every_log_entry_a_move_wrote():
    """A move that ends a round writes many log entries, each announced on its own; the first
    announcement reads them all for every stream of the process, so the rest cost no query."""
    import asyncio

    from games.live import hub as live

    game, _users = started_game(2, engine="stone_age", seed="hub-one-read")
    before = game.version
    while True:
        after = play_moves(game.pk, 1)[-1]
        if after > before + 1:
            break
        before = after
    first = before + 1
    assert [facts.entry.sequence for facts in live.load_game_facts(game.pk, first)] \
        == list(range(first, after + 1))

    async def read() -> tuple[live.Hub, live.GameFacts]:
        hub = live.Hub()
        return hub, await hub.game_facts(game.pk, first)

    hub, facts = asyncio.run(read())
    assert facts.entry.sequence == first and facts.version == after
    for sequence in range(first + 1, after + 1):
        cached = hub._facts[(game.pk, sequence)]
        assert cached.done() and cached.result().entry.sequence == sequence
    public = Action.objects.get(game=game, sequence=after).text_for(None)
    assert hub._facts[(game.pk, after)].result().entry.public_text == public
