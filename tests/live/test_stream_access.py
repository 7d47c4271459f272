"""Open event streams end when their access ends, and a player and an address hold only so many;
every error on a stream path is the JSON body. Real uvicorn processes, real SSE clients over
sockets, Redis between the processes (the hub checks access every STREAM_ACCESS_CHECK_SECONDS,
2 s by default, as here)."""

from __future__ import annotations

import json
import time
import uuid
from datetime import timedelta

import pytest
import requests
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import PersonalAccessToken
from accounts.tokens import digest_of, token_create, token_revoke
from games import services
from games.models import Game, GameStatus
from games.services import moderation
from tests.api.clients import token_of
from tests.factories import PASSWORD, UserFactory, started_game
from tests.live.conftest import start_server, stop_server
from tests.live.helpers import auth, play_moves
from tests.live.sse import SSEStream

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

#: What the issue promises: a stream whose access ended is closed within this.
CLOSED_WITHIN_SECONDS = 5


def _session_cookie(user) -> dict:
    client = Client()
    client.force_login(user)
    return {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}


def _opened(url: str, headers: dict | None = None) -> SSEStream:
    stream = SSEStream(url, headers)
    assert stream.status == 200, stream.response.read()[:300]
    assert stream.next_event()["event"] in ("snapshot", "hello")
    return stream


def _assert_closed(stream: SSEStream, reason: str, since: float) -> None:
    """The stream's next event says why it closes, within the promised time; then it ends."""
    left = since + CLOSED_WITHIN_SECONDS - time.monotonic()
    seen = stream.events_until(lambda event: event["event"] == "closed", timeout=max(left, 0.1))
    assert seen[-1]["data"] == {"reason": reason}
    assert time.monotonic() - since <= CLOSED_WITHIN_SECONDS
    assert stream.next_event(2) is None and stream.closed


def _game_and_notice_streams(server: str, game_id: int, headers: dict) -> list[SSEStream]:
    return [_opened(f"{server}/api/v1/games/{game_id}/stream", headers),
            _opened(f"{server}/api/v1/stream/events", headers)]


def test_revoking_a_token_closes_its_game_and_notice_streams(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="access-revoke")
    raw = token_of(users[0])
    streams = _game_and_notice_streams(asgi_server, game.pk, auth(raw))
    token = PersonalAccessToken.objects.get(digest=digest_of(raw))
    token_revoke(user=users[0], token_id=token.pk, via="test")
    since = time.monotonic()
    for stream in streams:
        _assert_closed(stream, "token_revoked", since)
    again = SSEStream(f"{asgi_server}/api/v1/games/{game.pk}/stream", auth(raw))
    assert again.status == 401 and again.body()["code"] == "authentication_failed"


def test_an_expiring_token_closes_its_streams_when_it_expires(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="access-expiry")
    expires_at = timezone.now() + timedelta(seconds=3)
    _, raw = token_create(user=users[0], name="short", scopes=["read"], expires_at=expires_at,
                          via="test")
    streams = _game_and_notice_streams(asgi_server, game.pk, auth(raw))
    time.sleep(max(0.0, (expires_at - timezone.now()).total_seconds()))
    since = time.monotonic()
    for stream in streams:
        _assert_closed(stream, "token_expired", since)


def test_a_password_change_closes_the_streams_of_its_tokens_and_sessions(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="access-password")
    user = users[0]
    by_token = _game_and_notice_streams(asgi_server, game.pk, auth(token_of(user)))
    by_session = _game_and_notice_streams(asgi_server, game.pk, _session_cookie(user))
    user.set_password(PASSWORD + "-changed")
    user.save()
    since = time.monotonic()
    for stream in by_token:
        _assert_closed(stream, "token_revoked", since)
    for stream in by_session:
        _assert_closed(stream, "password_changed", since)


def test_a_ban_closes_the_players_streams_and_opens_no_more(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="access-ban")
    raw = token_of(users[1])
    streams = _game_and_notice_streams(asgi_server, game.pk, auth(raw))
    other = _opened(f"{asgi_server}/api/v1/games/{game.pk}/stream", auth(token_of(users[0])))
    moderator = UserFactory(is_staff=True, is_superuser=True)
    moderation.user_ban(moderator=moderator, user=users[1], reason="cheating")
    since = time.monotonic()
    for stream in streams:
        _assert_closed(stream, "account_banned", since)
    refused = SSEStream(f"{asgi_server}/api/v1/stream/events", auth(raw))
    assert refused.status == 403 and refused.body()["code"] == "account_banned"
    # The other player's stream goes on: the next move reaches it.
    version = play_moves(game.pk, 1)[-1]
    assert other.events_until(lambda event: event.get("id") == str(version))
    other.close()


