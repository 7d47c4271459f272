"""The automatic-move pages at phone size in a real browser: a waiting Stone Age player queues
their next placement by choosing it in the game page's form, sets a standing order there and on
the profile page; no page scrolls sideways or breaks the Content-Security-Policy."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress

from games import services
from games.engines.registry import get_engine
from games.models import Seat
from tests.e2e.test_browser import ARTIFACTS, PHONE, browser, watch_csp  # noqa: F401
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_queue_and_orders_by_tapping_at_phone_size(browser, live_server):  # noqa: F811
    users = [UserFactory() for _ in range(3)]
    for user in users:
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    game = services.game_create(creator=users[0], engine_slug="stone_age", num_players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game = services.game_start(game_id=game.pk, user=users[0])
    first = get_engine("stone_age").active_seats(game.state)[0]
    waiting = next(s for s in game.seats.all() if s.number == (first + 1) % 3)

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    csp_violations = watch_csp(page)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", waiting.user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("#automatic summary >> text=Queue my next move")
    page.select_option("#candidate-1", label="3 people on the forest")
    page.select_option("#candidate-2", label="2 people on the hunting grounds")
    page.click("#automatic button:has-text('Queue')")
    page.wait_for_load_state()
    assert Seat.objects.get(pk=waiting.pk).move_queue == [[
        {"type": "place", "location": "forest", "count": 3},
        {"type": "place", "location": "hunting_grounds", "count": 2}]]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.click("#automatic summary >> text=Forced moves and standing orders")
    page.select_option("#order-feeding", "penalty")
    page.click("#automatic button:has-text('Save for this game')")
    page.wait_for_load_state()
    assert Seat.objects.get(pk=waiting.pk).standing_orders == {"feeding": "penalty"}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "automatic-moves-game-phone.png"), full_page=True)

    page.goto(f"{live_server.url}/automatic-moves/")
    page.select_option("#caverna-feeding", "crops_only")
    page.click("form.stack button[type=submit]")
    page.wait_for_load_state()
    waiting.user.refresh_from_db()
    assert waiting.user.standing_orders["caverna"]["feeding"] == "crops_only"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "automatic-moves-profile-phone.png"), full_page=True)
    assert csp_violations == [], csp_violations
    context.close()
