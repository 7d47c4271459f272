"""A tap on a player's name or score shows their cards (seed 003), read from the viewer's own view:
a Stone Age player's face-down civilization cards are named to their owner alone (others see how
many, and the face-up ones); a 7 Wonders city's built cards and a Caverna home board to all."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import selectors
from games.engines.stone_age.data import CARDS
from games.models import Game
from games.presentation.names import seat_names
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db

#: Cards kept face down (no one-use tool, no two resources of choice: those lie face up).
FACE_DOWN = [card for card, data in CARDS.items()
             if data["top"]["type"] not in ("one_use_tool", "any_two_resources")]


def stone_age_with_cards():
    game, users = started_game(2, engine="stone_age", seed="player-cards")
    state = game.state
    state["players"][0]["cards"] = FACE_DOWN[:2]
    state["players"][1]["cards"] = FACE_DOWN[2:5]
    Game.objects.filter(pk=game.pk).update(state=state, version=game.version + 1)
    return Game.objects.get(pk=game.pk), users


def card_names(game, seat, language="en"):
    """The names of `seat`'s cards as its owner reads them."""
    shown = selectors.rendered_view(game, seat, language=language, names=seat_names(game))
    return [card["name"] for card in shown["players"][seat]["cards"]]


def cards_fragment(client, game, seat):
    response = client.get(reverse("games:player_cards", args=[game.pk]),
                          {"seat": seat, "partial": 1})
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_sees_their_own_civilization_cards_and_only_the_count_of_anothers(client):
    game, (first, second) = stone_age_with_cards()
    own, others = card_names(game, 0), card_names(game, 1)
    assert len(set(own)) == 2 and len(set(others)) == 3 and not set(own) & set(others)

    client.force_login(first)
    mine = cards_fragment(client, game, 0)
    assert all(name in mine for name in own)
    theirs = cards_fragment(client, game, 1)
    assert "3 civilization cards, face down" in theirs
    assert not any(name in theirs for name in others), "another player's hidden cards"

    client.force_login(UserFactory())  # a spectator
    for seat, names in ((0, own), (1, others)):
        fragment = cards_fragment(client, game, seat)
        assert not any(name in fragment for name in names)


def test_the_board_links_each_tribe_to_its_cards_and_the_page_works_without_scripts(client):
    game, (first, second) = stone_age_with_cards()
    client.force_login(first)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    for seat in (0, 1):
        assert f'href="{reverse("games:player_cards", args=[game.pk])}?seat={seat}"' in page
    url = reverse("games:player_cards", args=[game.pk])
    whole = client.get(url, {"seat": 1}).content.decode()
    assert "Back to the game" in whole and "face down" in whole
    for seat in ("7", "", "x", "-1"):
        assert client.get(url, {"seat": seat}).status_code == 404


def test_a_private_games_cards_stay_private(client):
    game, users = started_game(2, engine="stone_age")
    Game.objects.filter(pk=game.pk).update(allow_spectators=False)
    client.force_login(UserFactory())
    assert client.get(reverse("games:player_cards", args=[game.pk]),
                      {"seat": 0}).status_code == 404


@pytest.mark.parametrize("engine", ["seven_wonders", "caverna"])
def test_a_city_or_home_board_on_tap(client, engine):
    game, users = started_game(3 if engine == "seven_wonders" else 2, engine=engine)
    client.force_login(users[0])
    fragment = cards_fragment(client, game, 1)
    assert f"Cards of {users[1].public_name}" in fragment
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'href="{reverse("games:player_cards", args=[game.pk])}?seat=1"' in page