def test_an_invitee_who_declines_a_private_game_stops_hearing_it(asgi_server):
    host, invitee, third = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=host, engine_slug="stone_age", num_players=3,
                                allow_spectators=False)
    for guest in (invitee, third):
        services.game_invite(game_id=game.pk, inviter=host, login=guest.username)
    raw = token_of(invitee)
    stream = _opened(f"{asgi_server}/api/v1/games/{game.pk}/stream", auth(raw))
    services.invitation_decline(game_id=game.pk, user=invitee)
    since = time.monotonic()
    # Someone else joins meanwhile: a `status` event the invitee may no longer get.
    services.game_join(game_id=game.pk, user=third)
    _assert_closed(stream, "not_visible", since)
    assert requests.get(f"{asgi_server}/api/v1/games/{game.pk}/", headers=auth(raw),
                        timeout=10).status_code == 404


# ---- how many streams ------------------------------------------------------------------------


def test_the_limits_default_to_20_streams_a_player_and_50_an_address():
    assert (settings.STREAM_MAX_PER_USER, settings.STREAM_MAX_PER_ADDRESS) == (20, 50)
    assert settings.STREAM_ACCESS_CHECK_SECONDS == 2.0


def _assert_too_many(stream: SSEStream) -> None:
    assert stream.status == 429
    assert stream.response.getheader("Content-Type") == "application/json"
    assert int(stream.response.getheader("Retry-After")) > 0
    assert stream.body()["code"] == "too_many_streams"


@pytest.fixture
def limited_servers(transactional_db, channel_prefix, tmp_path):
    """Two web processes sharing Redis (as behind a load balancer), each allowing a player 3
    streams and an address 5. The tests' address (127.0.0.1) is no trusted proxy here, as a
    client is not in production (uvicorn believes X-Forwarded-For from 127.0.0.1 by default)."""
    limits = {"EVENTS_CHANNEL_PREFIX": channel_prefix, "STREAM_MAX_PER_USER": "3",
              "STREAM_MAX_PER_ADDRESS": "5", "FORWARDED_ALLOW_IPS": "192.0.2.1"}
    servers = [start_server(tmp_path, limits) for _ in range(2)]
    yield [url for _, url, _ in servers]
    for process, _, _ in servers:
        stop_server(process)


def test_a_player_holds_at_most_the_limit_across_processes_and_gets_a_slot_back(
        limited_servers):
    first, second = limited_servers
    game, users = started_game(2, engine="stone_age", seed="limit-user")
    headers = auth(token_of(users[0]))
    held = [_opened(f"{first}/api/v1/games/{game.pk}/stream", headers),
            _opened(f"{second}/api/v1/stream/events", headers),
            _opened(f"{second}/api/v1/games/{game.pk}/stream", _session_cookie(users[0]))]
    _assert_too_many(SSEStream(f"{first}/api/v1/stream/events", headers))
    _assert_too_many(SSEStream(f"{second}/api/v1/games/{game.pk}/stream", headers))
    # Another player is not held back by this one.
    _opened(f"{first}/api/v1/stream/events", auth(token_of(users[1]))).close()
    held.pop().close()
    deadline = time.monotonic() + CLOSED_WITHIN_SECONDS
    while (again := SSEStream(f"{first}/api/v1/stream/events", headers)).status == 429:
        assert time.monotonic() < deadline, "the closed stream's slot never came back"
        time.sleep(0.2)
    assert again.status == 200
    for stream in [*held, again]:
        stream.close()


def test_an_address_holds_at_most_the_limit_whatever_x_forwarded_for_says(limited_servers):
    first, second = limited_servers
    game, _users = started_game(2, engine="stone_age", seed="limit-address")
    url = f"/api/v1/games/{game.pk}/stream"
    # Without trusted proxies (NUM_PROXIES=0) the header is the client's say-so: ignored.
    held = [_opened(f"{(first, second)[n % 2]}{url}", {"X-Forwarded-For": f"10.0.0.{n}"})
            for n in range(5)]
    _assert_too_many(SSEStream(f"{first}{url}", {"X-Forwarded-For": "10.0.0.99"}))
    _assert_too_many(SSEStream(f"{second}/api/v1/stream/events",
                               auth(token_of(UserFactory()))))
    for stream in held:
        stream.close()


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_one_process_counts_its_own_streams(tmp_path, channel_prefix):
    process, url, _ = start_server(tmp_path, {"REDIS_URL": "", "STREAM_MAX_PER_USER": "2",
                                              "EVENTS_CHANNEL_PREFIX": channel_prefix})
    try:
        game, users = started_game(2, engine="stone_age", seed="limit-local")
        headers = auth(token_of(users[0]))
        held = [_opened(f"{url}/api/v1/games/{game.pk}/stream", headers) for _ in range(2)]
        _assert_too_many(SSEStream(f"{url}/api/v1/stream/events", headers))
        for stream in held:
            stream.close()
    finally:
        stop_server(process)


