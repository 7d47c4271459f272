"""An invite link in a real browser (Debian's Chromium, phone size): a newcomer opens it logged
out, signs up, confirms the address from the mailed link, comes back to the game and joins. The
players' pages are photographed at 390x844 on the way."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.utils import timezone

from games import services
from games.models import Game, GameStatus
from games.services import invitations as invites
from games.services import ratings
from tests.e2e.test_browser import ARTIFACTS, PASSWORD, browser, watch_csp  # noqa: F401
from tests.factories import PASSWORD as FACTORY_PASSWORD
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def phone_page(browser):  # noqa: F811 - the fixture
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.csp_violations = watch_csp(page)
    return page


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


def finished_games(alice, bob, count=3):
    for number in range(count):
        game = services.game_create(creator=alice, engine_slug="toy", num_players=2,
                                    name=f"Evening {number + 1}")
        services.game_join(game_id=game.pk, user=bob)
        services.game_start(game_id=game.pk, user=alice)
        winner = game.seats.get(user=alice if number % 3 else bob).number
        Game.objects.filter(pk=game.pk).update(
            status=GameStatus.FINISHED, finished_at=timezone.now(),
            result={"scores": [12 + number, 9], "winners": [winner],
                    "breakdown": [{"bids": 10, "bank": 2 + number}, {"bids": 7, "bank": 2}]})
        ratings.ratings_apply(game_id=game.pk)


def test_a_newcomer_signs_up_from_an_invite_link_and_joins(browser, live_server):  # noqa: F811
    base = live_server.url
    from allauth.account.models import EmailAddress

    alice = UserFactory(username="alice", display_name="Alice")
    EmailAddress.objects.create(user=alice, email=alice.email, verified=True, primary=True)
    bob = UserFactory(username="bob")
    finished_games(alice, bob)
    game = services.game_create(creator=alice, engine_slug="toy", num_players=3,
                                allow_spectators=False, name="Friday table")
    link = f"{base}{invites.invite_path(game)}"

    page = phone_page(browser)
    page.goto(link)
    assert page.get_by_text("You are invited to Friday table").is_visible()
    shot(page, "invite-link-logged-out")
    page.click("a.button:has-text('Sign up')")
    page.fill("input[name=email]", "newcomer@example.com")
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/confirm-email/")
    mailed = next(m for m in mail.outbox if "newcomer@example.com" in m.to)
    confirm = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", mailed.body).group(1)
    page.goto(f"{base}{confirm}")
    page.click("form button[type=submit]")
    # Confirming signs the newcomer in and brings them back to the invitation.
    page.wait_for_url(link)
    shot(page, "invite-link-logged-in")
    page.click("button:has-text('Join Friday table')")
    page.wait_for_url(f"{base}/games/{game.pk}/")
    assert page.get_by_text("You joined the game.").is_visible()
    shot(page, "game-page-after-joining")
    assert game.seats.filter(user__username="newcomer").exists()

    # The host copies the link from the game page; a player's profile, the finished games
    # and the leaderboard, as a phone shows them.
    host = phone_page(browser)
    host.goto(f"{base}/accounts/login/")
    host.fill("input[name=login]", "alice")
    host.fill("input[name=password]", FACTORY_PASSWORD)
    host.click("form button[type=submit]")
    host.wait_for_url(f"{base}/")
    host.goto(f"{base}/games/{game.pk}/")
    shown = host.input_value("#invite-link").rstrip("/").rsplit("/", 1)[1]
    assert invites.invite_link_open(shown).game == game
    shot(host, "game-page-invite-link")
    host.goto(f"{base}/users/bob/")
    assert host.get_by_text("You and bob").is_visible()
    shot(host, "profile-page")
    host.goto(f"{base}/games/finished/")
    shot(host, "finished-games")
    host.goto(f"{base}/leaderboard/toy/")
    shot(host, "leaderboard")
    # A finished game offers its replay and a rematch; one tap offers it to the same players.
    last = Game.objects.filter(status=GameStatus.FINISHED).order_by("-pk").first()
    host.goto(f"{base}/games/{last.pk}/")
    assert host.locator("a[href='?version=0']").is_visible()
    shot(host, "finished-game-page")
    host.click("button:has-text('Rematch')")
    rematch = Game.objects.get(rematch_of=last)
    host.wait_for_url(f"{base}/games/{rematch.pk}/")
    assert host.get_by_text("Rematch offered").is_visible()
    assert rematch.invitations.get().invitee == bob
    assert host.get_by_text("Invited: bob (waiting)").is_visible()
    shot(host, "rematch-offered")
    host.goto(f"{base}/games/new/")
    assert host.is_checked("input[name=rated]") and not host.is_checked(
        "input[name=start_when_full]")
    shot(host, "create-game")
    assert page.csp_violations == [] and host.csp_violations == []
