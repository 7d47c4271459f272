"""How a decision is made on a phone, measured the way a player meets it: where the first place
to tap is when the page settles (how far the player must scroll to reach it) and how many taps
the decision takes. Shared by the browser tests that play whole games; the numbers land in
their reports (test-artifacts/phone-*.json, play-*.json)."""

from __future__ import annotations

from games.engines.base import canonical_action

#: Waits two frames: the page's own scroll to the decision (on load) has happened by then.
SETTLE = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

#: How far the element lies outside the viewport (0: in view), in CSS pixels; a page's bar that
#: stays at the top (the turn bar) hides what is under it.
SCROLL_NEEDED = """(el) => { const r = el.getBoundingClientRect();
  const bar = document.getElementById("turn-bar");
  const top = bar && getComputedStyle(bar).position === "sticky"
    ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  return Math.max(0, Math.ceil(r.bottom - window.innerHeight), Math.ceil(top - r.top)); }"""


def chosen_index(page, game, engine, seat) -> int:
    """The index on the page of the bot's choice for this seat (a choice merged into an earlier
    one with the same sentence is that one)."""
    legal = engine.legal_actions(game.state, seat)
    wanted = canonical_action(engine.bot_action(game.state, seat))
    index = next(i for i, action in enumerate(legal) if canonical_action(action) == wanted)
    if page.locator(f'#choices > li:has(input[name=index][value="{index}"])').count() == 0:
        words = engine.describe(game.state, seat, legal[index], viewer=seat)
        index = next(i for i, action in enumerate(legal)
                     if engine.describe(game.state, seat, action, viewer=seat) == words)
    return index


def first_target(page):
    """The current decision's first tappable place: a highlighted place on the board, else the
    first listed choice."""
    places = page.locator("#board .tap")
    if places.count():
        return places.first
    return page.locator("#choices > li:not([hidden]) button.choice").first


def tap_decision(page, game, engine, seat, shot: str | None = None) -> dict:
    """Makes the bot's choice for this seat by tapping: its place on the board (or its line in
    the short list), then whatever the sheet asks, up to Confirm. Returns the taps and how far
    the player had to scroll, at the page as it settled, to reach the first place to tap.
    `shot`: where to keep a picture of the open sheet."""
    page.evaluate(SETTLE)
    scroll_to_first = first_target(page).evaluate(SCROLL_NEEDED)
    index = chosen_index(page, game, engine, seat)
    item = page.locator(f'#choices > li:has(input[name=index][value="{index}"])')
    targets = (item.get_attribute("data-targets") or "").split()
    places = [key for key in targets if page.locator(f'#board .tap[data-target="{key}"]').count()]
    taps = 1
    if places:
        place = page.locator(f'#board .tap[data-target="{places[0]}"]').first
        place.scroll_into_view_if_needed()
        place.click()
    else:
        item.locator("button.choice").click()
    page.wait_for_selector("#sheet .confirm-button, #sheet li button.choice")
    if shot:
        page.screenshot(path=shot)
    mine = f':has(input[name=index][value="{index}"])'
    confirm = page.locator(f"#sheet form{mine}:has(input[name=confirm][value='1']) button")
    if confirm.count() == 0:
        page.locator(f"#sheet li{mine} button.choice").click()
        taps += 1
        confirm = page.locator("#sheet .confirm-button")
        confirm.wait_for()
    version = game.version
    # The move's request plays the bots' answers too (Celery runs in-process in tests), which
    # takes long on a busy machine: the new page is awaited for up to five minutes.
    with page.expect_navigation(timeout=300_000):
        confirm.first.click(no_wait_after=True)
    taps += 1
    game.refresh_from_db()
    assert game.version > version, "Confirm did not make the move"
    return {"taps": taps, "scroll": scroll_to_first}
