"""The API docs in a real browser with no outside network: Swagger UI lists the operations and
Redoc renders the schema, both from our own static files, with no CSP violation."""

from __future__ import annotations

import pytest

from tests.e2e.test_browser import browser, watch_csp  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _offline_page(browser):  # noqa: F811
    page = browser.new_page()
    outside: list[str] = []

    def only_loopback(route):
        if route.request.url.startswith(("http://localhost", "http://127.0.0.1", "blob:",
                                         "data:")):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_loopback)
    return page, outside


def test_swagger_ui_lists_the_operations_offline(browser, live_server):  # noqa: F811
    page, outside = _offline_page(browser)
    violations = watch_csp(page)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock-summary-path", timeout=15000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/v1/games/" in path for path in paths), paths
    assert outside == [] and violations == [], (outside, violations)
    # The client authors' guide is one click away, and it is served.
    guide = page.locator("a[href='/api/writing-a-client/']")
    assert guide.inner_text() == "Writing a client"
    answer = page.request.get(f"{live_server.url}/api/writing-a-client/")
    assert answer.ok and "def play_awaiting_games" in answer.text()


def test_redoc_renders_the_schema_offline(browser, live_server):  # noqa: F811
    page, outside = _offline_page(browser)
    violations = watch_csp(page)
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("text=Turnpost API", timeout=15000)
    page.wait_for_selector("text=/api/v1/games/", timeout=15000)
    # Redoc's bundle names its "powered by" logo on its CDN; the policy blocks that one image
    # (nothing is fetched from outside) and the docs are whole without it.
    violations = [text for text in violations if "cdn.redoc.ly/redoc/logo" not in text]
    assert outside == [] and violations == [], (outside, violations)
