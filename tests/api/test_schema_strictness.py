"""What the schema refuses is refused (400 in the error shape, nothing changed) and what it
allows is not refused as malformed: a request the rules refuse is a 422. The fast checks of
what tests/api/test_schemathesis.py finds against a live server."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from games.engines.registry import all_engines
from games.models import ChatMessage, Report, Seat
from tests.api.clients import token_client
from tests.factories import PASSWORD, UserFactory, confirm_email, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        answer = APIClient().get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    return answer.json()


@pytest.fixture
def table():
    game, users = started_game(2, engine="stone_age", seed="strict")
    return game, users, token_client(users[0])


def refused(answer, field: str, status: int = 400, code: str = "invalid") -> dict:
    assert answer.status_code == status, answer.content
    body = answer.json()
    assert body["code"] == code, body
    if status == 400:  # the field named, or one inside it (`decisions.0`)
        assert any(name == field or name.startswith(f"{field}.")
                   for name in body["details"]["fields"]), body
    return body


@pytest.mark.parametrize("page_size", ["null", "abc", "0", "-3", "2.5", ""])
def test_a_page_size_that_is_not_a_whole_number_from_1_is_refused(table, page_size):
    game, _, client = table
    for url in ("/api/v1/games/", f"/api/v1/games/{game.pk}/chat/", f"/api/v1/games/{game.pk}/log/",
                "/api/v1/me/games/", "/api/v1/leaderboard/stone_age/"):
        refused(client.get(url, {"page_size": page_size}), "page_size")


def test_a_page_size_above_the_largest_is_served_as_the_largest(table):
    _, _, client = table
    answer = client.get("/api/v1/games/", {"page_size": "5000"})
    assert answer.status_code == 200 and answer.json()["count"] == 1
    assert client.get("/api/v1/games/", {"page_size": "1"}).json()["results"]


@pytest.mark.parametrize("page", ["0", "-1", "null", "1000000001"])
def test_a_page_number_out_of_the_documented_range_is_refused(table, page):
    refused(table[2].get("/api/v1/games/", {"page": page}), "page")


def test_the_schema_documents_the_pages_as_served(schema):
    parameters = {parameter["name"]: parameter["schema"]
                  for parameter in schema["paths"]["/api/v1/games"]["get"]["parameters"]}
    assert parameters["page"] == {"type": "integer", "minimum": 1, "maximum": 10**9}
    assert parameters["page_size"]["type"] == "integer" and parameters["page_size"]["minimum"] == 1
    assert parameters["engine"]["enum"] == sorted(engine.slug for engine in all_engines())
    assert {"caverna", "seven_wonders", "stone_age"} <= set(parameters["engine"]["enum"])


@pytest.mark.parametrize("body", [0, 1.5, True, ["hello"], {"text": "hello"}])
def test_a_chat_body_that_is_not_a_string_is_refused_and_nothing_posted(table, body):
    game, _, client = table
    answer = client.post(f"/api/v1/games/{game.pk}/chat/", {"body": body}, format="json")
    refused(answer, "body")
    assert not ChatMessage.objects.filter(game=game).exists()
    posted = client.post(f"/api/v1/games/{game.pk}/chat/", {"body": "0"}, format="json")
    assert posted.status_code == 201 and posted.json()["body"] == "0"


@pytest.mark.parametrize("value", ["true", "yes", 1, 0, "false"])
def test_autoplay_switches_take_json_booleans_only(table, value):
    game, users, client = table
    seat = Seat.objects.get(game=game, user=users[0])
    before = seat.auto_forced
    answer = client.put(f"/api/v1/games/{game.pk}/autoplay/", {"auto_forced": value},
                        format="json")
    refused(answer, "auto_forced")
    seat.refresh_from_db()
    assert seat.auto_forced == before
    mine = client.put("/api/v1/me/autoplay/", {"auto_play_forced": value}, format="json")
    refused(mine, "auto_play_forced")
    assert User.objects.get(pk=users[0].pk).auto_play_forced == users[0].auto_play_forced
    set_off = client.put(f"/api/v1/games/{game.pk}/autoplay/", {"auto_forced": False},
                         format="json")
    assert set_off.status_code == 200 and set_off.json()["auto_forced"] is False


def test_wrong_credentials_are_a_401_with_the_challenge(schema):
    user = confirm_email(UserFactory())
    wrong = APIClient().post("/api/v1/auth/token/", {"username": user.username,
                                                     "password": PASSWORD + "x"}, format="json")
    body = refused(wrong, "", status=401, code="authentication_failed")
    assert wrong["WWW-Authenticate"] == 'Bearer realm="api"' and "token" not in body
    # A body that is no login at all stays a 400.
    refused(APIClient().post("/api/v1/auth/token/", {"username": 7, "password": PASSWORD},
                             format="json"), "username")
    assert "401" in schema["paths"]["/api/v1/auth/token"]["post"]["responses"]


def test_a_negative_since_is_refused_and_documented(table, schema):
    game, _, client = table
    refused(client.get(f"/api/v1/games/{game.pk}/log/", {"since": "-1"}), "since")
    since = next(parameter["schema"] for parameter in
                 schema["paths"]["/api/v1/games/{id}/log"]["get"]["parameters"]
                 if parameter["name"] == "since")
    assert since["minimum"] == 0


def test_an_empty_queued_decision_is_refused_as_the_schema_says(table, schema):
    game, users, client = table
    url = f"/api/v1/games/{game.pk}/queue/"
    for decisions in ([], [[]], [[{"type": "x"}]] * 4):
        refused(client.put(url, {"decisions": decisions}, format="json"), "decisions")
    assert Seat.objects.get(game=game, user=users[0]).move_queue == []
    request = schema["components"]["schemas"]["QueueSetRequest"]["properties"]["decisions"]
    assert request["minItems"] == 1 and request["items"]["minItems"] == 1


def test_orders_a_game_does_not_declare_are_a_422_and_the_schema_names_the_known(table,
                                                                                   schema):
    game, _, client = table
    unknown = client.put(f"/api/v1/games/{game.pk}/autoplay/",
                         {"standing_orders": {"breeding": "ask"}}, format="json")  # Caverna's
    refused(unknown, "", status=422, code="invalid_orders")
    mine = client.put("/api/v1/me/autoplay/", {"standing_orders": {"chess": {}}}, format="json")
    refused(mine, "", status=422, code="invalid_orders")
    orders = schema["components"]["schemas"]["ProfileSettingsRequest"]["properties"][
        "standing_orders"]
    assert orders["additionalProperties"] is False
    assert set(orders["properties"]) == {"caverna", "stone_age"}


def test_refusals_by_the_rules_are_422(table):
    game, users, client = table
    client.post(f"/api/v1/games/{game.pk}/chat/", {"body": "mine"}, format="json")
    own = ChatMessage.objects.get(game=game, author=users[0])
    for target, object_id in (("message", own.pk), ("message", 999_999), ("player", users[0].pk)):
        answer = client.post("/api/v1/reports/", {"target": target, "id": object_id,
                                                  "reason": "abuse"}, format="json")
        refused(answer, "", status=422, code="invalid_report")
    assert not Report.objects.exists()
    created = client.post("/api/v1/games/", {"engine": "stone_age", "num_players": 1},
                          format="json")
    refused(created, "", status=422, code="invalid_game_setup")


def test_an_engine_filter_must_name_a_game_even_empty(table):
    _, _, client = table
    refused(client.get("/api/v1/games/", {"engine": ""}), "engine")
    assert client.get("/api/v1/games/", {"engine": "stone_age"}).json()["count"] == 1


@pytest.mark.parametrize("value", ["null", "", "maybe", "2"])
def test_a_boolean_query_parameter_is_true_or_false_or_refused(table, value):
    _, _, client = table
    refused(client.get("/api/v1/games/", {"mine": value}), "mine")
    refused(client.get("/api/v1/me/games/", {"awaiting": value}), "awaiting")
    assert client.get("/api/v1/games/", {"mine": "true"}).json()["count"] == 1
    assert client.get("/api/v1/me/games/", {"awaiting": "false"}).status_code == 200


def test_a_bad_view_flag_is_refused_before_the_move_is_made(table):
    game, _, client = table
    from games import selectors

    player = next(user for user in (game.seats.get(number=0).user, game.seats.get(number=1).user)
                  if selectors.legal_actions_for(game, user))
    mover = token_client(player)
    action = selectors.legal_actions_for(game, player)[0]["action"]
    answer = mover.post(f"/api/v1/games/{game.pk}/actions/?view=null",
                        {"action": action, "version": game.version}, format="json")
    refused(answer, "view")
    game.refresh_from_db()
    assert game.version == 0 and not game.actions.exists()


@pytest.mark.parametrize("number", ["2", True, 2.5])
def test_numbers_are_json_numbers(table, number):
    game, _, client = table
    answer = client.post("/api/v1/games/", {"engine": "stone_age", "num_players": number},
                         format="json")
    refused(answer, "num_players")
    refused(client.post("/api/v1/games/", {"engine": "stone_age", "num_players": 2,
                                           "min_rating": "1" if number != 2.5 else False},
                        format="json"), "min_rating")
    made = client.post("/api/v1/games/", {"engine": "stone_age", "num_players": 2.0},
                       format="json")
    assert made.status_code == 201 and made.json()["num_players"] == 2


def test_a_player_filter_naming_nobody_is_not_found(table):
    _, users, client = table
    assert client.get("/api/v1/games/", {"player": "nobody-at-all"}).json()["code"] == "not_found"
    assert client.get("/api/v1/games/", {"player": users[1].username}).json()["count"] == 1
