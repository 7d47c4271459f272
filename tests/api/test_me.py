"""GET /api/v1/me/ and /api/v1/me/games/: who I am and my games, my turn first, with the time
left and the last move as I may see it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import selectors, services
from tests.api.clients import token_client
from tests.factories import UserFactory, committed, open_game, started_game

pytestmark = pytest.mark.django_db


def test_me_is_my_own_account_and_needs_a_token():
    user = UserFactory(display_name="Alice Liddell", timezone="Europe/Rome")
    me = token_client(user).get("/api/v1/me/").json()
    assert me["username"] == user.username and me["display_name"] == "Alice Liddell"
    assert me["email"] == user.email and me["timezone"] == "Europe/Rome"
    # The token login needs a confirmed address (ACCOUNT_EMAIL_VERIFICATION=mandatory).
    assert me["email_confirmed"] is True
    assert APIClient().get("/api/v1/me/").status_code == 401


def test_my_games_my_turn_first_with_time_left_and_the_last_move():
    game, users = started_game(3, engine="seven_wonders", seed="me-games")
    other, _ = open_game(2)  # someone else's open game: not mine
    waiting_for_others, (_, alice_again) = open_game(2)
    alice = users[0]
    client = token_client(alice)
    # alice picks: the 7 Wonders turn still waits for the others, not for her.
    pick = selectors.legal_actions_for(game, alice)[0]["action"]
    assert client.post(f"/api/v1/games/{game.pk}/actions/",
                       {"action": pick, "version": game.version},
                       format="json").status_code == 200
    bob = users[1]
    listed = token_client(bob).get("/api/v1/me/games/").json()["results"]
    assert [row["id"] for row in listed] == [game.pk]
    row = listed[0]
    assert row["is_my_turn"] is True and 0 < row["seconds_left"] <= 7 * 86400
    assert row["title"] == f"7 Wonders #{game.pk}" and row["your_seat"] == 1
    assert row["players"] == [user.public_name for user in users]
    last = row["last_move"]
    assert last["player"] == alice.public_name
    assert last["text"] == f"{alice.public_name} chose a card."  # not which card: hidden
    mine = client.get("/api/v1/me/games/").json()["results"]
    assert [r["id"] for r in mine] == [game.pk] and mine[0]["is_my_turn"] is False
    assert mine[0]["last_move"]["text"] != last["text"]  # alice sees her own pick
    assert client.get("/api/v1/me/games/", {"awaiting": "true"}).json()["results"] == []
    assert [r["id"] for r in token_client(bob).get(
        "/api/v1/me/games/", {"awaiting": "true"}).json()["results"]] == [game.pk]
    # My turn comes first: alice's toy game waits for her bid, the 7 Wonders game does not.
    toy = services.game_create(creator=alice, engine_slug="toy", num_players=2)
    services.game_join(game_id=toy.pk, user=UserFactory())
    with committed():
        services.game_start(game_id=toy.pk, user=alice)
    ordered = client.get("/api/v1/me/games/").json()["results"]
    assert [(r["id"], r["is_my_turn"]) for r in ordered] == [(toy.pk, True), (game.pk, False)]
    # Open games count as mine.
    both = token_client(alice_again).get("/api/v1/me/games/").json()["results"]
    assert [r["id"] for r in both] == [waiting_for_others.pk]
    assert client.get("/api/v1/me/games/", {"status": "bogus"}).status_code == 400
