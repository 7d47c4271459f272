"""The game page follows the game through its event stream: another player's move appears
without anyone reloading and without a single poll of the version URL."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.e2e.test_browser import PHONE, browser, watch_csp  # noqa: F401 - the fixture
from tests.factories import started_game
from tests.live.helpers import play_moves

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]


def test_another_players_move_appears_without_reload_or_polling(browser, asgi_server):  # noqa: F811
    game, users = started_game(2, engine="stone_age", seed="page-stream")
    game.refresh_from_db()
    watcher = users[1 - game.seats.get(deadline_at__isnull=False).number]
    client = Client()
    client.force_login(watcher)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": asgi_server}])
    page = context.new_page()
    violations = watch_csp(page)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{asgi_server}/games/{game.pk}/")
    # Predicates are functions: a string expression is evaluated with eval() while polling,
    # which the page's Content-Security-Policy forbids.
    page.wait_for_function("() => document.getElementById('live-game').dataset.live === 'stream'")
    page.wait_for_timeout(500)  # the stream is open before the move is made

    version = play_moves(game.pk, 1)[-1]
    # The page morphs the move in, on the same stream: no reload.
    page.evaluate("() => { window.sameDocument = true; }")
    page.wait_for_function(
        f"() => document.getElementById('live-game').dataset.version === '{version}'"
        " && document.getElementById('live-game').dataset.live === 'stream'", timeout=15_000)
    assert page.evaluate("() => window.sameDocument === true"), "the page reloaded"
    assert sum(f"/api/v1/games/{game.pk}/stream" in url for url in requests) == 1
    assert not [url for url in requests if "/version/" in url], requests
    assert any(f"/api/v1/games/{game.pk}/stream" in url for url in requests)
    assert violations == []
    context.close()


def test_the_site_registers_its_service_worker_and_offers_phone_push(browser, asgi_server,  # noqa: F811
                                                                     settings):
    from tests.e2e.test_browser import ARTIFACTS
    from tests.factories import UserFactory

    player = UserFactory()
    client = Client()
    client.force_login(player)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": asgi_server}])
    page = context.new_page()
    violations = watch_csp(page)
    page.goto(f"{asgi_server}/notifications/live/")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{asgi_server}/"
    page.locator("#push-on").wait_for(state="visible")
    assert not page.locator("#push-off").is_visible()
    assert page.locator("#calendar button").is_visible()
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= PHONE["width"], scroll_width
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "live-settings-phone.png"), full_page=True)
    assert violations == []
    context.close()
