"""ETag and If-None-Match on the game, its legal actions and its log, and the log's `since`: a
client polling a game downloads nothing until it changes, the 304 costs one query, and each
viewer's ETag covers only what they see."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from accounts.models import Vacation
from games import selectors, services
from games.models import Game, Seat
from tests.api.clients import token_client
from tests.factories import UserFactory, committed, open_game, started_game

pytestmark = pytest.mark.django_db

PATHS = ["/api/v1/games/{id}/", "/api/v1/games/{id}/actions/", "/api/v1/games/{id}/log/"]


def play_one(game, users):
    game.refresh_from_db()
    mover = next(user for user in users if selectors.legal_actions_for(game, user))
    with committed():
        services.game_action_submit(game_id=game.pk, user=mover, expected_version=game.version,
                                    action=selectors.legal_actions_for(game, mover)[0]["action"])


def private_headers_of(response) -> None:
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-cache"} <= cache_control, response["Cache-Control"]
    vary = {part.strip().lower() for part in response["Vary"].split(",")}
    assert {"authorization", "cookie", "accept-language", "accept"} <= vary, response["Vary"]


@pytest.mark.parametrize("path", PATHS)
def test_an_unchanged_game_answers_304_and_a_move_changes_the_etag(path):
    game, users = started_game(3, engine="seven_wonders", seed="etag")
    client = token_client(users[0])
    url = path.format(id=game.pk)
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('W/"')
    private_headers_of(first)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    private_headers_of(again)
    # The strong form of the same tag matches too (If-None-Match compares weakly), and a list.
    assert client.get(url, HTTP_IF_NONE_MATCH=etag.removeprefix("W/")).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"x", {etag}').status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200
    play_one(game, users)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_the_etag_stays_while_only_the_clock_runs():
    """`time_left_seconds` counts down under one weak ETag: the answer means the same."""
    game, users = started_game(2, engine="stone_age", seed="etag-clock")
    client = token_client(users[0])
    url = f"/api/v1/games/{game.pk}/"
    first = client.get(url)
    left = [seat["time_left_seconds"] for seat in first.json()["seats"]]
    assert any(seconds for seconds in left)
    with time_machine.travel(timezone.now() + timedelta(minutes=7), tick=False):
        later = client.get(url)
        assert [seat["time_left_seconds"] for seat in later.json()["seats"]] != left
        assert later["ETag"] == first["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_changes_without_a_new_version_change_the_etag():
    """A join, a renamed player and a vacation that starts change what the game shows, not its
    version: the ETag changes all the same."""
    game, users = open_game(2, engine="stone_age")
    url = f"/api/v1/games/{game.pk}/"
    client = token_client(users[0])
    tags = [client.get(url)["ETag"]]
    services.game_leave(game_id=game.pk, user=users[1])
    tags.append(client.get(url)["ETag"])
    services.game_join(game_id=game.pk, user=users[1])
    tags.append(client.get(url)["ETag"])
    type(users[1]).objects.filter(pk=users[1].pk).update(display_name="Ada")
    answer = client.get(url, HTTP_IF_NONE_MATCH=tags[-1])
    assert answer.status_code == 200 and "Ada" in {s["player"] for s in answer.json()["seats"]}
    tags.append(answer["ETag"])
    now = timezone.now()
    Vacation.objects.create(user=users[1], starts_at=now - timedelta(hours=1),
                            ends_at=now + timedelta(days=2))
    answer = client.get(url, HTTP_IF_NONE_MATCH=tags[-1])
    assert answer.status_code == 200
    assert any(seat["on_vacation_until"] for seat in answer.json()["seats"])
    tags.append(answer["ETag"])
    assert Game.objects.get(pk=game.pk).version == 0
    assert len(set(tags)) == len(tags), tags


@pytest.mark.parametrize("path", PATHS)
def test_each_viewer_and_language_has_its_own_etag(path):
    """Seats, a spectator and languages each get their own ETag, and nobody gets a 304 with
    another viewer's: a tag never stands for an answer with someone else's hidden cards."""
    game, users = started_game(3, engine="seven_wonders", seed="etag-viewers")
    url = path.format(id=game.pk)
    alice, bob = token_client(users[0]), token_client(users[1])
    spectator = token_client(UserFactory())
    tags = {"alice": alice.get(url)["ETag"], "bob": bob.get(url)["ETag"],
            "spectator": spectator.get(url)["ETag"],
            "alice in Italian": alice.get(url, HTTP_ACCEPT_LANGUAGE="it")["ETag"]}
    users[0].language = "it"
    users[0].save(update_fields=["language"])
    with translation.override(None):  # her token's requests switch this thread to Italian
        tags["alice, Italian chosen"] = alice.get(url)["ETag"]
    # The language is the same whether the player chose it or their client asked for it.
    assert tags.pop("alice, Italian chosen") == tags["alice in Italian"]
    assert len(set(tags.values())) == len(tags), tags
    for name, tag in tags.items():
        for other, client in (("bob", bob), ("spectator", spectator)):
            if name != other:
                answer = client.get(url, HTTP_IF_NONE_MATCH=tag)
                assert answer.status_code == 200, (name, other)


def test_a_caller_who_may_not_see_the_game_gets_404_whatever_the_etag():
    game, users = started_game(2, engine="stone_age", seed="etag-private")
    Game.objects.filter(pk=game.pk).update(allow_spectators=False)
    url = f"/api/v1/games/{game.pk}/"
    tag = token_client(users[0]).get(url)["ETag"]
    outsider = token_client(UserFactory())
    for sent in (tag, "*"):
        for path in PATHS:
            answer = outsider.get(path.format(id=game.pk), HTTP_IF_NONE_MATCH=sent)
            assert answer.status_code == 404, (path, sent, answer.status_code)


def test_a_304_is_one_query_more_than_the_floor_and_never_reads_the_state():
    game, users = started_game(2, engine="stone_age", seed="etag-queries")
    client = token_client(users[0])
    url = f"/api/v1/games/{game.pk}/"
    tag = client.get(url)["ETag"]
    client.get("/api/v1/engines/")  # the token's last use is noted once a minute: not in both
    with CaptureQueriesContext(connection) as floor:
        assert client.get("/api/v1/engines/").status_code == 200
    for path in PATHS:
        url = path.format(id=game.pk)
        tag = client.get(url)["ETag"]
        with CaptureQueriesContext(connection) as conditional:
            assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
        assert len(conditional) == len(floor) + 1, [q["sql"] for q in conditional]
        assert not any('"games_game"."state"' in query["sql"] for query in conditional)
        assert not any("games_action" in query["sql"] for query in conditional)


def test_opening_the_game_marks_the_turn_seen_on_a_304_too():
    game, users = started_game(2, engine="stone_age", seed="etag-seen")
    client = token_client(users[0])
    url = f"/api/v1/games/{game.pk}/"
    tag = client.get(url)["ETag"]
    Seat.objects.filter(game=game, user=users[0]).update(turn_notified_at=timezone.now())
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert Seat.objects.get(game=game, user=users[0]).turn_notified_at is None


def test_the_log_since_a_sequence_number():
    game, users = started_game(3, engine="seven_wonders", seed="etag-since")
    for _ in range(3):
        play_one(game, users)
    client = token_client(users[0])
    url = f"/api/v1/games/{game.pk}/log/"
    everything = [entry["sequence"] for entry in client.get(url).json()["results"]]
    assert len(everything) >= 3
    later = client.get(url, {"since": everything[0]}).json()["results"]
    assert [entry["sequence"] for entry in later] == everything[1:]
    assert client.get(url, {"since": everything[-1]}).json()["results"] == []
    for bad in ("-1", "x", "1.5", "٣", "9" * 13):
        answer = client.get(url, {"since": bad})
        assert answer.status_code == 400 and answer.json()["code"], (bad, answer.content)
