"""The API's pages work offline (issue 39): ReDoc (``/api/redoc/``) and Swagger UI (``/api/docs/``)
in a real headless browser load everything from the service itself — no font, logo or script from
another host, no console error — render every operation, and Swagger UI's "Try it out" fills a
move's body with an example the server accepts. Screenshots: ``.artifacts/docs/``."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser import artifacts, skip_without_chromium

skip_without_chromium()
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def shots():
    return artifacts("docs")


def _offline_page(browser, base: str):
    """A page whose requests to any other host are refused and recorded, as are console errors."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.outside, page.errors = [], []
    here = urlsplit(base).netloc

    def route(r):
        if urlsplit(r.request.url).netloc in (here, "") or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            page.outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def test_redoc_is_served_whole_by_the_service(browser, live_server, shots):
    context, page = _offline_page(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}/api/redoc/", wait_until="networkidle")
        page.wait_for_selector("h1:has-text('Mahjong Rivals API')", timeout=60_000)
        menu = page.locator(".menu-content")
        assert menu.locator("text=Boards and games").count() == 1  # API.md's sections …
        assert menu.locator("text=Send a move in a game").count() == 1  # … and operations in words
        page.screenshot(path=str(shots / "redoc.png"))
        menu.locator("text=Boards and games").click()
        menu.locator("text=Send a move in a game").click()
        page.wait_for_timeout(1000)
        page.screenshot(path=str(shots / "redoc-intent.png"))
        assert page.outside == [], page.outside
        assert page.errors == [], page.errors
    finally:
        context.close()


def test_swagger_ui_is_served_whole_and_try_it_out_fills_a_real_move(browser, live_server, shots):
    context, page = _offline_page(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}/api/docs/", wait_until="networkidle")
        page.wait_for_selector(".opblock-summary", timeout=60_000)
        page.screenshot(path=str(shots / "swagger.png"))
        operation = page.locator("#operations-Boards_and_games-game_intent_send")
        operation.locator(".opblock-summary").click()
        operation.locator("button.try-out__btn").click()
        body = operation.locator("textarea.body-param__text").input_value()
        assert '"type": "remove_pair"' in body and '"tiles"' in body, body
        operation.locator("textarea.body-param__text").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "swagger-try-it-out.png"))
        assert page.outside == [], page.outside
        assert page.errors == [], page.errors
    finally:
        context.close()
