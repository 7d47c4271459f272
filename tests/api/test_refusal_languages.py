"""A refused move's reason reads in the caller's language through the API: the engine's text
of the refusal, rendered in Persian, Chinese or Italian; English is the engine's own words."""

from __future__ import annotations

import json

import pytest

from games.engines.registry import get_engine
from games.models import Game
from games.presentation.texts import render_text
from tests.api.test_games_api import client_for
from tests.api.test_log_languages import _pick_phase
from tests.factories import started_game

pytestmark = pytest.mark.django_db

ENGLISH_NOT_IN_HAND = "That card is not in your hand."


def _refused(client, game: Game, action: dict, **headers) -> str:
    response = client.post(f"/api/v1/games/{game.pk}/actions/",
                           json.dumps({"action": action, "version": game.version}),
                           content_type="application/json", **headers)
    assert response.status_code == 422, response.content
    assert response.json()["code"] == "illegal_action"
    return response.json()["message"]


def _seven_wonders_pick():
    game, users = started_game(3, engine="seven_wonders", seed="refusals")
    return _pick_phase(game), users


@pytest.mark.parametrize(("language", "expected"), [
    ("fa", "این کارت در دست تو نیست."),
    ("zh-hans", "这张牌不在你的手牌中。"),
    ("it", "Quella carta non è nella tua mano."),
])
def test_a_refused_move_reads_in_the_callers_language(language, expected):
    game, users = _seven_wonders_pick()
    elsewhere = next(card for card in game.state["hands"][1] if card not in game.state["hands"][0])
    client = client_for(users[0])
    action = {"type": "build", "card": elsewhere}
    assert _refused(client, game, action) == ENGLISH_NOT_IN_HAND
    assert _refused(client, game, action, HTTP_ACCEPT_LANGUAGE=language) == expected
    # A player's own language setting wins for a token's caller too.
    users[0].language = language
    users[0].save(update_fields=["language"])
    assert _refused(client, game, action) == expected
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_refusal_naming_a_card_reads_the_cards_name_in_the_callers_language():
    game, users = _seven_wonders_pick()
    engine = get_engine("seven_wonders")
    hand = game.state["hands"][0]
    legal = engine.legal_actions(game.state, 0)
    card = next(cid for cid in hand
                if not any(a["type"] == "build" and a["card"] == cid for a in legal))
    action = {"type": "build", "card": card, "bought": {"nothing": 1}}
    client = client_for(users[0])
    english = _refused(client, game, action)
    refusal = {"k": "sw.refuse_build", "p": {"card": card}}
    assert english == render_text("seven_wonders", refusal, language="en")
    italian = _refused(client, game, action, HTTP_ACCEPT_LANGUAGE="it")
    assert italian == render_text("seven_wonders", refusal, language="it")
    assert italian.startswith("Non è un modo per costruire ")
    assert english != italian


def test_a_stone_age_refusal_and_the_general_one_are_translated():
    game, users = started_game(2, engine="stone_age", seed="refusals")
    seat = get_engine("stone_age").active_seats(game.state)[0]
    client = client_for(users[seat])
    action = {"type": "place", "location": "nowhere", "count": 1}
    assert _refused(client, game, action) == "There is no such location."
    assert _refused(client, game, action, HTTP_ACCEPT_LANGUAGE="zh-hans") == "没有这个地点。"
    caverna, players = started_game(2, engine="caverna", seed="refusals")
    seat = get_engine("caverna").active_seats(caverna.state)[0]
    client = client_for(players[seat])
    action = {"type": "no such move"}
    assert _refused(client, caverna, action) == "That action is not one of the legal actions now."
    assert (_refused(client, caverna, action, HTTP_ACCEPT_LANGUAGE="fa")
            == "این حرکت اکنون جزو حرکت‌های مجاز نیست.")
