"""Commands typed through `POST /api/v1/games/{id}/chat/`: the answer is a system line (201) in
the caller's language, a refusal carries the code its own endpoint answers, and a line meant for
one player is listed to that player alone. The game page's chat takes the same commands."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, GameStatus
from tests.api.clients import token_client
from tests.factories import UserFactory, committed

pytestmark = pytest.mark.django_db


def post(client, game, body):
    with committed():
        return client.post(f"/api/v1/games/{game.pk}/chat/", {"body": body}, format="json")


def test_a_table_filled_and_started_through_the_api_chat():
    anna, bruno = UserFactory(username="anna"), UserFactory(username="bruno", language="it")
    game = services.game_create(creator=anna, engine_slug="toy", num_players=2)
    as_anna, as_bruno = token_client(anna), token_client(bruno)

    early = post(as_anna, game, "/start")
    assert early.status_code == 201
    assert early.json() | {"id": 0, "created_at": ""} == {
        "id": 0, "created_at": "", "author": anna.public_name, "username": "anna",
        "body": "/start refused: Toy needs at least 2 players; 1 have joined.", "hidden": False,
        "kind": "system", "key": "refused", "private": True,
        "params": {"command": "/start", "code": "lobby_error",
                   "reason": "Toy needs at least 2 players; 1 have joined."}}

    joined = post(as_bruno, game, "／Join")
    assert joined.status_code == 201
    assert (joined.json()["key"], joined.json()["private"]) == ("joined", False)
    assert joined.json()["body"] == "bruno si è unito al tavolo."  # Bruno reads Italian

    assert post(as_anna, game, "/start").json()["body"] == "anna started the game."
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE

    # Anna's refusal is hers alone; the lines everyone reads, each in their own language.
    listed = [line["body"] for line in as_bruno.get(
        f"/api/v1/games/{game.pk}/chat/").json()["results"]]
    assert listed == ["anna ha iniziato la partita.", "bruno si è unito al tavolo."]
    assert len(as_anna.get(f"/api/v1/games/{game.pk}/chat/").json()["results"]) == 3


def test_refusals_through_the_api_chat_carry_the_endpoints_codes():
    anna, bruno, carla = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=anna, engine_slug="toy", num_players=2)
    services.game_join(game_id=game.pk, user=bruno)
    as_carla = token_client(carla)
    full = post(as_carla, game, "/join").json()
    direct = token_client(carla).post(f"/api/v1/games/{game.pk}/join/")
    assert (full["key"], full["params"]["code"]) == ("refused", direct.json()["code"])
    assert full["params"]["reason"] == direct.json()["message"] == "This game is full."
    assert post(token_client(bruno), game, "/start").json()["params"]["code"] == "not_allowed"
    unknown = post(as_carla, game, "/dance").json()
    assert unknown["key"] == "unknown" and unknown["body"].startswith("/dance is not a command.")
    assert not game.chat_messages.filter(kind="message").exists()


def test_commands_on_the_game_page(client):
    anna, bruno = UserFactory(username="anna"), UserFactory(username="bruno")
    game = services.game_create(creator=anna, engine_slug="toy", num_players=2)
    client.force_login(bruno)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/chat/"' in page, "a visitor may type /join"
    with committed():
        page = client.post(f"/games/{game.pk}/chat/", {"body": "/join"}, follow=True)
    assert "bruno joined the table." in page.content.decode()
    assert game.seats.filter(user=bruno).exists()
    client.force_login(anna)
    with committed():
        page = client.post(f"/games/{game.pk}/chat/", {"body": "/aiuto"}, follow=True)
    text = page.content.decode()
    assert "Commands before the game starts" in text and "only you see this" in text
    client.force_login(bruno)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Commands before the game starts" not in page


def test_what_a_command_echoes_is_escaped_on_the_page(client, settings):
    settings.GAME_INVITATION_MIN_SECONDS = 0
    anna = UserFactory()
    game = services.game_create(creator=anna, engine_slug="toy", num_players=2)
    client.force_login(anna)
    with committed():
        page = client.post(f"/games/{game.pk}/chat/", {"body": "/invite <b>x</b>"}, follow=True)
    text = page.content.decode()
    assert "&lt;b&gt;x&lt;/b&gt;" in text and "<b>x</b>" not in text


def test_a_private_line_at_its_own_address_is_read_by_its_player_alone():
    anna, bruno = UserFactory(), UserFactory()
    game = services.game_create(creator=anna, engine_slug="toy", num_players=2)
    refused = post(token_client(anna), game, "/start")
    assert refused.json()["private"] is True
    address = refused["Location"]
    assert token_client(anna).get(address).json()["id"] == refused.json()["id"]
    assert token_client(bruno).get(address).status_code == 404
    public = post(token_client(bruno), game, "/join")
    assert token_client(anna).get(public["Location"]).json()["key"] == "joined"
