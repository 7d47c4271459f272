"""The players' languages on a phone: every page type at 390×844 in Persian is laid out right to
left with nothing scrolling sideways, and the Caverna home board keeps forest left and mountain
right; the lobby and each engine's board in Chinese and Italian fit the phone too. A screenshot
of each page is kept under TEST_ARTIFACTS_DIR/i18n-<language>/ to look at."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress

from accounts.models import User
from tests.e2e.test_board_play import game_against_bots, signed_in_page
from tests.e2e.test_browser import ARTIFACTS, browser  # noqa: F401
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
ENGINES = {"stone_age": 2, "seven_wonders": 3, "caverna": 2}


def player_speaking(language: str, name: str) -> User:
    user = UserFactory(language=language, display_name=name)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def check_and_shoot(page, name: str, language: str = "fa") -> dict:
    """The page's language, direction and width; its screenshot is kept."""
    facts = page.evaluate("""() => ({
        lang: document.documentElement.lang, dir: document.documentElement.dir,
        direction: getComputedStyle(document.body).direction,
        width: document.documentElement.scrollWidth})""")
    shots = ARTIFACTS / f"i18n-{language}"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    return facts


def test_every_page_type_in_persian_is_right_to_left(browser, live_server):  # noqa: F811
    base = live_server.url
    # A visitor whose browser asks for Persian.
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                  has_touch=True, locale="fa-IR")
    visitor = context.new_page()
    problems = []
    for name, path in [("visitor-lobby", "/"), ("login", "/accounts/login/"),
                       ("signup", "/accounts/signup/")]:
        visitor.goto(f"{base}{path}")
        facts = check_and_shoot(visitor, name)
        if (facts["lang"], facts["dir"], facts["direction"]) != ("fa", "rtl", "rtl"):
            problems.append(f"{name}: {facts}")
        if facts["width"] > PHONE["width"]:
            problems.append(f"{name}: {facts['width']}px wide")
    context.close()

    games = {slug: game_against_bots(slug, players, seed=f"rtl-{slug}")
             for slug, players in ENGINES.items()}
    player = player_speaking("fa", "بیتا")
    for game, human in games.values():
        # The Persian player takes the human's seat so that their own board is drawn.
        game.seats.filter(user=human).update(user=player)
    watched, _ = game_against_bots("stone_age", 2, seed="rtl-watched")
    page = signed_in_page(browser, base, player, PHONE)
    pages = [("lobby", "/"), ("new-game", "/games/new/"), ("settings", "/settings/"),
             ("vacations", "/settings/vacations/"), ("tokens", "/settings/tokens/"),
             ("automatic-moves", "/automatic-moves/"), ("live", "/notifications/live/"),
             ("notifications", "/notifications/"), ("email-settings", "/notifications/settings/"),
             ("finished-games", "/games/finished/"), ("leaderboard", "/leaderboard/stone_age/"),
             ("profile", f"/users/{player.username}/")]
    pages += [(f"game-{slug}", f"/games/{game.pk}/") for slug, (game, _) in games.items()]
    pages.append(("game-watched", f"/games/{watched.pk}/"))
    for name, path in pages:
        response = page.goto(f"{base}{path}")
        if response is None or response.status >= 400:
            problems.append(f"{name}: {path} answered {response and response.status}")
            continue
        facts = check_and_shoot(page, name)
        if (facts["lang"], facts["dir"], facts["direction"]) != ("fa", "rtl", "rtl"):
            problems.append(f"{name}: {facts}")
        if facts["width"] > PHONE["width"]:
            problems.append(f"{name}: {facts['width']}px wide")

    # Boards keep their geometry: Caverna's forest (column 1) stays on the left.
    caverna, _ = games["caverna"]
    page.goto(f"{base}/games/{caverna.pk}/")
    page.locator("details.cv-you").first.evaluate("element => element.open = true")
    cells = page.locator("details.cv-you .cv-cell")
    first, last = cells.first.bounding_box(), cells.nth(5).bounding_box()
    assert first["x"] < last["x"], "the home board was mirrored"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("language", "name"), [("zh-hans", "小明"), ("it", "Giulia")])
def test_the_lobby_and_every_board_in_chinese_and_italian(browser, live_server, language,  # noqa: F811
                                                          name):
    player = player_speaking(language, name)
    for slug, players in ENGINES.items():
        game, human = game_against_bots(slug, players, seed=f"{language}-{slug}")
        game.seats.filter(user=human).update(user=player)
    page = signed_in_page(browser, live_server.url, player, PHONE)
    problems = []
    pages = [("lobby", "/")] + [(f"game-{seat.game.engine}", f"/games/{seat.game_id}/")
                                for seat in player.seats.select_related("game")]
    for page_name, path in pages:
        page.goto(f"{live_server.url}{path}")
        facts = check_and_shoot(page, page_name, language)
        if (facts["lang"], facts["dir"]) != (language, "ltr") or facts["width"] > PHONE["width"]:
            problems.append(f"{page_name}: {facts}")
    assert len(pages) == 4
    assert not problems, "\n".join(problems)
