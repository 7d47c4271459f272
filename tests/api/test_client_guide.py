"""docs/writing-a-client.md: its bot, taken from the page as written, plays a whole game through
a client generated from the live schema, against a live server; the page is served and linked
from the API docs."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from rest_framework.test import APIClient

from accounts.tokens import token_create
from games import services
from games.models import Action, Game
from tests.api.generated import ROOT, fetch_schema, generate_client
from tests.factories import UserFactory, committed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

GUIDE = ROOT / "docs" / "writing-a-client.md"


def the_bot() -> str:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.DOTALL)
    assert len(blocks) == 1, "the guide has one Python program: the bot"
    return blocks[0]


def test_the_bot_is_about_sixty_lines():
    lines = [line for line in the_bot().splitlines() if line.strip()]
    assert 40 <= len(lines) <= 70, len(lines)


def fresh_game_with_the_author_first(author) -> Game:
    """A Stone Age game against an easy bot (a search bot takes seconds a move on a busy
    machine) where the author sits at seat 0 and moves first (the seat order is shuffled from
    the game's seed: seeds are tried until one gives that)."""
    for attempt in range(50):
        with committed():
            game = services.game_create(creator=author, engine_slug="stone_age", num_players=2)
            services.game_add_bot(game_id=game.pk, user=author, level="easy")
            Game.objects.filter(pk=game.pk).update(seed=f"guide-{attempt}")
            game = services.game_start(game_id=game.pk, user=author)
        seat = game.seats.get(user=author).number
        if seat == 0 and game.seats.get(number=0).deadline_at is not None:
            return game
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError("no seed put the author first")


@pytest.mark.slow
def test_the_guides_bot_plays_a_whole_game_against_a_live_server(live_server, tmp_path):
    generate_client(fetch_schema(live_server.url, tmp_path / "schema.json"), tmp_path)
    (tmp_path / "bot.py").write_text(the_bot())
    author = UserFactory()
    _, raw = token_create(user=author, name="guide bot", scopes=["read", "play"], via="test")
    game = fresh_game_with_the_author_first(author)
    # The bot's first request lists a game nobody has moved in yet (`last_move` null).
    assert not Action.objects.filter(game=game).exists()
    env = {**os.environ, "TURNPOST_URL": live_server.url, "TURNPOST_TOKEN": raw,
           "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "bot.py", "--until-idle"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    game = Game.objects.get(pk=game.pk)
    seat = game.seats.get(user=author).number
    mine = Action.objects.filter(game=game, seat_number=seat, kind="move", source="api").count()
    print(f"\nthe guide's bot made {mine} moves; the game is {game.status}")
    assert game.status == "finished", run.stdout[-2000:]
    assert mine >= 18 and run.stdout.count(f"game {game.pk}: ") >= mine


def test_a_revoked_token_stops_the_bot_with_the_reason(live_server, tmp_path):
    generate_client(fetch_schema(live_server.url, tmp_path / "schema.json"), tmp_path)
    (tmp_path / "bot.py").write_text(the_bot())
    env = {**os.environ, "TURNPOST_URL": live_server.url, "TURNPOST_TOKEN": "tp_revoked",
           "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "bot.py", "--until-idle"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "authentication_failed" in run.stderr, run.stderr


def test_the_guide_is_served_and_linked_from_the_api_docs():
    page = APIClient().get("/api/writing-a-client/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<h1>Writing a client</h1>" in html and "def play_awaiting_games" in html
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert "(/api/writing-a-client/)" in schema["info"]["description"]
