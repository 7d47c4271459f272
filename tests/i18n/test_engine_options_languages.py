"""The games' own words in the reader's language: GET /api/v1/engines/ (names, option labels,
help and choice labels, by Accept-Language or the signed-in player's language, the same keys
in every language), the new-game form's options, and the score breakdowns of a finished game."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from games import services
from games.engines.registry import get_engine
from games.engines.seven_wonders.scoring import CATEGORIES
from games.models import Game, GameStatus
from games.presentation.texts import category_label
from tests.api.test_games_api import client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LATIN = re.compile(r"[A-Za-z]")
SEVEN_WONDERS = {"fa": "عجایب هفتگانه", "zh-hans": "七大奇迹", "it": "7 Wonders"}


def _seven_wonders(answer) -> dict:
    assert answer.status_code == 200, answer.content
    return next(engine for engine in answer.json() if engine["slug"] == "seven_wonders")


def _words(engine: dict) -> list[str]:
    return [word for option in engine["options"]
            for word in (option["label"], option["help"], *option["choice_labels"].values())]


@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
def test_the_engines_list_follows_accept_language_and_keeps_its_keys(language):
    english = _seven_wonders(APIClient().get("/api/v1/engines/", HTTP_ACCEPT_LANGUAGE="en"))
    translated = _seven_wonders(APIClient().get("/api/v1/engines/",
                                                HTTP_ACCEPT_LANGUAGE=language))
    assert english["name"] == "7 Wonders" and translated["name"] == SEVEN_WONDERS[language]
    assert english["options"][0]["label"] == "Wonder boards"
    # The same keys and values to send; only the words people read change.
    assert set(translated) == set(english)
    for mine, theirs in zip(translated["options"], english["options"], strict=True):
        assert set(mine) == set(theirs)
        assert (mine["name"], mine["choices"], mine["default"]) == (
            theirs["name"], theirs["choices"], theirs["default"])
        assert set(mine["choice_labels"]) == set(mine["choices"])
    for word, english_word in zip(_words(translated), _words(english), strict=True):
        assert word != english_word
        if language != "it":
            # The only Latin letters left are the board sides' own names, A and B.
            assert not LATIN.search(re.sub(r"(?<![A-Za-z])[AB](?![A-Za-z])", "", word)), word


def test_a_signed_in_clients_language_wins_over_accept_language():
    client = client_for(UserFactory(language="fa"))
    engine = _seven_wonders(client.get("/api/v1/engines/", HTTP_ACCEPT_LANGUAGE="it"))
    assert engine["name"] == SEVEN_WONDERS["fa"]
    detail = client.get("/api/v1/engines/seven_wonders/").json()
    assert detail["options"] == engine["options"] and "action_schema" in detail


@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
def test_the_new_game_form_shows_the_options_in_the_players_language(client, language):
    client.force_login(UserFactory(language=language))
    page = client.get("/games/new/").content.decode()
    english = get_engine("seven_wonders").options
    for option in english:
        assert f">{option['label']}<" not in page and option["help"] not in page
        for label in option["choice_labels"].values():
            assert f">{label}</option>" not in page
    translated = _seven_wonders(APIClient().get("/api/v1/engines/",
                                                HTTP_ACCEPT_LANGUAGE=language))
    for word in _words(translated):
        assert word.replace("'", "&#x27;") in page
    assert f"{SEVEN_WONDERS[language]}" in page


def test_a_game_created_with_translated_options_keeps_their_values(client):
    user = UserFactory(language="fa")
    client.force_login(user)
    response = client.post("/games/new/", {
        "engine": "seven_wonders", "num_players": 3, "time_per_move": 86400, "reserve": 0,
        "max_consecutive_timeouts": 3, "allow_spectators": "on", "rated": "on",
        "option__seven_wonders__wonders": "chosen", "option__seven_wonders__sides": "B"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get(created_by=user).options == {"wonders": "chosen", "sides": "B"}


@pytest.mark.parametrize("language, military", [("fa", "نظامی"), ("zh-hans", "军事"),
                                                ("it", "Militare")])
def test_score_breakdowns_name_their_categories_in_the_readers_language(language, military):
    players = [UserFactory(language=language) for _ in range(2)]
    game = services.game_create(creator=players[0], engine_slug="seven_wonders", num_players=2)
    services.game_join(game_id=game.pk, user=players[1], via_link=True)
    services.game_start(game_id=game.pk, user=players[0])
    breakdown = {category: 3 for category in CATEGORIES}
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED, finished_at=timezone.now(),
        result={"scores": [21, 14], "winners": [0], "breakdown": [breakdown, breakdown]})
    client = Client()
    client.force_login(players[0])
    for path in (f"/games/{game.pk}/", "/games/finished/", f"/users/{players[0].username}/"):
        page = client.get(path).content.decode()
        assert military in page, path
        assert "military" not in page and "treasury" not in page, path
    # In the scoring pad's order (PostgreSQL's JSONB keeps the keys in an order of its own).
    page = client.get(f"/games/{game.pk}/").content.decode()
    standings = page[page.index('class="final-scores"'):]
    with translation.override(language):
        names = [category_label("seven_wonders", category) for category in CATEGORIES]
    positions = [standings.index(f"<li>{name} ") for name in names]
    assert positions == sorted(positions), names
