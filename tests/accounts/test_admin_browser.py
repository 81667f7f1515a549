"""The admin in a real headless browser (Debian's chromium driven by Playwright): an operator
logs in, finds a player by name, opens a flagged game from the account page and steps through
three events of the board replay, checking what is drawn. Screenshots are kept as artifacts in
``.artifacts/browser/`` (git-ignored; ``RIVALS_ARTIFACTS`` to put them elsewhere)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# as on this machine's probe: no background traffic (the network is closed), a fresh profile
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
    pytest.skip(
        "Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)", allow_module_level=True
    )


def _artifacts() -> Path:
    root = Path(os.environ.get("RIVALS_ARTIFACTS", Path(__file__).resolve().parents[2] / ".artifacts"))
    folder = root / "browser"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def flagged_player(transactional_db, django_user_model):
    """An operator, and a player whose classic game was played at bot speed through the API."""
    from rest_framework.test import APIClient

    from rivals.models import Game
    from tests.games.helpers import plan_of
    from tests.matches.helpers import CODE

    django_user_model.objects.create_superuser("operator", "op-password-1")
    client = APIClient()
    signin = client.post("/api/v1/auth/guest", {"device_id": "browser-bot-0123456789abcdef"}, format="json").json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {signin['token']}")
    client.patch("/api/v1/account", {"display_name": "Jade Tiger"}, format="json")
    game_id = client.post("/api/v1/games", {"mode": "classic", "code": CODE}, format="json").json()["id"]
    plan = plan_of(Game.objects.get(pk=game_id))
    for seq, pair in enumerate(plan[:4]):
        res = client.post(
            f"/api/v1/games/{game_id}/intents", {"seq": seq, "type": "remove_pair", "tiles": list(pair)}, format="json"
        )
        assert res.status_code == 200
    return {"account_id": signin["account_id"], "game_id": game_id, "pairs": plan[:4]}


def test_operator_finds_a_player_and_replays_the_flagged_game(live_server, flagged_player, monkeypatch):
    from playwright.sync_api import sync_playwright

    from rivals import engine
    from rivals.fairplay.models import FairPlayFlag
    from rivals.models import Game

    assert FairPlayFlag.objects.filter(account_id=flagged_player["account_id"], kind="fast_pairs").exists()
    faces = Game.objects.get(pk=flagged_player["game_id"]).initial_faces
    size = engine.get_layout("L08").size
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop shares this thread
    shots = _artifacts()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", "operator")
        page.fill("#id_password", "op-password-1")
        page.click("input[type=submit]")
        page.wait_for_selector("#site-name")
        page.screenshot(path=shots / "01-admin-home.png")

        page.goto(f"{live_server.url}/admin/rivals/account/")
        page.fill("#searchbar", "jade")
        page.press("#searchbar", "Enter")
        page.wait_for_selector("#result_list")
        assert page.locator("#result_list tbody tr").count() == 1
        page.screenshot(path=shots / "02-player-found-by-name.png")
        page.click("#result_list tbody tr a:text('Jade Tiger')")
        page.wait_for_selector("ul.player-hub")
        assert "Pairs faster than a human" in page.content() or "pairs faster than a human" in page.content()
        page.screenshot(path=shots / "03-account-hub.png", full_page=True)

        page.click("a.flagged-game")
        page.wait_for_selector("svg.board-replay")
        page.click("table.replay-events a:text-is('1')")  # the deal
        page.wait_for_selector("svg.board-replay[data-version='1']")
        assert page.locator("svg.board-replay g.tile").count() == size
        page.screenshot(path=shots / "04-replay-event-1-the-deal.png", full_page=True)
        for step, pair in enumerate(flagged_player["pairs"][:3], start=2):
            page.click("a.replay-next")
            page.wait_for_selector(f"svg.board-replay[data-version='{step}']")
            svg = page.locator("svg.board-replay")
            assert svg.locator("g.tile").count() == size - 2 * (step - 1)  # two tiles fewer per pair
            removed = svg.locator("g.removed")
            assert sorted(int(removed.nth(i).get_attribute("data-tile")) for i in range(2)) == sorted(pair)
            assert sorted(removed.nth(i).get_attribute("data-face") for i in range(2)) == sorted(faces[t] for t in pair)
            for t in pair:  # the pair is no longer drawn as a tile
                assert svg.locator(f"g.tile[data-tile='{t}']").count() == 0
            assert page.locator("table.replay-events tr.current td").first.inner_text() == str(step)
            page.screenshot(path=shots / f"0{step + 3}-replay-event-{step}.png", full_page=True)
        browser.close()
    assert sorted(x.name for x in shots.iterdir()) == [
        "01-admin-home.png",
        "02-player-found-by-name.png",
        "03-account-hub.png",
        "04-replay-event-1-the-deal.png",
        "05-replay-event-2.png",
        "06-replay-event-3.png",
        "07-replay-event-4.png",
    ]
