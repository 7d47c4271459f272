"""The schema says what the API does: each engine's JSON Schemas (GET /api/v1/engines/{slug}/)
accept the real legal actions and views of random games; every operation is summarised,
tagged and named; every error it can answer is documented with the one Error component, and
real error bodies match that component; request bodies are JSON only."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import jsonschema
import pytest
import time_machine
from rest_framework.test import APIClient

from games.engines.registry import all_engines, get_engine
from games.presentation.texts import view_texts
from tests.api.clients import token_client
from tests.engines.conformance import RANDOM_GAMES
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db

ENGINES = [engine.slug for engine in all_engines() if engine.slug != "toy"]
#: Random games per engine: one in `make test`, 12 in CI's fuzz run (`make fuzz` runs this test).
GAMES = max(1, RANDOM_GAMES // 4)


@pytest.fixture(scope="module")
def schema():
    answer = APIClient().get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    return answer.json()


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


@pytest.mark.slow
@pytest.mark.parametrize("slug", ENGINES)
def test_random_games_validate_against_the_served_json_schemas(slug):
    served = APIClient().get(f"/api/v1/engines/{slug}/")
    assert served.status_code == 200
    body = served.json()
    actions = jsonschema.Draft202012Validator(body["action_schema"])
    views = jsonschema.Draft202012Validator(body["view_schema"])
    jsonschema.Draft202012Validator.check_schema(body["action_schema"])
    jsonschema.Draft202012Validator.check_schema(body["view_schema"])
    engine = get_engine(slug)
    checked_actions = checked_views = 0
    for number in range(GAMES):
        chooser = random.Random(number)
        players = chooser.randint(max(2, engine.min_players), engine.max_players)
        state = engine.new_game(players, f"schema-{slug}-{number}", {})
        for step in range(20_000):
            if step % 7 == 0 or engine.is_over(state):
                for viewer in [None, *range(players)]:
                    # As the API serves it: the view's texts read (here in English).
                    views.validate(view_texts(slug, engine.view(state, viewer), language="en"))
                    checked_views += 1
            if engine.is_over(state):
                break
            if engine.ready_to_resolve(state):
                state = engine.resolve(state)
                continue
            seat = chooser.choice(engine.active_seats(state))
            legal = engine.legal_actions(state, seat)
            for action in legal:
                actions.validate(action)
            checked_actions += len(legal)
            state = engine.apply(state, seat, chooser.choice(legal))
    print(f"\n{slug}: {checked_actions} legal actions and {checked_views} views validated")
    # The schemas are not `Any`: a made-up action and a view missing a part are refused.
    assert not actions.is_valid({"type": "no_such_action"})
    assert not views.is_valid({"round": 1})


def test_an_unknown_engine_is_a_json_404():
    answer = APIClient().get("/api/v1/engines/chess/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_every_operation_is_summarised_tagged_and_named(schema):
    seen = set()
    for path, method, operation in operations(schema):
        name = operation["operationId"]
        assert operation.get("summary"), (method, path)
        assert operation.get("tags") and "v1" not in operation["tags"], (method, path)
        assert name.islower() and not name.startswith("v1_") and name not in seen, name
        seen.add(name)
    assert {"submit_action", "list_legal_actions", "resign_game", "export_game",
            "create_token", "revoke_token", "get_engine", "login_with_password"} <= seen
    assert schema["servers"] and schema["servers"][0]["url"].startswith("http")
    assert "/api/writing-a-client/" in schema["info"]["description"]


def test_request_bodies_are_json_only(schema):
    for path, _method, operation in operations(schema):
        if "requestBody" in operation:
            assert list(operation["requestBody"]["content"]) == ["application/json"], path


def test_the_error_responses_are_documented_with_one_component(schema):
    error = schema["components"]["schemas"]["Error"]
    assert sorted(error["required"]) == ["code", "details", "message"]
    expected = {
        ("post", "/api/v1/games/{id}/actions"): {"400", "401", "403", "404", "409", "422",
                                                  "429"},
        ("get", "/api/v1/games/{id}"): {"401", "404", "429"},
        ("post", "/api/v1/auth/token"): {"400", "401", "403", "429"},
        ("post", "/api/v1/games/{id}/resign"): {"401", "403", "404", "409", "429"},
    }
    for (method, path), codes in expected.items():
        responses = schema["paths"][path][method]["responses"]
        assert codes <= set(responses), (method, path, set(responses))
    for path, method, operation in operations(schema):
        for code, response in operation["responses"].items():
            if code.startswith("4"):
                assert response["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/Error"}, (method, path, code)


def test_the_legal_action_listing_is_documented_as_served(schema):
    game, users = started_game(3, engine="seven_wonders", seed="listing")
    served = token_client(users[0]).get(f"/api/v1/games/{game.pk}/actions/").json()
    documented = schema["paths"]["/api/v1/games/{id}/actions"]["get"]
    response = documented["responses"]["200"]["content"]["application/json"]["schema"]
    assert response["type"] == "array" and isinstance(served, list) and served
    assert not any(p["name"] in ("page", "page_size") for p in documented.get("parameters", []))
    item = schema["components"]["schemas"]["LegalAction"]
    assert set(item["required"]) == set(served[0]) == {"index", "action", "description", "text"}
    assert item["properties"]["action"]["type"] == "object"


def test_real_error_bodies_match_the_error_component(schema):
    # The component refers to others (its code's enum, its details): resolved in the schema.
    error = {"$ref": "#/components/schemas/Error", "components": schema["components"]}
    game, users = started_game(3, engine="seven_wonders", seed="errors")
    player = token_client(users[0])
    answers = {
        400: player.post(f"/api/v1/games/{game.pk}/actions/", {"version": -1}, format="json"),
        401: APIClient(HTTP_AUTHORIZATION="Bearer tp_nonsense").get("/api/v1/me/"),
        403: token_client(UserFactory()).post(f"/api/v1/games/{game.pk}/resign/"),
        404: player.get("/api/v1/games/999999/"),
        409: player.post(f"/api/v1/games/{game.pk}/join/"),
        422: player.post(f"/api/v1/games/{game.pk}/actions/",
                         {"action": {"type": "nonsense"}, "version": game.version},
                         format="json"),
    }
    for status, answer in answers.items():
        assert answer.status_code == status, (status, answer.content)
        jsonschema.validate(answer.json(), error)
    unknown = APIClient().get("/api/v1/no/such/place/")
    assert unknown.status_code == 404 and unknown["Content-Type"] == "application/json"
    jsonschema.validate(unknown.json(), error)


def test_every_documented_path_is_served_with_and_without_the_final_slash(schema):
    game, users = started_game(3, engine="seven_wonders", seed="slashes")
    player = token_client(users[0])
    assert all(not path.endswith("/") for path in schema["paths"])
    for path in ("/api/v1/games/{id}", "/api/v1/games/{id}/actions", "/api/v1/games/{id}/log",
                 "/api/v1/engines/{slug}", "/api/v1/me/games"):
        url = path.format(id=game.pk, slug="seven_wonders")
        # The clock stands still between the two: a deadline's seconds left are of their moment.
        with time_machine.travel(datetime.now(UTC), tick=False):
            bare, slashed = player.get(url), player.get(f"{url}/")
        assert bare.status_code == slashed.status_code == 200, (url, bare.status_code)
        assert bare.json() == slashed.json()
    legal = player.get(f"/api/v1/games/{game.pk}/actions").json()
    moved = player.post(f"/api/v1/games/{game.pk}/actions",
                        {"action": legal[0]["action"], "version": game.version}, format="json")
    assert moved.status_code == 200, moved.content
    login = APIClient().post("/api/v1/auth/token", {"username": "nobody", "password": "x"},
                             format="json")
    assert login.status_code == 401 and login.json()["code"] == "authentication_failed"
    assert APIClient().get("/api/v1/no/such/place").json()["code"] == "not_found"
