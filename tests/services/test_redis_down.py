"""Redis down is degraded, not down. With the cache and the Celery broker unreachable (a port
where nothing listens, or a Redis server killed in the middle of a game) the API answers as
usual: rate limits fail open, a committed move is answered 200 with the normal body and stored,
and the beat safety nets later do what the lost tasks would have done (resolve the turn, play
the bots, send the notifications). The web server is a real process (runserver) on the test
database; Redis is a real redis-server started and killed here."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.utils import timezone

from games import services
from games import tasks as game_tasks
from games.models import Game, Seat
from notifications import tasks as notification_tasks
from notifications.models import Notification
from tests.conftest import wait_for
from tests.factories import PASSWORD, UserFactory, confirm_email, open_game
from tests.perf.test_sweep_speed import ARTIFACTS

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Web:
    """The site served by `manage.py runserver` in its own process, on the test database, with
    REDIS_URL (cache and broker) set to `redis_url`."""

    def __init__(self, redis_url: str, data_dir: Path, cache_url: str | None = None) -> None:
        db = connection.settings_dict
        env = {key: value for key, value in os.environ.items() if key != "REDIS_CACHE_URL"}
        if cache_url:
            env["REDIS_CACHE_URL"] = cache_url
        env.update({
            "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:"
                            f"{db['PORT'] or 5432}/{db['NAME']}",
            "REDIS_URL": redis_url, "DATA_DIR": str(data_dir), "LOG_LEVEL": "WARNING",
        })
        self.port = free_port()
        self.log_path = data_dir / "web.log"
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        assert wait_for(lambda: self.request("GET", "/api/v1/engines/")[0] == 200, timeout=60), (
            self.log_text())

    def request(self, method: str, path: str, body=None, token: str | None = None):
        """(status, decoded JSON body or None, seconds taken)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data,
                                         headers=headers, method=method)
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        except OSError:
            return 0, None, time.perf_counter() - started
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = None
        return status, payload, time.perf_counter() - started

    def html_login(self, login: str, password: str) -> tuple[int, str]:
        """Signs in through the web form (allauth, with its login limits): (status, final
        path after redirects)."""
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        url = f"http://127.0.0.1:{self.port}/accounts/login/"
        page = opener.open(url, timeout=30).read().decode()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": csrf, "login": login, "password": password}).encode()
        try:
            with opener.open(urllib.request.Request(url, data=form, headers={"Referer": url}),
                             timeout=30) as response:
                return response.status, urllib.parse.urlparse(response.url).path
        except urllib.error.HTTPError as error:
            return error.code, url

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(20)
        self.log.close()


@pytest.fixture
def web(tmp_path, settings):
    """Starts the site against a given Redis. Passwords are hashed as the site hashes them, so
    the token endpoint (throttled, and limited per account) is exercised for real."""
    from django.conf import global_settings

    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    servers: list[Web] = []

    def start(redis_url: str, cache_url: str | None = None) -> Web:
        servers.append(Web(redis_url, tmp_path, cache_url))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def throwaway_redis(tmp_path):
    """A redis-server of its own (no persistence) that the test may kill."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--save", "", "--appendonly", "no",
                                "--bind", "127.0.0.1", "--dir", str(tmp_path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def up() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return True
        except OSError:
            return False

    assert wait_for(up, timeout=10), "redis-server did not start"
    yield {"url": f"redis://127.0.0.1:{port}/0", "process": process}
    if process.poll() is None:
        process.kill()
        process.wait(10)


def token_for(server: Web, user) -> str:
    confirm_email(user)
    status, body, _ = server.request("POST", "/api/v1/auth/token/",
                                     {"username": user.username, "password": PASSWORD})
    assert status == 200, body
    return body["token"]


def new_game(server: Web, tokens: list[str], engine: str = "seven_wonders") -> int:
    status, body, _ = server.request("POST", "/api/v1/games/", {
        "engine": engine, "num_players": len(tokens), "time_per_move": 86400}, tokens[0])
    assert status == 201, body
    game_id = body["id"]
    for token in tokens[1:]:
        assert server.request("POST", f"/api/v1/games/{game_id}/join/", token=token)[0] == 200
    status, body, _ = server.request("POST", f"/api/v1/games/{game_id}/start/", token=tokens[0])
    assert status == 200, body
    return game_id


def pick(server: Web, game_id: int, token: str):
    """One seat's pick through the API: (status, body, seconds of the POST)."""
    version = server.request("GET", f"/api/v1/games/{game_id}/", token=token)[1]["version"]
    status, legal, _ = server.request("GET", f"/api/v1/games/{game_id}/actions/", token=token)
    assert status == 200 and legal, legal
    return server.request("POST", f"/api/v1/games/{game_id}/actions/",
                          {"action": legal[0]["action"], "version": version}, token)


def recovered_by_the_beat(game_id: int, resolved_version: int) -> None:
    """What the lost tasks would have done, done by the beat safety nets: the turn resolved and
    every pending notification sent."""
    assert game_tasks.resolve_pending_games() == 1
    game = Game.objects.get(pk=game_id)
    assert game.version == resolved_version and not game.needs_resolution
    pending = Notification.objects.filter(email_status="pending").count()
    assert pending >= 3, "the start's notifications should be waiting for the beat"
    notification_tasks.deliver_pending_notifications()
    assert not Notification.objects.filter(email_status="pending").exists()
    assert len(mail.outbox) >= 3


pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_redis_killed_mid_game_the_last_pick_is_committed_and_answered(web, throwaway_redis):
    server = web(throwaway_redis["url"])
    users = [UserFactory() for _ in range(3)]
    tokens = [token_for(server, user) for user in users]
    game_id = new_game(server, tokens)
    for token in tokens[:2]:
        assert pick(server, game_id, token)[0] == 200
    throwaway_redis["process"].kill()
    throwaway_redis["process"].wait(10)

    timings = []
    for path in ("/api/v1/games/", f"/api/v1/games/{game_id}/", "/api/v1/engines/"):
        status, body, seconds = server.request("GET", path, token=tokens[0])
        assert status == 200, body
        timings.append(seconds)
    status, body, seconds = pick(server, game_id, tokens[2])
    assert status == 200, (body, server.log_text()[-3000:])
    assert body["version"] == 3 and "game" not in body
    game = Game.objects.get(pk=game_id)
    assert game.version == 3 and game.needs_resolution
    assert game.actions.filter(kind="move").count() == 3
    assert server.request("GET", "/api/v1/engines/")[0] == 200  # anonymous, throttled too
    log = server.log_text()
    assert "Could not queue games.tasks.resolve_game" in log
    assert "Exception ignored" in log  # the cache's, logged by django-redis
    recovered_by_the_beat(game_id, resolved_version=4)
    figures = {"case": "redis killed mid-game", "move_ms": round(1000 * seconds, 1),
               "reads_median_ms": round(1000 * statistics.median(timings), 1)}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "redis-down-mid-game.json").write_text(json.dumps(figures, indent=1))
    print(figures)


def test_redis_unreachable_from_the_start_every_endpoint_answers(web):
    server = web(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    users = [UserFactory() for _ in range(3)]
    tokens = [token_for(server, user) for user in users]
    assert server.request("GET", "/api/v1/games/")[0] == 200
    game_id = new_game(server, tokens)
    statuses, seconds = [], []
    for token in tokens:
        status, body, taken = pick(server, game_id, token)
        assert status == 200, body
        statuses.append(status)
        seconds.append(taken)
    assert Game.objects.get(pk=game_id).actions.filter(kind="move").count() == 3
    status, body, _ = server.request("POST", f"/api/v1/games/{game_id}/chat/",
                                     {"body": "still here"}, tokens[0])
    assert status == 201, body
    assert server.request("GET", "/", token=None)[0] == 200  # the HTML pages too
    # The web sign-in form, whose failed-login limit lives in the cache as well.
    assert server.html_login(users[0].username, "not the password") == (
        200, "/accounts/login/")
    status, landed = server.html_login(users[0].username, PASSWORD)
    assert status == 200 and landed != "/accounts/login/", "the right password did not sign in"
    recovered_by_the_beat(game_id, resolved_version=4)
    figures = {"case": "redis unreachable", "moves_ms": [round(1000 * s, 1) for s in seconds]}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "redis-down-unreachable.json").write_text(json.dumps(figures, indent=1))
    print(figures)


def test_with_only_the_broker_down_a_committed_move_is_answered_200(web):
    """The cache works (throttling as usual); publishing the follow-up fails after commit."""
    # The cache the test settings use (REDIS_CACHE_URL, or database 1 of REDIS_URL), still up.
    server = web(f"redis://127.0.0.1:{free_port()}/0",
                 cache_url=settings.CACHES["default"]["LOCATION"])
    tokens = [token_for(server, UserFactory()) for _ in range(3)]
    game_id = new_game(server, tokens)
    for token in tokens:
        status, body, _ = pick(server, game_id, token)
        assert status == 200, body
    assert body["version"] == 3 and body["awaiting_seats"] == []
    assert Game.objects.get(pk=game_id).actions.filter(kind="move").count() == 3
    log = server.log_text()
    assert "Could not queue games.tasks.resolve_game" in log
    assert "Exception ignored" not in log
    recovered_by_the_beat(game_id, resolved_version=4)


@pytest.mark.django_db(transaction=False)
def test_rate_limits_hold_with_the_cache_and_fail_open_without_it(settings, caplog):
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory
    from rest_framework.throttling import SimpleRateThrottle

    from config.throttling import AnonRateThrottle  # the site's, as settings name it
    from tests.test_cache import unreachable_cache

    def allowed() -> list[bool]:
        request = Request(APIRequestFactory().get("/api/v1/engines/", REMOTE_ADDR="192.0.2.7"))
        request.user = AnonymousUser()
        return [AnonRateThrottle().allow_request(request, None) for _ in range(4)]

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "anon": "2/min"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
        assert allowed() == [True, True, False, False]  # Redis up: the limit holds
        unreachable_cache(settings)
        assert allowed() == [True, True, True, True]  # unreachable: open, and said so
    assert "Exception ignored" in caplog.text


@pytest.mark.django_db(transaction=False)
def test_the_beat_plays_bot_moves_whose_task_was_lost():
    """The bot's on-commit task never ran (no commit here, as if the broker had been down)."""
    game, (creator, other) = open_game(2)
    services.game_leave(game_id=game.pk, user=other)
    services.game_add_bot(game_id=game.pk, user=creator)
    game = services.game_start(game_id=game.pk, user=creator)
    bot = game.seats.get(is_bot=True)
    assert bot.deadline_at is not None
    assert game_tasks.play_pending_bot_moves() == 0, "too recent: its own task may be running"
    Seat.objects.filter(game=game).update(turn_started_at=timezone.now() - timedelta(minutes=2))
    assert game_tasks.play_pending_bot_moves() >= 1
    assert game.actions.filter(source="bot", seat_number=bot.number).exists()
