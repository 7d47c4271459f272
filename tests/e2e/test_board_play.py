"""Whole games on a phone, played only on the board: for every engine a player against bots taps
the place on the board where the move is made (or the short list, for choices with no place),
then the choice, then Confirm. On the way: no sideways scrolling at 360×640 and 390×844, every
target at least 44 px, no serious or critical axe-core violation, the page weight, the seed never
in the page; a screenshot of each board at 390×844 is kept."""

from __future__ import annotations

import gzip
import json
import os
import re
import time
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games import services
from games.engines.registry import get_engine
from games.models import Game
from tests.e2e.phone_measure import chosen_index, tap_decision
from tests.e2e.test_browser import ARTIFACTS, browser, watch_csp  # noqa: F401
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).resolve().parents[2] / "tools" / "node" / "node_modules" / "axe-core"
       / "axe.min.js")
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}
PLAYERS = {"stone_age": 2, "seven_wonders": 3, "caverna": 2}
MAX_PAGE_BYTES = 120 * 1024
MAX_DECISIONS = 700


def game_against_bots(slug: str, players: int, seed: str) -> tuple[Game, object]:
    human = UserFactory()
    EmailAddress.objects.create(user=human, email=human.email, verified=True, primary=True)
    game = services.game_create(creator=human, engine_slug=slug, num_players=players)
    for _ in range(players - 1):
        services.game_add_bot(game_id=game.pk, user=human)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    return services.game_start(game_id=game.pk, user=human), human


def signed_in_page(browser, base: str, user, viewport):  # noqa: F811
    context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.csp_violations = watch_csp(page)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


def bots_have_picked(game, engine, seat: int, timeout: float = 60) -> None:
    """Waits until the bots choosing beside the player (simultaneous picks) have chosen, so that
    this test plays one move at a time (test_phone_page plays through others' moves)."""
    deadline = time.monotonic() + timeout
    while set(engine.active_seats(game.state)) - {seat} and time.monotonic() < deadline:
        time.sleep(0.2)
        game.refresh_from_db()


def open_page(page, url: str) -> None:
    """`page.goto(url)`, again when the page's own reload (it follows its game's version and
    reloads when it changes) started first and aborted it: either way the page ends at `url`."""
    for attempt in range(5):
        try:
            page.goto(url)
            return
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error) or attempt == 4:
                raise
            page.wait_for_load_state()


def axe_problems(page) -> list[dict]:
    """Serious and critical axe-core violations of the page as it is now."""
    if not AXE.exists():
        if os.environ.get("TURNPOST_REQUIRE_SERVICES") == "1":
            pytest.fail("axe-core is not installed (make test runs npm ci)")
        pytest.skip("axe-core is not installed (needs npm)")
    # Evaluated through the DevTools protocol: the page's CSP (rightly) refuses inline scripts.
    def run_axe():  # injected and run in one page: a reload between the two loses axe
        page.evaluate(AXE.read_text() + "\n;true")
        return page.evaluate("axe.run(document, {resultTypes: ['violations']})")

    result = settled(page, run_axe)
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


#: What Chromium answers when the page's own reload ends a read of it.
RELOADING = ("Execution context was destroyed", "page is navigating")


def settled(page, read):
    """`read()`, again after the page's own reload: an open game page reloads itself when the
    game moves (a bot's move may land at any moment), which ends any read of it under way."""
    for _ in range(3):
        try:
            return read()
        except PlaywrightError as error:
            if not any(reason in str(error) for reason in RELOADING):
                raise
            page.wait_for_load_state()
    return read()


def evaluate_settled(page, script: str):
    return settled(page, lambda: page.evaluate(script))


def content_settled(page) -> str:
    return settled(page, page.content)


