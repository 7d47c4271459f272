"""The web shell in a real browser: Debian's Chromium driven by Playwright, at phone size."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import expect

from games.models import Game, GameStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS_DIR", Path(__file__).resolve().parents[2]
                                / "test-artifacts"))
PHONE = {"width": 360, "height": 740}
PASSWORD = "correct-Horse-battery-9"


@pytest.fixture
def browser():
    # Playwright's sync API keeps an event loop in this thread; the ORM calls the test makes
    # between page actions are still plain synchronous calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def watch_csp(page) -> list[str]:
    """The Content-Security-Policy violations the browser reports for this page, as they come."""
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    return violations


def sign_up(browser, base_url: str, username: str):
    """Signs up, confirms the address with the mailed link (which signs the player in)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.csp_violations = watch_csp(page)
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base_url}/accounts/confirm-email/")
    mailed = next(m for m in mail.outbox if f"{username}@example.com" in m.to)
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", mailed.body).group(1)
    page.goto(f"{base_url}{link}")
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base_url}/")
    expect(page.get_by_text("Your move").first).to_be_visible()
    return page


def test_two_players_sign_up_create_join_start_and_move(browser, live_server):
    base = live_server.url
    alice = sign_up(browser, base, "alice")
    bob = sign_up(browser, base, "bob")
    assert len([m for m in mail.outbox if "Confirm" in m.subject or "confirm" in m.body]) == 2

    alice.click("text=New game")
    alice.select_option("select[name=engine]", "toy")
    alice.fill("input[name=num_players]", "2")
    alice.click("text=Create game")
    alice.wait_for_url(f"{base}/games/*/")
    game_url = alice.url

    bob.goto(game_url)
    bob.click("button:has-text('Join')")
    expect(bob.get_by_text("You joined the game.")).to_be_visible()

    alice.reload()
    alice.click("button:has-text('Start')")
    # A click does not wait for the page it posts to: expect() looks again until it is shown.
    expect(alice.get_by_text("The game has started.")).to_be_visible()
    game = Game.objects.get()
    assert game.status == GameStatus.ACTIVE

    choices = alice.locator("#your-move button.choice")
    assert choices.count() == 3
    choices.nth(2).click()
    # Nothing is sent before Confirm: the sheet shows what the choice does.
    alice.locator("#sheet .confirm-button").click()
    expect(alice.get_by_text("bid 3.").first).to_be_visible()
    game.refresh_from_db()
    assert game.version == 1

    # Nothing overflows sideways at phone width.
    scroll_width = alice.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= PHONE["width"], scroll_width

    # Bob never reloads: his page follows the start and Alice's bid by itself (the folded log
    # shows its newest entry).
    bob.get_by_text("placed a secret bid").first.wait_for(timeout=20_000)
    assert bob.locator("#your-move button.choice").count() == 3
    bob.locator("#your-move button.choice").nth(0).click()
    bob.locator("#sheet .confirm-button").click()
    # Both bids are in, the turn resolves, and Alice's page shows the next phase unprompted.
    alice.locator("#log > summary").click()
    alice.get_by_text("Bids revealed").first.wait_for(timeout=20_000)
    game.refresh_from_db()
    assert game.version >= 3
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    alice.screenshot(path=str(ARTIFACTS / "game-page-phone.png"), full_page=True)
    assert (ARTIFACTS / "game-page-phone.png").stat().st_size > 10_000
    # Every page ran under the site's Content-Security-Policy without a refusal.
    assert alice.csp_violations == [] and bob.csp_violations == []
