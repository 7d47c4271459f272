"""The game page on a phone, version 3: at every decision of whole games the first place to tap
is in view when the page settles, a decision takes two taps, and the page follows the game in
place (no navigation but the player's own Confirm). Two players' browsers: a sheet held open on
one survives the other's move, and says so plainly when its choice was taken away. Each run
writes its numbers to test-artifacts/phone-<engine>-<size>-<language>.json."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress

from games import services
from games.engines.registry import get_engine
from tests.e2e.phone_measure import SETTLE, tap_decision
from tests.e2e.test_board_play import PHONE, SMALL, game_against_bots, page_weight, signed_in_page
from tests.e2e.test_browser import ARTIFACTS, browser  # noqa: F401
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Each engine at both phone sizes, each language at least once.
CASES = [
    ("stone_age", 2, PHONE, "en"), ("stone_age", 2, SMALL, "fa"),
    ("seven_wonders", 3, PHONE, "zh-hans"), ("seven_wonders", 3, SMALL, "it"),
    ("caverna", 2, PHONE, "it"), ("caverna", 2, SMALL, "en"),
]
MAX_DECISIONS = 700
#: The whole game page, gzip, on first load (HTML, CSS, scripts, the board's pictures).
MAX_PAGE_BYTES = 40 * 1024


def settled(page, version: int) -> None:
    """Waits until the page shows `version` (its own updates bring it) and has settled."""
    page.wait_for_function(
        "version => document.getElementById('live-game').dataset.version === version",
        arg=str(version), timeout=30_000)
    page.evaluate(SETTLE)


def same_document(page) -> bool:
    return page.evaluate("() => window.sameDocument === true")


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "players", "viewport", "language"), CASES,
                         ids=[f"{c[0]}-{c[2]['width']}-{c[3]}" for c in CASES])
def test_every_decision_is_in_view_and_takes_two_taps(slug, players, viewport, language,
                                                      browser, live_server):  # noqa: F811
    engine = get_engine(slug)
    game, human = game_against_bots(slug, players, f"phone-{slug}-{players}")
    human.language = language
    human.save(update_fields=["language"])
    seat = game.seats.get(user=human).number
    page = signed_in_page(browser, live_server.url, human, viewport)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    weight = page_weight(page, live_server.url)
    rows, reloaded = [], []
    page.evaluate("() => { window.sameDocument = true; }")
    for _ in range(MAX_DECISIONS * 4):
        game.refresh_from_db()
        if game.status != "active":
            break
        if seat not in engine.active_seats(game.state) or not engine.legal_actions(
                game.state, seat):
            page.wait_for_timeout(200)  # the bots' moves and a resolution (eager tasks)
            continue
        settled(page, game.version)
        if not same_document(page):
            reloaded.append(len(rows))
        try:
            shot = (str(ARTIFACTS / f"phone-{slug}-{viewport['width']}-{language}-{len(rows)}.png")
                    if len(rows) in (1, 5) else None)
            row = tap_decision(page, game, engine, seat, shot=shot)
        except Exception as error:
            page.screenshot(path=str(ARTIFACTS / f"phone-{slug}-failed.png"))
            raise AssertionError(f"decision {len(rows)} at version {game.version}") from error
        # After Confirm the new page opens at the board; it is the only navigation there is.
        page.evaluate("() => { window.sameDocument = true; }")
        rows.append(row)
    game.refresh_from_db()
    assert game.status == "finished", f"{slug}: the game did not end by tapping"
    taps = sum(row["taps"] for row in rows) / len(rows)
    out_of_view = [(number, row["scroll"]) for number, row in enumerate(rows) if row["scroll"]]
    report = {"engine": slug, "viewport": viewport, "language": language,
              "decisions": len(rows), "taps per decision": round(taps, 3),
              "scroll before the first tap": {"max": max(row["scroll"] for row in rows),
                                              "decisions out of view": len(out_of_view)},
              "page weight gzip": weight, "reloads": reloaded}
    (ARTIFACTS / f"phone-{slug}-{viewport['width']}-{language}.json").write_text(
        json.dumps(report, indent=1))
    page.screenshot(path=str(ARTIFACTS / f"phone-{slug}-{viewport['width']}-{language}.png"))
    assert out_of_view == [], out_of_view[:10]
    assert taps <= 2, report
    assert reloaded == [], "the page navigated while the bots moved"
    assert weight <= MAX_PAGE_BYTES, weight
    assert page.csp_violations == [], page.csp_violations


def verified_user():
    user = UserFactory()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def seven_wonders_for_three():
    users = [verified_user() for _ in range(3)]
    game = services.game_create(creator=users[0], engine_slug="seven_wonders", num_players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game = services.game_start(game_id=game.pk, user=users[0])
    return game, {seat.number: seat.user for seat in game.seats.all()}


def pick_first(game, engine, seat: int, by) -> None:
    game.refresh_from_db()
    services.game_action_submit(game_id=game.pk, user=by, expected_version=game.version,
                                action=engine.legal_actions(game.state, seat)[0])


@pytest.mark.slow
def test_an_open_sheet_survives_another_players_move_and_says_when_its_choice_is_gone(
        browser, live_server):  # noqa: F811
    engine = get_engine("seven_wonders")
    game, users = seven_wonders_for_three()
    alice_page = signed_in_page(browser, live_server.url, users[0], PHONE)
    bob_page = signed_in_page(browser, live_server.url, users[1], SMALL)
    url = f"{live_server.url}/games/{game.pk}/"
    alice_page.goto(url)
    bob_page.goto(url)
    alice_page.evaluate("() => { window.sameDocument = true; }")
    # Alice holds a card's sheet open while Bob picks in his own browser.
    alice_page.locator("#board .tap").first.click()
    alice_page.locator("#sheet .confirm-button").first.wait_for()
    bob_taps = tap_decision(bob_page, game, engine, 1)
    assert bob_taps["taps"] == 2
    game.refresh_from_db()
    settled(alice_page, game.version)
    assert same_document(alice_page), "Alice's page reloaded on Bob's pick"
    assert alice_page.locator("#sheet").is_visible(), "the open sheet was thrown away"
    # Her Confirm, drawn before Bob's pick, still makes her move.
    version = game.version
    with alice_page.expect_navigation():
        alice_page.locator("#sheet .confirm-button").first.click()
    game.refresh_from_db()
    assert game.version > version and 0 not in engine.active_seats(game.state)

    # Alice opens a card again (to change her pick); the others' picks end the round and the
    # hands pass on: the card is gone, and her sheet says so instead of vanishing.
    alice_page.evaluate("() => { window.sameDocument = true; }")
    alice_page.locator(".your-pick .change").click()
    alice_page.locator("#board .tap").first.click()
    alice_page.locator("#sheet .confirm-button").first.wait_for()
    pick_first(game, engine, 2, users[2])
    game.refresh_from_db()
    settled(alice_page, game.version)
    gone = alice_page.locator("#sheet .confirm-gone")
    gone.wait_for()
    assert alice_page.locator("#sheet").is_visible() and same_document(alice_page)
    # A tap outside the sheet puts it away.
    alice_page.locator("h1").click()
    assert alice_page.locator("#sheet").is_hidden()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    alice_page.screenshot(path=str(ARTIFACTS / "phone-sheet-after-others-moved.png"))
    assert alice_page.csp_violations == [] and bob_page.csp_violations == []


@pytest.mark.slow
def test_a_confirm_held_open_through_another_players_api_move_still_makes_the_move(
        browser, live_server):  # noqa: F811
    """The Confirm itself (one choice, reached from the list), held open while another player
    moves through the REST API: the update arrives without a reload, the same Confirm is still
    there at the new version, and tapping it makes the move, as the API then shows."""
    import requests

    from accounts.tokens import ALL_SCOPES, token_create

    engine = get_engine("seven_wonders")
    game, users = seven_wonders_for_three()
    tokens = {seat: token_create(user=user, name="phone", scopes=ALL_SCOPES, via="test")[1]
              for seat, user in users.items()}

    def api(method: str, path: str, seat: int, body=None):
        response = requests.request(method, f"{live_server.url}/api/v1{path}", json=body,
                                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                                    timeout=30)
        assert response.ok, (response.status_code, response.text)
        return response.json()

    alice_page = signed_in_page(browser, live_server.url, users[0], SMALL)
    alice_page.goto(f"{live_server.url}/games/{game.pk}/")
    alice_page.evaluate("() => { window.sameDocument = true; }")
    # Alice lists the choices and taps one: the sheet holds its single Confirm.
    alice_page.locator("#your-move .show-all").click()
    alice_page.locator("#choices > li button.choice").first.click()
    confirm = alice_page.locator("#sheet .confirm")
    confirm.wait_for()
    assert confirm.count() == 1
    words = confirm.locator("h2, .confirm-move").last.inner_text()
    index = int(confirm.locator("input[name=index]").get_attribute("value"))
    wanted = engine.legal_actions(game.state, 0)[index]

    # Bob picks through the API while Alice's Confirm is open.
    version = api("GET", f"/games/{game.pk}/", 1)["version"]
    legal = api("GET", f"/games/{game.pk}/actions/", 1)
    api("POST", f"/games/{game.pk}/actions/", 1, {"action": legal[0]["action"],
                                                   "version": version})
    game.refresh_from_db()
    assert game.version > version
    settled(alice_page, game.version)
    # The sheet is drawn again at the new version: the same Confirm, ready to send.
    alice_page.wait_for_function(
        "version => document.querySelector('#sheet .confirm input[name=version]')"
        "?.value === version", arg=str(game.version), timeout=15_000)
    assert same_document(alice_page), "Alice's page reloaded on Bob's move"
    assert alice_page.locator("#sheet").is_visible() and confirm.count() == 1
    assert confirm.locator("h2, .confirm-move").last.inner_text() == words
    assert alice_page.locator("#sheet .confirm-gone").count() == 0

    before = game.version
    with alice_page.expect_navigation():
        confirm.locator(".confirm-button").click()
    # The Confirm's answer is the game page again, and the move is in the API.
    assert f"/games/{game.pk}/" in alice_page.url
    seen = api("GET", f"/games/{game.pk}/", 0)
    assert seen["version"] > before
    assert {key: seen["view"]["you"]["pick"][key] for key in wanted} == wanted
    assert alice_page.csp_violations == []
