"""Each shipped game at phone size in a real browser: a player against bots takes turns by
tapping the offered choices; the page never scrolls sideways, never shows the seed, and a
screenshot of each board is kept as a test artefact."""

from __future__ import annotations

import importlib

import pytest
from allauth.account.models import EmailAddress

from games import services
from games.engines.registry import BUILTIN_ENGINE_MODULES
from games.models import Game
from tests.e2e.test_browser import (  # noqa: F401 - the fixture
    ARTIFACTS,
    PHONE,
    browser,
    watch_csp,
)
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUGS = [importlib.import_module(module).engine.slug for module in BUILTIN_ENGINE_MODULES]
PLAYERS = {"seven_wonders": 3, "stone_age": 2, "caverna": 2}
#: Each game at its usual player count, and 7 Wonders' two-player variant (the Free City).
CASES = [(slug, PLAYERS.get(slug, 2)) for slug in SLUGS] + [("seven_wonders", 2)]
#: Moves the player makes by tapping before the screenshot.
TAPS = 12


def game_against_bots(slug: str, players: int) -> tuple[Game, object]:
    human = UserFactory()
    # A confirmed address, as every player who signed up has (the login asks for it).
    EmailAddress.objects.create(user=human, email=human.email, verified=True, primary=True)
    game = services.game_create(creator=human, engine_slug=slug, num_players=players)
    for _ in range(players - 1):
        services.game_add_bot(game_id=game.pk, user=human)
    game = services.game_start(game_id=game.pk, user=human)
    return game, human


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_a_game_is_playable_by_tapping_at_phone_size(slug, players, browser,  # noqa: F811
                                                     live_server):
    game, human = game_against_bots(slug, players)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    csp_violations = watch_csp(page)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", human.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/games/{game.pk}/")

    taps = 0
    while taps < TAPS:
        game.refresh_from_db()
        if game.status != "active":
            break
        choices = page.locator("#your-move button.choice")
        if choices.count() == 0:
            page.wait_for_timeout(300)
            page.reload()
            continue
        version = game.version
        choices.first.click()
        page.wait_for_load_state()
        game.refresh_from_db()
        assert game.version > version, f"tapping a choice did not move the game ({slug})"
        taps += 1
        html = page.content()
        assert game.seed not in html
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{slug} page is {width}px wide at phone size"

    assert taps == TAPS or game.status == "finished"
    assert page.locator(".board").count() == 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    variant = "-two-players" if (slug, players) == ("seven_wonders", 2) else ""
    shot = ARTIFACTS / f"board-{slug}{variant}-phone.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert csp_violations == [], csp_violations
    context.close()
