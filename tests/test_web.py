"""The web shell through Django's test client: lobby, create, join, start, act, errors."""

from __future__ import annotations

import pytest
from django.test import TestCase
from django.urls import reverse

from games import services
from games.models import Game, GameStatus
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def logged_in(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_lobby_for_visitors_and_players(client):
    response = client.get("/")
    assert response.status_code == 200 and b"Sign up" in response.content
    user = UserFactory()
    logged_in(client, user)
    page = client.get("/").content.decode()
    assert "Your move" in page and "Your games" in page


def test_create_join_start_and_act(client, django_user_model):
    alice, bob = UserFactory(), UserFactory()
    logged_in(client, alice)
    form = client.get(reverse("games:create")).content.decode()
    assert "option__toy__rounds" in form
    response = client.post(reverse("games:create"), {
        "engine": "toy", "num_players": 2, "time_per_move": 86400, "allow_spectators": "on",
        "option__toy__rounds": 1, "reserve": 86400, "max_consecutive_timeouts": 3,
    })
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:detail", args=[game.pk])
    assert game.options == {"rounds": 1}

    from django.test import Client

    bob_client = logged_in(Client(), bob)
    assert b"Join" in bob_client.get(response.url).content
    bob_client.post(reverse("games:join", args=[game.pk]))
    # Bob may not start Alice's game.
    page = bob_client.post(reverse("games:start", args=[game.pk]), follow=True).content.decode()
    assert "Only the player who created the game can start it." in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(reverse("games:start", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE

    page = client.get(response.url).content.decode()
    assert "Your move" in page and "bid 3" in page
    act = reverse("games:act", args=[game.pk])
    # A choice first shows what it will do; only Confirm commits it (the form works without
    # any script).
    page = client.post(act, {"version": 0, "index": 2}, follow=True).content.decode()
    assert 'id="confirm"' in page and "Confirm</button>" in page and "bid 3" in page
    game.refresh_from_db()
    assert game.version == 0
    response = client.post(act, {"version": 0, "index": 2, "confirm": "1"}, follow=True)
    # The message saying what was played names the player, as the rest of the page does.
    message = response.content.decode().split('class="message', 1)[1].split("</", 1)[0]
    assert f"{alice.public_name} bid 3." in message and "Seat" not in message
    game.refresh_from_db()
    assert game.version == 1


def test_stale_or_broken_forms_are_explained_and_change_nothing(client):
    alice, bob = UserFactory(), UserFactory()
    from games import services

    game = services.game_create(creator=alice, engine_slug="toy", num_players=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=alice)
    logged_in(client, alice)
    url = reverse("games:act", args=[game.pk])
    page = client.post(url, {"version": 5, "index": 0}, follow=True).content.decode()
    assert "moved on" in page
    page = client.post(url, {"version": 0, "index": 99}, follow=True).content.decode()
    assert "no longer available" in page
    page = client.post(url, {"version": "x"}, follow=True).content.decode()
    assert "incomplete" in page
    game.refresh_from_db()
    assert game.version == 0


def test_signup_and_login_pages_render(client):
    assert client.get(reverse("account_signup")).status_code == 200
    assert client.get(reverse("account_login")).status_code == 200
    assert client.get(reverse("account_reset_password")).status_code == 200


def test_signup_sends_a_confirmation_that_verifies_the_address(client, mailoutbox):
    import re

    from allauth.account.models import EmailAddress

    response = client.post(reverse("account_signup"), {
        "email": "carol@example.com", "username": "carol",
        "password1": "correct-Horse-battery-9", "password2": "correct-Horse-battery-9",
    })
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", mailoutbox[0].body)
    assert link, mailoutbox[0].body
    client.post(link.group(1))
    assert EmailAddress.objects.get(email="carol@example.com").verified


def test_password_reset_sends_a_working_link(client, mailoutbox):
    import re

    user = UserFactory()
    client.post(reverse("account_reset_password"), {"email": user.email})
    assert len(mailoutbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/[^\s]+)",
                     mailoutbox[0].body).group(1)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else link
    client.post(form_url, {"password1": "brand-New-secret-77", "password2": "brand-New-secret-77"})
    user.refresh_from_db()
    assert user.check_password("brand-New-secret-77")


def test_the_page_title_and_the_version_the_page_polls(client):
    alice, outsider = UserFactory(), UserFactory()
    logged_in(client, alice)
    client.post(reverse("games:create"), {
        "engine": "toy", "num_players": 2, "time_per_move": 86400,
        "option__toy__rounds": 1, "reserve": 0, "max_consecutive_timeouts": 3,
    })
    game = Game.objects.get()
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert title == f"Toy #{game.pk} · Turnpost"
    assert reverse("games:version", args=[game.pk]) in page and "live-game.js" in page
    assert client.get(reverse("games:version", args=[game.pk])).json() == {
        "version": 0, "status": "open", "seats": 1}
    logged_in(client, outsider)
    # A game without spectators is as invisible to the poll as to the page.
    Game.objects.filter(pk=game.pk).update(allow_spectators=False)
    assert client.get(reverse("games:version", args=[game.pk])).status_code == 404
    Game.objects.filter(pk=game.pk).update(allow_spectators=True)
    assert client.get(reverse("games:version", args=[game.pk])).json()["seats"] == 1
    assert client.get(reverse("games:version", args=[game.pk + 1000])).status_code == 404


@pytest.mark.django_db
def test_the_lobby_names_games_by_their_engine_and_pages_show_no_version(client):
    from games import services
    from tests.factories import started_game

    game, users = started_game(3, engine="seven_wonders")
    open_one = services.game_create(creator=UserFactory(), engine_slug="stone_age",
                                    num_players=2)
    client.force_login(users[0])
    lobby = client.get("/").content.decode()
    assert f"7 Wonders #{game.pk}" in lobby and "SevenWonders" not in lobby
    assert f"Stone Age #{open_one.pk}" in lobby and "StoneAge" not in lobby
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"version {game.version}" not in page.lower()


@pytest.mark.parametrize("slug", ["stone_age", "seven_wonders", "caverna"])
def test_the_game_page_names_players_in_the_log_boards_and_choices(client, slug):
    """Engines write "Seat N"; the page says the players' names everywhere."""
    import re

    from games import selectors, services
    from games.engines.registry import get_engine
    from tests.factories import committed, started_game

    game, users = started_game(3, engine=slug, seed=f"names-{slug}")
    for _ in range(12):
        game.refresh_from_db()
        mover = next((user for user in users
                      if selectors.legal_actions_for(game, user)
                      and selectors.seat_of(game, user).number
                      in get_engine(slug).active_seats(game.state)), None)
        if mover is None:
            break
        with committed():
            services.game_action_submit(
                game_id=game.pk, user=mover, expected_version=game.version,
                action=selectors.legal_actions_for(game, mover)[0]["action"])
    assert game.actions.count() >= 6
    for user in users:
        page = logged_in(client, user).get(reverse("games:detail", args=[game.pk]))
        html = page.content.decode()
        seat_numbers = re.findall(r"(?s).{0,60}\b[Ss]eat \d\b.{0,30}", html)
        assert not seat_numbers, seat_numbers
        for other in users:
            assert other.public_name in html


def test_seven_wonders_for_two_on_the_game_page(client):
    """The two-player variant through the page: the Free City's city and who plays it, the
    controller's second choice list (the Free City's card) after its own pick, names for seats."""
    import re

    from django.test import Client

    from games import selectors
    from tests.factories import started_game

    game, users = started_game(2, engine="seven_wonders", seed="web-two-b")
    by_seat = {selectors.seat_of(game, user).number: user for user in users}
    controller, other = by_seat[0], by_seat[1]
    page = logged_in(client, controller).get(reverse("games:detail", args=[game.pk]))
    html = page.content.decode()
    assert "Free City" in html and "You hold the Free City card" in html
    assert f"{controller.public_name} plays the Free City this turn" in html
    assert "For the Free City" not in html.split('id="your-move"')[1].split("</section>")[0]
    # Buying ore from the other seat: the engine says "Seat 1", every page says the name.
    legal = selectors.legal_actions_for(game, controller)
    index = next(i for i, choice in enumerate(legal) if "Seat 1" in choice["description"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(reverse("games:act", args=[game.pk]),
                               {"version": game.version, "index": index, "confirm": "1"},
                               follow=True)
    html = response.content.decode()
    moves = html.split('id="your-move"')[1].split("</section>")[0]
    assert "For the Free City: " in moves
    assert not re.findall(r"\b[Ss]eat \d\b", html)  # nor in the message saying what was played
    game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(reverse("games:act", args=[game.pk]),
                    {"version": game.version, "index": 0, "confirm": "1"})
    game.refresh_from_db()
    assert game.state["free_city"]["pick"] is not None
    own_page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "The Free City's pick:" in own_page
    other_page = logged_in(Client(), other).get(
        reverse("games:detail", args=[game.pk])).content.decode()
    assert "The Free City's pick:" not in other_page
    assert f"{controller.public_name} chose a card for the Free City." in other_page
    for html in (own_page, other_page):
        assert not re.findall(r"\b[Ss]eat \d\b", html)


def test_a_two_player_seven_wonders_game_is_created_from_the_form(client):
    logged_in(client, UserFactory())
    form = client.get(reverse("games:create")).content.decode()
    assert "7 Wonders (2–7 players)" in form
    response = client.post(reverse("games:create"), {
        "engine": "seven_wonders", "num_players": 2, "time_per_move": 86400,
        "option__seven_wonders__wonders": "random", "option__seven_wonders__sides": "A",
        "reserve": 0, "max_consecutive_timeouts": 3,
    })
    game = Game.objects.get()
    assert response.status_code == 302, response.content.decode()[:2000]
    assert (game.engine, game.num_players) == ("seven_wonders", 2)


def test_the_creator_adds_bots_at_a_chosen_level(client):
    alice = UserFactory()
    logged_in(client, alice)
    game = services.game_create(creator=alice, engine_slug="toy", num_players=3)
    detail = reverse("games:detail", args=[game.pk])
    page = client.get(detail).content.decode()
    assert '<option value="hard">Hard</option>' in page
    add_bot = reverse("games:add_bot", args=[game.pk])
    page = client.post(add_bot, {"level": "hard"}, follow=True).content.decode()
    assert "A bot took a seat." in page
    assert "<li>Bot · Hard</li>" in page  # the seat list says how strong the bot plays
    page = client.post(add_bot, {"level": "grandmaster"}, follow=True).content.decode()
    assert "A bot plays at one of these levels: easy, search, hard." in page
    client.post(add_bot)  # no level: the default
    assert list(game.seats.filter(is_bot=True).order_by("join_order")
                .values_list("bot_level", flat=True)) == ["hard", "search"]
    services.game_start(game_id=game.pk, user=alice)
    legend = client.get(detail).content.decode().split('<ul class="legend"')[1].split("</ul>")[0]
    assert legend.count(" · Hard") == 1 and legend.count(" · Search") == 1
