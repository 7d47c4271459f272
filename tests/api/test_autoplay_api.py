"""/api/v1/games/{id}/queue/, /api/v1/games/{id}/autoplay/ and /api/v1/me/autoplay/: my queued
conditional moves and my automatic-move settings, mine alone, with JSON errors for bad input."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from games.engines import registry
from games.models import Action
from tests.api.clients import token_client
from tests.factories import UserFactory, committed, started_game
from tests.services.chain_engine import chain_engine

pytestmark = pytest.mark.django_db

SECRET = {"type": "take", "spot": "c", "plan": "secret-plan-7f3a"}


@pytest.fixture(autouse=True)
def _chain_engine_registered():
    registry.register(chain_engine)
    yield
    registry.unregister(chain_engine.slug)


@pytest.fixture
def table():
    game, users = started_game(3, engine="chain")
    return game, users, [token_client(user) for user in users]


def test_queue_put_get_delete_and_play(table):
    game, users, clients = table
    url = f"/api/v1/games/{game.pk}/queue/"
    assert clients[1].get(url).json() == {"version": game.version, "decisions": []}
    queue = [[{"type": "take", "spot": "a"}, {"type": "take", "spot": "c"}]]
    answer = clients[1].put(url, {"decisions": queue}, format="json")
    assert answer.status_code == 200, answer.content
    assert clients[1].get(url).json()["decisions"] == queue
    assert clients[1].delete(url).status_code == 204
    assert clients[1].get(url).json()["decisions"] == []
    clients[1].put(url, {"decisions": queue}, format="json")
    with committed():
        moved = clients[0].post(f"/api/v1/games/{game.pk}/actions/",
                                {"action": {"type": "take", "spot": "a"},
                                 "version": game.version}, format="json")
    assert moved.status_code == 200, moved.content
    log = clients[2].get(f"/api/v1/games/{game.pk}/log/").json()["results"]
    assert [(e["seat_number"], e["source"]) for e in log][:3] == [(0, "api"), (1, "queued"),
                                                                   (1, "auto")]
    assert clients[1].get(url).json()["decisions"] == []


def test_a_queue_is_seen_by_nobody_else(table):
    game, users, clients = table
    assert clients[1].put(f"/api/v1/games/{game.pk}/queue/", {"decisions": [[SECRET]]},
                          format="json").status_code == 200
    spectator = token_client(UserFactory())
    for client in (clients[0], clients[2], spectator, APIClient()):
        for path in ("", "log/", "actions/", "chat/", "queue/", "autoplay/"):
            text = client.get(f"/api/v1/games/{game.pk}/{path}").content.decode()
            assert "secret-plan-7f3a" not in text, path
        text = client.get("/api/v1/me/games/").content.decode()
        assert "secret-plan-7f3a" not in text
    assert spectator.get(f"/api/v1/games/{game.pk}/queue/").json()["code"] == "not_allowed"
    assert "secret-plan-7f3a" in clients[1].get(f"/api/v1/games/{game.pk}/queue/").content.decode()


def test_bad_queues_and_a_queue_for_the_move_at_hand_are_refused_in_json(table):
    game, users, clients = table
    url = f"/api/v1/games/{game.pk}/queue/"
    for body in ({"decisions": []}, {"decisions": [[1]]}, {"decisions": "take c"}, {},
                 {"decisions": [[{"type": "take"}]] * 4}):
        answer = clients[1].put(url, body, format="json")
        assert answer.status_code == 400, body
        assert {"code", "message"} <= set(answer.json())
    answer = clients[0].put(url, {"decisions": [[{"type": "take", "spot": "a"}]]},
                            format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "your_move"
    assert APIClient().put(url, {"decisions": [[SECRET]]}, format="json").status_code == 401


def test_game_settings_switch_forced_moves_and_orders(table):
    game, users, clients = table
    url = f"/api/v1/games/{game.pk}/autoplay/"
    now = clients[2].get(url).json()
    assert now["auto_forced"] is None and now["auto_forced_in_force"] is True
    assert now["orders_in_force"] == {"payment": "coin"}
    answer = clients[2].put(url, {"auto_forced": False, "standing_orders": {"payment": "ask"}},
                            format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["auto_forced_in_force"] is False
    assert answer.json()["orders_in_force"] == {"payment": "ask"}
    bad = clients[2].put(url, {"standing_orders": {"payment": "gold"}}, format="json")
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_orders"
    for number, spot in ((0, "a"), (1, "b")):
        game.refresh_from_db()
        with committed():
            clients[number].post(f"/api/v1/games/{game.pk}/actions/",
                                 {"action": {"type": "take", "spot": spot},
                                  "version": game.version}, format="json")
    game.refresh_from_db()
    assert chain_engine.active_seats(game.state) == [2]  # asked, though only c is left
    assert not Action.objects.filter(game=game, seat_number=2).exists()


def test_profile_defaults(table):
    game, users, clients = table
    url = "/api/v1/me/autoplay/"
    mine = clients[0].get(url).json()
    assert mine["auto_play_forced"] is True
    assert mine["standing_orders"]["stone_age"]["feeding"] == "cheapest"
    assert "seven_wonders" not in mine["standing_orders"]
    answer = clients[0].put(url, {"auto_play_forced": False, "standing_orders": {
        "caverna": {"feeding": "crops_only"}}}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["standing_orders"]["caverna"]["feeding"] == "crops_only"
    users[0].refresh_from_db()
    assert users[0].auto_play_forced is False
    for body, words in (({"standing_orders": {"chess": {}}}, "no game"),
                        ({"standing_orders": {"seven_wonders": {}}}, "no standing orders"),
                        ({"standing_orders": {"caverna": {"feeding": "never"}}}, "must be one")):
        bad = clients[0].put(url, body, format="json")
        assert bad.status_code == 422 and words in bad.json()["message"], bad.content
    assert json.loads(clients[0].get(url).content)["standing_orders"]["caverna"]["feeding"] \
        == "crops_only"


@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
def test_the_declared_orders_read_in_the_callers_language(language):
    """The orders' labels, help and choices in the language the caller chose (a token client,
    whom the locale middleware does not see), in the game's settings and in the profile's."""
    from games.engines.stone_age import data as stone_age

    game, users = started_game(2, engine="stone_age", seed="orders-language")
    users[0].language = language
    users[0].save(update_fields=["language"])
    client = token_client(users[0])
    english = {order["name"]: order for order in stone_age.ORDERS}
    for declared in (client.get(f"/api/v1/games/{game.pk}/autoplay/").json()["declared"],
                     client.get("/api/v1/me/autoplay/").json()["declared"]["stone_age"]):
        assert [order["name"] for order in declared] == list(english)
        for order in declared:
            source = english[order["name"]]
            assert order["label"] != source["label"] and order["help"] != source["help"]
            assert [choice["value"] for choice in order["choices"]] == [
                choice["value"] for choice in source["choices"]]
            assert all(choice["label"] != original["label"] for choice, original in
                       zip(order["choices"], source["choices"], strict=True))
    english_client = token_client(users[1])
    assert english_client.get(f"/api/v1/games/{game.pk}/autoplay/").json()["declared"] == (
        stone_age.ORDERS)
