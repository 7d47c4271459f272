"""Seed 003's table in two real browsers (Chromium, 390×844, in Italian): one player opens a Stone
Age table, the other types /join in its chat, the first types /start; a refusal reaches only the
player who typed it; a tap on a tribe's name shows the cards that player holds as far as the
viewer may see them. Screenshots under TEST_ARTIFACTS_DIR/chat-commands/."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.utils import timezone

from games import services
from games.models import Game, GameStatus
from tests.e2e.test_board_play import signed_in_page
from tests.e2e.test_browser import ARTIFACTS, browser  # noqa: F401
from tests.factories import UserFactory
from tests.test_player_cards import FACE_DOWN, card_names

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def italian(name: str):
    user = UserFactory(username=name.lower(), display_name=name, language="it")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def shot(page, name: str, *, full_page: bool = True) -> None:
    folder = ARTIFACTS / "chat-commands"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


def type_in_chat(page, line: str) -> None:
    page.fill("#chat input[name=body]", line)
    with page.expect_navigation():
        page.click("#chat button[type=submit]")


def test_a_table_filled_and_started_from_the_chat_in_italian(browser, live_server):  # noqa: F811
    base = live_server.url
    giulia, marco = italian("Giulia"), italian("Marco")
    game = services.game_create(creator=giulia, engine_slug="stone_age", num_players=4,
                                name="Tavolo di Giulia")
    url = f"{base}/games/{game.pk}/"

    host = signed_in_page(browser, base, giulia, PHONE)
    guest = signed_in_page(browser, base, marco, PHONE)
    guest.goto(url)
    shot(guest, "1-guest-sees-the-open-table")
    type_in_chat(guest, "/join")
    assert guest.locator("#chat li.system", has_text="Marco si è unito al tavolo.").is_visible()
    assert game.seats.filter(user=marco).exists()
    shot(guest, "2-guest-typed-join")

    type_in_chat(guest, "/start")  # only the creator starts: the refusal is Marco's alone
    refusal = guest.locator("#chat li.system.private", has_text="/start rifiutato")
    assert refusal.is_visible()
    shot(guest, "3-guest-start-refused")

    host.goto(url)
    assert host.locator("#chat", has_text="Marco si è unito al tavolo.").is_visible()
    assert host.locator("#chat", has_text="/start rifiutato").count() == 0
    type_in_chat(host, "／START")  # a full-width slash, as a Chinese keyboard types it
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
    assert host.locator("#chat li.system", has_text="Giulia ha iniziato la partita.").is_visible()
    assert host.locator("#board").is_visible()
    shot(host, "4-host-started-the-game")

    # Seed 003: pointing at a player's score shows the civilization cards they hold; each
    # player sees only their own. Marco is given two face-down cards for the picture.
    started = Game.objects.get(pk=game.pk)
    marco_seat = started.seats.get(user=marco).number
    state = started.state
    state["players"][marco_seat]["cards"] = FACE_DOWN[:2]
    Game.objects.filter(pk=game.pk).update(state=state, version=started.version + 1,
                                           updated_at=timezone.now())
    hidden = card_names(Game.objects.get(pk=game.pk), marco_seat, "it")

    host.goto(url)
    host.click(f"a[data-player-cards][href$='?seat={marco_seat}']")
    dialog = host.locator("dialog#player-cards")
    dialog.wait_for(state="visible")
    assert dialog.get_by_text("Carte di Marco").is_visible()
    assert dialog.get_by_text("2 carte civiltà, coperte").is_visible()
    assert not any(dialog.get_by_text(name).count() for name in hidden)
    shot(host, "5-host-taps-marcos-tribe", full_page=False)

    guest.goto(url)
    guest.click(f"a[data-player-cards][href$='?seat={marco_seat}']")
    own = guest.locator("dialog#player-cards")
    own.wait_for(state="visible")
    assert own.get_by_text("Le tue carte, Marco").is_visible()
    assert all(own.get_by_text(name).count() for name in hidden)
    shot(guest, "6-marco-taps-his-own-tribe", full_page=False)
    assert host.csp_violations == [] and guest.csp_violations == []