# ---- rate-limit headers -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_stream_answer_tells_the_callers_rate_limits_without_counting_itself(tmp_path,
                                                                               channel_prefix):
    """As every other API answer: the budget of the caller (the token's user; the address for a
    refused token), which opening a stream does not spend."""
    process, url, _ = start_server(tmp_path, {"EVENTS_CHANNEL_PREFIX": channel_prefix})
    try:
        game, users = started_game(2, engine="stone_age", seed="stream-limits")
        headers = auth(token_of(users[0]))
        before = requests.get(f"{url}/api/v1/me/", headers=headers, timeout=10)
        left = int(before.headers["X-RateLimit-Remaining"])
        for path in (f"/api/v1/games/{game.pk}/stream", "/api/v1/stream/events"):
            stream = _opened(url + path, headers)
            answer = stream.response
            assert answer.getheader("RateLimit-Policy") == before.headers["RateLimit-Policy"]
            assert answer.getheader("X-RateLimit-Resource") == "user"
            assert int(answer.getheader("X-RateLimit-Remaining")) == left
            assert answer.getheader("RateLimit").startswith(f'"user";r={left};t=')
            assert int(answer.getheader("X-RateLimit-Reset")) > 1_700_000_000
            stream.close()
        after = requests.get(f"{url}/api/v1/me/", headers=headers, timeout=10)
        assert int(after.headers["X-RateLimit-Remaining"]) == left - 1  # streams spent nothing
        refused = SSEStream(f"{url}/api/v1/stream/events", auth("tp_not-a-token"))
        assert refused.status == 401
        assert refused.response.getheader("RateLimit-Policy").startswith('"anon";q=')
    finally:
        stop_server(process)


# ---- errors on stream paths ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_every_error_on_a_stream_path_is_the_json_body(tmp_path, channel_prefix):
    """Under DEBUG (`make run`) as well: Django's own error pages are HTML."""
    process, url, _ = start_server(tmp_path, {"DJANGO_DEBUG": "1",
                                              "EVENTS_CHANNEL_PREFIX": channel_prefix})
    try:
        game, _users = started_game(2, engine="stone_age", seed="stream-errors")
        for path in (f"/api/v1/games/{game.pk}/stream", "/api/v1/stream/events"):
            bad_host = requests.get(url + path, headers={"Host": "evil.example"}, timeout=10)
            assert bad_host.status_code == 400
            assert bad_host.json()["code"] == "bad_request"
            nul = requests.get(url + path + "?last_event_id=1%00", timeout=10)
            assert nul.status_code == 400 and nul.json()["code"] == "invalid_query"
            post = requests.post(url + path, timeout=10)
            assert post.status_code == 405 and post.json()["code"] == "method_not_allowed"
            assert post.headers["Allow"] == "GET"
            head = requests.head(url + path, timeout=10)
            assert head.status_code == 405 and head.headers["Allow"] == "GET"
            assert all(uuid.UUID(answer.headers["X-Request-ID"])
                       for answer in (bad_host, nul, post, head))
            assert all(answer.headers["RateLimit-Policy"].startswith('"anon";q=')
                       for answer in (bad_host, nul, post, head))
        _the_rest_of_the_api_under_make_run(url, game, _users)
    finally:
        stop_server(process)


def _the_rest_of_the_api_under_make_run(url: str, game, users) -> None:
    """The same server (uvicorn, DEBUG on, as `make run`): the site's own paths answer JSON
    errors too, with a request id and the rate limits, and a bulk export streams through ASGI."""
    for method, path, status in (("get", "/api/v1/no-such-thing/", 404),
                                 ("get", "/api/nothing", 404),
                                 ("delete", "/api/v1/engines/", 405)):
        answer = requests.request(method, url + path, timeout=10)
        assert answer.status_code == status, answer.text[:300]
        assert answer.headers["Content-Type"].startswith("application/json")
        assert uuid.UUID(answer.headers["X-Request-ID"])
        assert answer.headers["RateLimit-Policy"].startswith('"anon";q=')
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, finished_at=timezone.now())
    export = requests.get(f"{url}/api/v1/users/{users[0].username}/games/export/", timeout=10,
                          stream=True)
    assert export.status_code == 200
    assert export.headers["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in export.iter_lines() if line]
    assert [line["game"] for line in lines] == [game.pk]


@pytest.mark.slow  # 50 started games to set up: 14 s
@pytest.mark.django_db(transaction=True)
def test_one_check_of_200_open_streams_is_a_few_queries():
    """The hub checks every stream of its process at once: 100 token and 100 session streams
    of 200 players on 50 games (private ones among them) cost 5 queries, not 200 (measured:
13-18 ms a check, games/api/stream_access.py)."""
    from importlib import import_module

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.api.stream_access import StreamAccess, lost_access, password_mark

    accesses = []
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for number in range(50):
        game, users = started_game(2)
        if number % 2:
            type(game).objects.filter(pk=game.pk).update(allow_spectators=False)
        for seat, user in enumerate(users):
            token, _ = token_create(user=user, name="cost", scopes=["read"], via="test")
            session = store()
            session.create()
            accesses += [
                StreamAccess(user.pk, token_id=token.pk, game_id=game.pk, seat=seat),
                StreamAccess(user.pk, session_key=session.session_key,
                             password_mark=password_mark(user.password)),
            ]
    timings = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            lost = lost_access(accesses)
            timings.append((time.perf_counter() - started) * 1000)
    assert lost == {}
    print(f"200 streams: {len(queries)} queries, {min(timings):.1f}-{max(timings):.1f} ms")
    assert len(queries) <= 6
