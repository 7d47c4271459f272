"""POST /api/v1/games/{id}/add-bot/ takes an optional {"level": "search" | "hard" | "easy"}."""

from __future__ import annotations

import pytest

from games import services
from tests.api.clients import token_client
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_add_bot_at_a_level_and_a_wrong_level_is_a_clear_error():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="stone_age", num_players=4)
    client = token_client(user)
    url = f"/api/v1/games/{game.pk}/add-bot/"
    assert client.post(url).status_code == 200  # no body: the default level
    response = client.post(url, {"level": "easy"}, format="json")
    assert response.status_code == 200, response.content
    response = client.post(url, {"level": "hard"}, format="json")
    assert response.status_code == 200, response.content
    bots = [s for s in response.json()["seats"] if s["is_bot"]]
    assert [s["bot_level"] for s in bots] == ["search", "easy", "hard"]
    bad = client.post(url, {"level": "grandmaster"}, format="json")
    assert bad.status_code == 400, bad.content
    body = bad.json()
    assert body["code"] and "level" in str(body["details"]) and body["message"]
    assert game.seats.filter(is_bot=True).count() == 3