def layout_problems(page, width: int) -> list[str]:
    """Sideways scrolling, and tap targets (board places, buttons, links) under 44 px."""
    problems = []
    scroll = evaluate_settled(page, "document.documentElement.scrollWidth")
    if scroll > width:
        problems.append(f"the page is {scroll}px wide at {width}px")
    small = evaluate_settled(page, """() => Array.from(document.querySelectorAll(
        '.tap, main button, main .button, #sheet button'))
      .filter(el => el.offsetParent !== null)
      .map(el => [el.getBoundingClientRect(), el])
      .filter(([r]) => r.width < 44 || r.height < 44)
      .map(([r, el]) => `${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 30)}"`
                        + ` ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    problems += [f"target under 44px: {item}" for item in small]
    return problems


def page_weight(page, base: str) -> int:
    """HTML + CSS + JS of the page, gzip-compressed, in bytes."""
    html = content_settled(page).encode()
    urls = evaluate_settled(page, """() => [...document.querySelectorAll(
        'link[rel=stylesheet][href], script[src]')].map(el => el.href || el.src)""")
    total = len(gzip.compress(html))
    for url in urls:
        body = page.request.get(url).body()
        total += len(gzip.compress(body))
    return total


def play_one_decision(page, game, engine, seat, shot: str | None = None,
                      counts: dict | None = None) -> int:
    """The bot's choice for this seat, made the way a player does (tests.e2e.phone_measure):
    tap its place on the board (or the short list), then its Confirm. Returns the taps;
    `counts` tallies the decisions made from the board and from the short list."""
    index = chosen_index(page, game, engine, seat)
    item = page.locator(f'#choices > li:has(input[name=index][value="{index}"])')
    targets = (item.get_attribute("data-targets") or "").split()
    places = [key for key in targets if page.locator(f'.tap[data-target="{key}"]').count()]
    if counts is not None:
        counts["from the board" if places else "from the short list"] += 1
    if places:
        assert item.is_hidden(), "a choice with a place on the board is reached from there"
        if places[0].startswith("cell:") and counts is not None and not counts.get("cells"):
            counts["cells"] = 1  # the first move made on a home-board cell, as it looked
            shot = shot or f"play-{engine.slug}-cell"
            page.locator(f'.tap[data-target="{places[0]}"]').first.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"{shot}-board.png"))
    else:
        assert item.is_visible(), f"a choice without a board place must stay listed: {targets}"
    return tap_decision(page, game, engine, seat,
                        shot=str(ARTIFACTS / f"{shot}-sheet.png") if shot else None)["taps"]


#: Each game at its usual player count, and 7 Wonders' two-player variant (the Free City).
CASES = [*PLAYERS.items(), ("seven_wonders", 2)]


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "players"), CASES)
def test_a_whole_game_is_played_by_tapping_the_board(slug, players, browser,  # noqa: F811
                                                     live_server):
    engine = get_engine(slug)
    game, human = game_against_bots(slug, players, f"board-play-{slug}-{players}")
    label = f"{slug}-two-players" if (slug, players) == ("seven_wonders", 2) else slug
    seat = game.seats.get(user=human).number
    page = signed_in_page(browser, live_server.url, human, PHONE)
    small = signed_in_page(browser, live_server.url, human, SMALL)
    url = f"{live_server.url}/games/{game.pk}/"
    open_page(page, url)
    report = {"engine": label, "decisions": 0, "taps": 0, "axe": {}, "weight": 0,
              "checked_layouts": 0, "made": {"from the board": 0, "from the short list": 0}}
    problems: list[str] = []
    shots = 0
    for _ in range(MAX_DECISIONS):
        game.refresh_from_db()
        if game.status != "active":
            break
        if not engine.legal_actions(game.state, seat) or (
                engine.simultaneous and seat not in engine.active_seats(game.state)):
            page.wait_for_timeout(200)
            open_page(page, url)
            continue
        if engine.simultaneous:
            bots_have_picked(game, engine, seat)
        if f'data-version="{game.version}"' not in content_settled(page):
            open_page(page, url)
        decision = report["decisions"]
        if decision in (0, 5) or decision % 40 == 20:
            # The page as a player opens it, at both phone sizes, with its choices shown.
            problems += layout_problems(page, PHONE["width"])
            open_page(small, url)
            problems += layout_problems(small, SMALL["width"])
            small.goto("about:blank")  # not left to reload itself on every move
            report["checked_layouts"] += 1
            if decision in (0, 5):
                report["axe"][f"decision {decision}"] = axe_problems(page)
                open_page(page, url)
                report["weight"] = max(report["weight"], page_weight(page, live_server.url))
            if shots < 2:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"play-{label}-{shots}.png"),
                                full_page=True)
                shots += 1
        assert game.seed not in content_settled(page)
        shot = f"play-{label}-{decision}" if decision in (0, 5) else None
        report["taps"] += play_one_decision(page, game, engine, seat, shot, report["made"])
        report["decisions"] += 1
    game.refresh_from_db()
    assert game.status == "finished", f"{label}: the game did not end by tapping"
    open_page(page, url)
    report["axe"]["finished"] = axe_problems(page)
    page.screenshot(path=str(ARTIFACTS / f"play-{label}-end.png"), full_page=True)
    (ARTIFACTS / f"play-{label}.json").write_text(json.dumps(report, indent=1))
    assert problems == [], problems[:10]
    assert all(found == [] for found in report["axe"].values()), report["axe"]
    assert report["weight"] <= MAX_PAGE_BYTES, report["weight"]
    assert page.csp_violations == [], page.csp_violations
    assert re.search(r"Result", content_settled(page))


def test_after_my_secret_pick_the_page_shows_it_and_who_is_still_choosing(
        browser, live_server):  # noqa: F811
    engine = get_engine("seven_wonders")
    users = [UserFactory() for _ in range(3)]
    for user in users:
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    game = services.game_create(creator=users[0], engine_slug="seven_wonders", num_players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game = services.game_start(game_id=game.pk, user=users[0])
    page = signed_in_page(browser, live_server.url, users[0], PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    seat = game.seats.get(user=users[0]).number
    taps = play_one_decision(page, game, engine, seat)
    assert taps == 2
    pick = page.locator(".your-pick")
    assert pick.is_visible() and "Your pick:" in pick.inner_text()
    legend = page.locator(".legend").inner_text()
    assert legend.count("✓ picked") == 1 and legend.count("choosing…") == 2
    assert page.locator("#choices").is_hidden(), "the choices fold after the pick"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "play-seven_wonders-picked.png"))
    page.locator(".your-pick .change").click()
    assert page.locator("#your-move h2").inner_text() == "Change your pick"
    assert page.locator(".tap").count() >= 7, "the hand stays tappable to change the pick"
    assert axe_problems(page) == []


def test_without_javascript_a_choice_is_a_form_that_leads_to_confirm(browser, live_server):  # noqa: F811
    game, human = game_against_bots("stone_age", 2, "board-play-no-js")
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", human.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    seat = game.seats.get(user=human).number
    game.refresh_from_db()
    choices = page.locator("#choices button.choice")
    assert choices.count() == len(get_engine("stone_age").legal_actions(game.state, seat))
    assert all(choices.nth(i).is_visible() for i in range(choices.count()))
    version = game.version
    choices.first.click()
    # The click posts a form: expect() waits for the page it leads to.
    expect(page.locator("#confirm .confirm-button")).to_be_visible()
    game.refresh_from_db()
    assert game.version == version, "nothing is sent before Confirm"
    page.locator("#confirm .confirm-button").click()
    game.refresh_from_db()
    assert game.version > version
    assert layout_problems(page, PHONE["width"]) == []
    context.close()
