"""The game page's queue and automatic-move forms and the profile's defaults, through Django's
test client: a waiting Stone Age player queues their next placement, which is played for them
when their turn comes; nobody else sees the queue."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import selectors, services
from games.engines.registry import get_engine
from games.models import Action, Seat
from tests.factories import PASSWORD, committed, started_game

pytestmark = pytest.mark.django_db


def logged_in(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def automatic_section(page: str) -> str:
    return page.split('<section id="automatic">')[1].split("</section>")[0]


def test_a_waiting_player_queues_a_placement_on_the_page_and_it_is_played():
    from django.test import Client

    game, users = started_game(3, engine="stone_age", seed="web-queue")
    engine = get_engine("stone_age")
    first = engine.active_seats(game.state)[0]
    waiting = (first + 1) % 3
    client = logged_in(Client(), users[waiting])
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    section = automatic_section(page)
    assert "Queue my next move" in section and "people on the forest" in section
    forest = {"type": "place", "location": "forest", "count": 3}
    hunting = {"type": "place", "location": "hunting_grounds", "count": 2}
    response = client.post(reverse("games:queue", args=[game.pk]), {
        "candidate": [json.dumps(forest), json.dumps(hunting), ""]})
    assert response.status_code == 302
    assert Seat.objects.get(game=game, number=waiting).move_queue == [[forest, hunting]]
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "3 people on the forest" in automatic_section(page).split("<form")[0]
    # The others' pages say nothing of it.
    other = logged_in(Client(), users[(first + 2) % 3])
    assert "When your next decision comes" not in other.get(
        reverse("games:detail", args=[game.pk])).content.decode()
    # The first player places elsewhere: the queued forest placement is played for the waiter.
    action = next(a for a in selectors.legal_actions_for(game, users[first])
                  if a["action"]["location"] == "hut")["action"]
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[first], action=action,
                                    expected_version=game.version)
    entry = Action.objects.get(game=game, seat_number=waiting)
    assert (entry.source, entry.payload) == ("queued", forest)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert '<span class="tag">queued</span>' in page


def test_a_queue_is_refused_on_the_page_while_the_move_is_at_hand(client):
    game, users = started_game(3, engine="stone_age", seed="web-queue")
    first = get_engine("stone_age").active_seats(game.state)[0]
    logged_in(client, users[first])
    section = automatic_section(
        client.get(reverse("games:detail", args=[game.pk])).content.decode())
    assert "It is your move now" in section
    response = client.post(reverse("games:queue", args=[game.pk]), {
        "candidate": [json.dumps({"type": "place", "location": "forest", "count": 1})]},
        follow=True)
    assert "make it rather than queue it" in response.content.decode()
    assert Seat.objects.get(game=game, number=first).move_queue == []


def test_game_settings_and_profile_defaults_on_the_pages(client):
    game, users = started_game(3, engine="stone_age", seed="web-queue")
    user = users[0]
    logged_in(client, user)
    client.post(reverse("games:autoplay", args=[game.pk]),
                {"forced": "off", "order_feeding": "penalty", "order_tools": ""})
    seat = Seat.objects.get(game=game, user=user)
    assert seat.auto_forced is False and seat.standing_orders == {"feeding": "penalty"}
    response = client.post(reverse("games:autoplay", args=[game.pk]),
                           {"forced": "", "order_feeding": "starve"}, follow=True)
    assert "must be one of" in response.content.decode()
    page = client.get(reverse("games:profile_autoplay")).content.decode()
    assert "Feeding and begging" in page and "Tools after a roll" in page
    client.post(reverse("games:profile_autoplay"), {
        "caverna__feeding": "crops_only", "stone_age__tools": "never"})
    user.refresh_from_db()
    assert user.auto_play_forced is False  # the box was not ticked
    assert user.standing_orders["caverna"]["feeding"] == "crops_only"
    assert user.standing_orders["stone_age"]["tools"] == "never"
    assert user.standing_orders["stone_age"]["feeding"] == "cheapest"
