"""ETag and If-None-Match on the game and its log, and the log's `since`: a client polling a
game downloads nothing until it changes, and each viewer's ETag covers only what they see."""

from __future__ import annotations

import pytest

from games import selectors, services
from tests.api.clients import token_client
from tests.factories import committed, started_game

pytestmark = pytest.mark.django_db


def play_one(game, users):
    game.refresh_from_db()
    mover = next(user for user in users if selectors.legal_actions_for(game, user))
    with committed():
        services.game_action_submit(game_id=game.pk, user=mover, expected_version=game.version,
                                    action=selectors.legal_actions_for(game, mover)[0]["action"])


@pytest.mark.parametrize("path", ["/api/v1/games/{id}/", "/api/v1/games/{id}/log/"])
def test_an_unchanged_game_answers_304_and_a_move_changes_the_etag(path):
    game, users = started_game(3, engine="seven_wonders", seed="etag")
    client = token_client(users[0])
    url = path.format(id=game.pk)
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200
    play_one(game, users)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_each_viewer_has_their_own_etag_and_cannot_use_anothers():
    game, users = started_game(3, engine="seven_wonders", seed="etag-viewers")
    url = f"/api/v1/games/{game.pk}/"
    alice, bob = token_client(users[0]), token_client(users[1])
    alices = alice.get(url)["ETag"]
    assert bob.get(url)["ETag"] != alices  # different hands, different answers
    answer = bob.get(url, HTTP_IF_NONE_MATCH=alices)
    assert answer.status_code == 200  # bob gets his own view, never "same as alice's"


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
