"""REST API v1 through the HTTP layer: auth, lobby, moves, errors, log, schema."""

from __future__ import annotations

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import PASSWORD, UserFactory, confirm_email

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    confirm_email(user)
    client = APIClient()
    response = client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def assert_error(response, status, code, message_part=""):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code, body
    assert message_part in body["message"], body
    assert "details" in body


@pytest.fixture
def players():
    users = [UserFactory() for _ in range(3)]
    return users, [client_for(user) for user in users]


def create_started_game(players, count=2):
    users, clients = players
    response = clients[0].post(
        "/api/v1/games/", {"engine": "toy", "num_players": count, "time_per_move": 7200},
        format="json",
    )
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    for client in clients[1:count]:
        assert client.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = clients[0].post(f"/api/v1/games/{game_id}/start/")
    assert response.status_code == 200
    body = response.json()
    seat_client = {}
    for seat in body["seats"]:
        user_index = [u.username for u in users].index(seat["username"])
        seat_client[seat["number"]] = clients[user_index]
    return game_id, body, seat_client


def test_token_by_username_or_email_and_bad_credentials():
    user = confirm_email(UserFactory())
    client = APIClient()
    by_name = client.post("/api/v1/auth/token/", {"username": user.username, "password": PASSWORD})
    by_mail = client.post("/api/v1/auth/token/", {"username": user.email, "password": PASSWORD})
    assert by_name.status_code == by_mail.status_code == 200
    # Each login makes its own personal access token (listed, revocable on its own).
    assert by_name.json()["token"] != by_mail.json()["token"]
    for answer in (by_name, by_mail):
        assert answer.json()["token"].startswith("tp_")
        me = APIClient().get("/api/v1/me/",
                             HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
        assert me.json()["username"] == user.username
    wrong = client.post("/api/v1/auth/token/", {"username": user.username, "password": "nope"})
    assert_error(wrong, 401, "authentication_failed", "Unable to log in")
    assert wrong["WWW-Authenticate"] == 'Bearer realm="api"'
    assert "token" not in wrong.json()


def test_engines_list_describes_player_counts_and_options():
    response = APIClient().get("/api/v1/engines/")
    assert response.status_code == 200
    toy = next(engine for engine in response.json() if engine["slug"] == "toy")
    assert toy["min_players"] == 2 and toy["max_players"] == 4
    assert toy["options"][0]["name"] == "rounds"


def test_create_errors_are_clear_and_write_nothing(players):
    _, (client, *_) = players
    assert_error(
        client.post("/api/v1/games/", {"engine": "chess", "num_players": 2}, format="json"),
        400, "invalid", "Unknown game",
    )
    assert_error(
        client.post("/api/v1/games/", {"engine": "toy", "num_players": 5}, format="json"),
        422, "invalid_game_setup", "2 to 4 players",
    )
    assert_error(
        client.post("/api/v1/games/", {"engine": "toy", "num_players": 2, "time_per_move": 60},
                    format="json"),
        400, "invalid", "time_per_move",
    )
    malformed = client.post(
        "/api/v1/games/", data='{"engine": "toy", ', content_type="application/json"
    )
    assert_error(malformed, 400, "malformed_request", "not valid JSON")
    assert Game.objects.count() == 0


def test_anonymous_users_cannot_create_or_act():
    response = APIClient().post("/api/v1/games/", {"engine": "toy", "num_players": 2})
    assert_error(response, 401, "not_authenticated")


def test_lobby_errors(players):
    users, clients = players
    game_id = clients[0].post(
        "/api/v1/games/", {"engine": "toy", "num_players": 2}, format="json"
    ).json()["id"]
    assert_error(clients[1].post(f"/api/v1/games/{game_id}/start/"), 403, "not_allowed",
                 "created the game")
    assert clients[1].post(f"/api/v1/games/{game_id}/join/").status_code == 200
    assert_error(clients[2].post(f"/api/v1/games/{game_id}/join/"), 409, "lobby_error", "full")
    assert_error(clients[1].post(f"/api/v1/games/{game_id}/join/"), 409, "lobby_error",
                 "already have a seat")
    assert_error(APIClient().get("/api/v1/games/999999/"), 404, "not_found")


def test_a_full_turn_through_the_api(players):
    game_id, game, seat_client = create_started_game(players)
    assert game["status"] == "active" and game["version"] == 0
    assert game["time_per_move"] == 7200
    assert sorted(game["awaiting_seats"]) == [0, 1]
    legal = seat_client[0].get(f"/api/v1/games/{game_id}/actions/").json()
    assert [choice["description"] for choice in legal] == [
        "Seat 0 bid 1.", "Seat 0 bid 2.", "Seat 0 bid 3."
    ]
    response = seat_client[0].post(
        f"/api/v1/games/{game_id}/actions/", {"action": legal[2]["action"], "version": 0},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["sequence"], body["version"], body["replayed"]) == (1, 1, False)
    # Without asking, the answer is what a client needs to go on: no view, no game.
    assert (body["status"], body["awaiting_seats"]) == ("active", [1]) and "game" not in body
    assert "Preference-Applied" not in response
    # The other seat sees that a bid was made, not its amount.
    other = seat_client[1].get(f"/api/v1/games/{game_id}/").json()
    assert other["view"]["bids"] == ["hidden", None] and other["your_seat"] == 1
    # The log names players as the game's page does.
    first = Game.objects.get(pk=game_id).seats.get(number=0).player_name
    log = seat_client[1].get(f"/api/v1/games/{game_id}/log/").json()
    assert log["count"] == 1
    assert log["results"][0]["description"] == f"{first} placed a secret bid."
    own_log = seat_client[0].get(f"/api/v1/games/{game_id}/log/").json()
    assert own_log["results"][0]["description"] == body["description"] == f"{first} bid 3."
    assert "seed" not in str(other) and Game.objects.get(pk=game_id).seed not in str(other)


@pytest.mark.parametrize("ask", [{"HTTP_PREFER": "return=representation"}, {"query": "?view=1"}])
def test_a_move_answers_with_the_whole_game_when_asked(players, ask):
    game_id, _, seat_client = create_started_game(players)
    url = f"/api/v1/games/{game_id}/actions/" + ask.pop("query", "")
    response = seat_client[0].post(url, {"action": {"type": "bid", "amount": 3}, "version": 0},
                                   format="json", **ask)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["game"]["view"]["bids"] == [3, None] and body["game"]["version"] == 1
    assert body["game"]["awaiting_seats"] == body["awaiting_seats"] == [1]
    if "HTTP_PREFER" in ask:
        assert response["Preference-Applied"] == "return=representation"


def test_a_move_in_a_game_you_may_not_see_is_not_found(players):
    game_id, _, seat_client = create_started_game(players)
    Game.objects.filter(pk=game_id).update(allow_spectators=False)
    outsider = client_for(UserFactory())
    url = f"/api/v1/games/{game_id}/actions/"
    for body in ({"action": {"type": "bid", "amount": 1}, "version": 0}, {"version": "x"}):
        assert_error(outsider.post(url, body, format="json"), 404, "not_found", "no such game")
    assert_error(outsider.post("/api/v1/games/999999/actions/", {"version": 0}, format="json"),
                 404, "not_found", "")
    assert Game.objects.get(pk=game_id).version == 0


def test_move_errors_are_409_and_422_with_reasons(players):
    game_id, _, seat_client = create_started_game(players)
    url = f"/api/v1/games/{game_id}/actions/"
    ok = seat_client[0].post(url, {"action": {"type": "bid", "amount": 1}, "version": 0},
                             format="json")
    assert ok.status_code == 200
    # Seat 0's own move since version 0 makes its version-0 answer stale (409); seat 1's
    # choices did not change, so its answer to version 0 would still stand.
    assert_error(
        seat_client[0].post(url, {"action": {"type": "bid", "amount": 2}, "version": 0},
                            format="json"),
        409, "stale_version", "moved on",
    )
    assert_error(
        seat_client[1].post(url, {"action": {"type": "bid", "amount": 7}, "version": 1},
                            format="json"),
        422, "illegal_action", "not one of the legal actions",
    )
    assert_error(seat_client[1].post(url, {"version": 1}, format="json"), 400, "invalid", "action")
    assert_error(
        seat_client[1].post(url, {"action": {"type": "bid", "amount": 1}, "version": 1,
                                  "seat": 0}, format="json"),
        403, "not_allowed", "cannot act for seat 0",
    )
    outsider = client_for(UserFactory())
    assert_error(
        outsider.post(url, {"action": {"type": "bid", "amount": 1}, "version": 1}, format="json"),
        403, "not_allowed", "do not have a seat",
    )
    assert Game.objects.get(pk=game_id).version == 1


def test_idempotency_key_header_repeats_the_first_result(players):
    game_id, _, seat_client = create_started_game(players)
    url = f"/api/v1/games/{game_id}/actions/"
    payload = {"action": {"type": "bid", "amount": 2}, "version": 0}
    first = seat_client[0].post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    second = seat_client[0].post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert first.status_code == second.status_code == 200
    assert second.json()["replayed"] is True
    assert first.json()["sequence"] == second.json()["sequence"] == 1
    assert Game.objects.get(pk=game_id).version == 1


def test_list_filters_mine_and_awaiting(players):
    users, clients = players
    game_id, _, seat_client = create_started_game(players)
    open_id = clients[2].post("/api/v1/games/", {"engine": "toy", "num_players": 3},
                              format="json").json()["id"]
    mine = clients[0].get("/api/v1/games/?mine=true").json()
    assert [g["id"] for g in mine["results"]] == [game_id]
    open_games = APIClient().get("/api/v1/games/?status=open").json()
    assert [g["id"] for g in open_games["results"]] == [open_id]
    seat_client[0].post(f"/api/v1/games/{game_id}/actions/",
                        {"action": {"type": "bid", "amount": 1}, "version": 0}, format="json")
    assert seat_client[0].get("/api/v1/games/?awaiting=1").json()["count"] == 0
    assert seat_client[1].get("/api/v1/games/?awaiting=1").json()["count"] == 1
    assert_error(clients[0].get("/api/v1/games/?status=bogus"), 400, "invalid", "status")


def test_private_games_are_hidden_from_spectators(players):
    users, clients = players
    game_id = clients[0].post(
        "/api/v1/games/", {"engine": "toy", "num_players": 2, "allow_spectators": False},
        format="json",
    ).json()["id"]
    assert_error(clients[1].get(f"/api/v1/games/{game_id}/"), 404, "not_found")
    assert clients[0].get(f"/api/v1/games/{game_id}/").status_code == 200


def test_finished_game_refuses_moves(players):
    game_id, _, seat_client = create_started_game(players)
    from games.engines.registry import get_engine

    engine = get_engine("toy")
    while True:
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        seat = engine.active_seats(game.state)[0]
        with TestCase.captureOnCommitCallbacks(execute=True):
            seat_client[seat].post(
                f"/api/v1/games/{game_id}/actions/",
                {"action": engine.timeout_action(game.state, seat), "version": game.version},
                format="json",
            )
    detail = seat_client[0].get(f"/api/v1/games/{game_id}/").json()
    assert detail["status"] == "finished" and detail["result"]["winners"]
    assert_error(
        seat_client[0].post(f"/api/v1/games/{game_id}/actions/",
                            {"action": {"type": "bank"}, "version": detail["version"]},
                            format="json"),
        409, "game_not_running", "over",
    )


def test_openapi_schema_and_docs():
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    # Named without the final "/" (OpenAPI tools expect it); both forms are served.
    for path in ["/api/v1/auth/token", "/api/v1/engines", "/api/v1/games",
                 "/api/v1/games/{id}", "/api/v1/games/{id}/join", "/api/v1/games/{id}/leave",
                 "/api/v1/games/{id}/start", "/api/v1/games/{id}/actions",
                 "/api/v1/games/{id}/log"]:
        assert path in paths, path
    assert client.get("/api/docs/").status_code == 200


def test_token_endpoint_is_throttled(settings):
    client = APIClient()
    # A new login name each time: failures naming one login lock it sooner (tests/accounts).
    codes = [
        client.post("/api/v1/auth/token/", {"username": f"x{n}", "password": "y"}).status_code
        for n in range(12)
    ]
    assert codes[:10] == [401] * 10 and codes[-1] == 429
    body = client.post("/api/v1/auth/token/", {"username": "x", "password": "y"}).json()
    assert body["code"] == "throttled"
