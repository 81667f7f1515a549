"""R-38 / R-42 in a real headless browser (Debian's chromium driven by Playwright): an operator
opens the review queue and a signals flag's page, and reads its evidence — the numbers, what
players of the same rating do, and the rounds that carry them, each a link to its round. The
screenshots are kept in ``.artifacts/fairplay-browser/``."""

from __future__ import annotations

import pytest

from rivals.fairplay.models import FairPlayFlag
from rivals.fairplay.signals import fairplay_result_score
from tests.browser import artifacts, skip_without_chromium
from tests.fairplay.test_signals import THRESHOLDS, _world
from tests.matches.helpers import at

PASSWORD = "op-password-1"

skip_without_chromium()


@pytest.fixture
def flagged(settings, transactional_db):
    settings.RIVALS = {**settings.RIVALS, "ROUND_LAYOUTS": ["L08"], "FAIRPLAY_SIGNALS": THRESHOLDS}
    players, results = _world()
    for result in results:
        fairplay_result_score(result=result, now=at(5000))
    return players


def test_R_38_R_42_the_review_queue_shows_a_signals_flags_evidence_readably(
    browser, live_server, flagged, django_user_model
):
    honest, assisted, leader, follower = flagged
    shots = artifacts("fairplay-browser")
    django_user_model.objects.create_superuser("operator", PASSWORD)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", "operator")
        page.fill("#id_password", PASSWORD)
        page.click("input[type=submit]")
        page.wait_for_selector("#site-name")

        page.goto(f"{live_server.url}/admin/fairplay/fairplayflag/")
        queue = page.inner_text("#result_list")
        assert "plays as a solver would" in queue and "same pairs as another account" in queue
        assert "plan pair 100 % of 39 choices (same rating: 27 %, z 10.24)" in queue
        page.screenshot(path=shots / "1-review-queue.png", full_page=True)

        solver = FairPlayFlag.objects.get(account_id=assisted.pk, kind="solver_assist")
        page.goto(f"{live_server.url}/admin/fairplay/fairplayflag/{solver.pk}/change/")
        evidence = page.locator(".fairplay-evidence")
        text = evidence.inner_text()
        assert "Took the server's plan pair at 39 of 39 positions with a choice (100 %)" in text
        assert "players of the same rating on these layouts: 27 % (z = 10.24)" in text
        assert "Kept the deal solvable at 2 of 2 positions where some free pair would lose it" in text
        rows = evidence.locator("table.fairplay-rounds tr")
        assert rows.count() == 1 + 3  # a header and the three rounds of the window
        assert rows.nth(3).inner_text().split("\t")[1:] == ["L08", "16 / 16", "28 %", "2 / 2", "83 %"]
        links = [evidence.locator("a").nth(k).get_attribute("href") for k in range(3)]
        assert [h.split("/")[-3] for h in links] == [r["round_id"] for r in solver.details["rounds"]]
        assert page.locator("text=Confirm and suspend…").count() == 1  # the operator decides, as before
        evidence.screenshot(path=shots / "2-solver-evidence.png")

        collusion = FairPlayFlag.objects.get(account_id=leader.pk, kind="collusion")
        page.goto(f"{live_server.url}/admin/fairplay/fairplayflag/{collusion.pk}/change/")
        evidence = page.locator(".fairplay-evidence")
        text = evidence.inner_text()
        assert "The same pairs, in the same order, as" in text and "on 3 of 3 shared deals" in text
        assert evidence.locator(f"a[href$='/{follower.pk}/change/']").count() == 1  # the partner, a link
        assert evidence.locator("table.fairplay-rounds tr").count() == 1 + 3
        evidence.screenshot(path=shots / "3-collusion-evidence.png")
        page.screenshot(path=shots / "4-collusion-flag.png", full_page=True)
    finally:
        context.close()
