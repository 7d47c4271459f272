"""The small things of a phone page, measured in Chromium at 360×640: every link and button of
the header and footer and the page's toggles ("Queue my next move", "Report") is a tap target of
at least 44×44 px, and so is every link, button, toggle and field-with-choices anywhere on a
game page of each engine (mid-game, the player's decision on the board) and on the lobby, a
profile and the leaderboards; a finished 7 Wonders game's final standings fit the phone in English,
Persian, Chinese and Italian, the points column in view. Screenshots are kept under
TEST_ARTIFACTS_DIR/phone-polish/."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from django.utils import timezone

from games import services
from games.engines.registry import get_engine
from games.engines.seven_wonders.scoring import CATEGORIES
from games.models import ChatMessage, Game, GameStatus
from notifications.channels import calendar
from tests.e2e.test_board_play import game_against_bots, signed_in_page
from tests.e2e.test_browser import ARTIFACTS, browser  # noqa: F401
from tests.factories import UserFactory
from tests.test_player_pages import finished

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SMALL = {"width": 360, "height": 640}
SHOTS = ARTIFACTS / "phone-polish"
#: What the test measures: every visible link, button and field of the header and footer, and
#: the page's folding toggles.
TARGETS = (".topbar a, .topbar button, .footer a, .footer button, .footer select, "
           "details.autoplay > summary, details.report > summary")


#: Everything a finger may tap, anywhere on the page.
EVERY_TARGET = ("a[href], button, summary, select, input[type=submit], input[type=checkbox], "
                "input[type=radio], [role=button], [tabindex='0']")


def small_targets(page, selector: str = TARGETS) -> list[str]:
    return page.evaluate("""(selector) => Array.from(document.querySelectorAll(selector))
      .filter(el => el.getClientRects().length > 0)
      .map(el => [el.getBoundingClientRect(), el])
      .filter(([r]) => r.width < 44 || r.height < 44)
      .map(([r, el]) => `${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 30)}"`
                        + ` ${Math.round(r.width)}x${Math.round(r.height)}`)""", selector)


def measured(page) -> int:
    return page.evaluate(f"document.querySelectorAll({TARGETS!r}).length")


def test_header_footer_and_toggles_are_44_px_tap_targets(browser, live_server):  # noqa: F811
    base = live_server.url
    game, human = game_against_bots("stone_age", 2, seed="phone-targets")
    # A message from another player, so that the chat's own "Report" toggle shows.
    other = UserFactory(display_name="Oskar")
    ChatMessage.objects.create(game=game, author=other, body="Good luck!")
    # Rated games for the profile's chart, and a calendar address for the calendar page.
    for winner in (0, 0, 1):
        finished([human, other], winner_index=winner)
    calendar.feed_for(human)
    page = signed_in_page(browser, base, human, SMALL)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = {}
    pages = [("lobby", "/", 8), ("game", f"/games/{game.pk}/", 11),
             ("leaderboards", "/leaderboard/", 8), ("calendar", "/notifications/live/", 8),
             ("profile", f"/users/{human.username}/", 8), ("new-game", "/games/new/", 8)]
    for name, path, at_least in pages:
        page.goto(f"{base}{path}")
        page.screenshot(path=str(SHOTS / f"targets-{name}.png"), full_page=True)
        # The header (brand, four links and Log out), the footer (five links, the language
        # field and its button) and, on the game page, the toggles: all of them are there.
        assert measured(page) >= at_least, name
        if small := small_targets(page):
            problems[name] = small
        if name == "game":
            assert page.locator("details.autoplay > summary").count() >= 1
            assert page.locator("details.report > summary").count() == 2
    assert not problems, problems


@pytest.mark.parametrize("slug", ["seven_wonders", "stone_age", "caverna"])
def test_every_link_and_button_of_a_game_page_is_a_44_px_tap_target(slug, browser,  # noqa: F811
                                                                  live_server):
    from tests.e2e.test_board_pictures import _mid_game

    base = live_server.url
    game, users = _mid_game(slug, 3)
    # The seat deciding now: its places on the board are taps too.
    acting = get_engine(slug).active_seats(game.state)[0]
    viewer, other = users[acting], users[(acting + 1) % 3]
    ChatMessage.objects.create(game=game, author=other, body="Good luck!")
    finished([viewer, other], winner_index=0)
    page = signed_in_page(browser, base, viewer, SMALL)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = {}
    pages = [(f"game-{slug}", f"/games/{game.pk}/"), ("lobby", "/"),
             ("leaderboards", "/leaderboard/"), ("profile", f"/users/{other.username}/")]
    for name, path in pages if slug == "seven_wonders" else pages[:1]:
        page.goto(f"{base}{path}")
        page.wait_for_load_state()
        if name.startswith("game"):
            # Every fold open: what is inside is tapped too.
            page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
            assert page.locator("#board .tap").count() >= 1, name
        page.screenshot(path=str(SHOTS / f"every-target-{name}.png"), full_page=True)
        assert page.locator(EVERY_TARGET).count() >= 10, name
        if small := small_targets(page, EVERY_TARGET):
            problems[name] = small
    (SHOTS / f"every-target-{slug}.json").write_text(json.dumps(problems, indent=1))
    assert not problems, problems


def finished_seven_wonders() -> tuple[Game, object]:
    """A finished 7-player 7 Wonders game, as the engine reports one (every category), with
    long names: the widest table the page draws."""
    players = [UserFactory(display_name=f"Bartholomew-{n} Featherstonehaugh") for n in range(7)]
    viewer = players[0]
    EmailAddress.objects.create(user=viewer, email=viewer.email, verified=True, primary=True)
    game = services.game_create(creator=viewer, engine_slug="seven_wonders", num_players=7)
    for player in players[1:]:
        services.game_join(game_id=game.pk, user=player, via_link=True)
    services.game_start(game_id=game.pk, user=viewer)
    breakdown = [{category: 10 + seat + index for index, category in enumerate(CATEGORIES)}
                 for seat in range(7)]
    scores = [sum(row.values()) for row in breakdown]
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED, finished_at=timezone.now(),
        result={"scores": scores, "winners": [6], "breakdown": breakdown})
    return game, viewer


def test_the_final_scores_fit_a_360_px_phone_in_every_language(browser, live_server):  # noqa: F811
    game, viewer = finished_seven_wonders()
    page = signed_in_page(browser, live_server.url, viewer, SMALL)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = {}
    page.goto(f"{live_server.url}/games/{game.pk}/")
    for language in ("en", "fa", "zh-hans", "it"):
        # As a player switches: the footer's language field.
        page.select_option("#language-switcher", language)
        page.locator(".language-switcher button").click()
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=language)
        page.locator(".final-scores table").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"final-scores-{language}.png"))
        facts = page.evaluate("""() => {
            const table = document.querySelector('.final-scores table');
            const points = Array.from(table.querySelectorAll('.points'))
              .map(cell => cell.getBoundingClientRect());
            return {page: document.documentElement.scrollWidth,
                    table: table.getBoundingClientRect().width, scroll: table.scrollWidth,
                    section: table.parentElement.clientWidth,
                    left: Math.min(...points.map(r => r.left)),
                    right: Math.max(...points.map(r => r.right)), rows: points.length};
        }""")
        assert facts["rows"] == 8  # the heading and seven players
        # Nothing scrolls sideways, and the points column is in view (on the right in
        # English, on the left in Persian).
        if not (facts["page"] <= SMALL["width"] and facts["table"] <= facts["section"]
                and facts["scroll"] <= facts["section"] and facts["left"] >= 0
                and facts["right"] <= SMALL["width"]):
            problems[language] = facts
    assert not problems, problems
