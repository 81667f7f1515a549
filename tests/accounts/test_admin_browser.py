"""The admin in a real headless browser (Debian's chromium driven by Playwright), as an operator
uses it: find a player by name, open a flagged game from the player page and step through its board
replay; and each operator action from its button (issue 22) — grant and correct jokers, suspend
and lift, close, confirm-and-suspend a flag, dismiss a report, cancel a running tournament,
deactivate and retire a recurring schedule, pause a job, add an operator. Issue 40: the roles (a
Viewer sees no action, a Support agent suspends but cannot cancel a tournament, Game operations
the reverse), the Operators page (add with a role, change the role, remove: the removed operator
cannot sign in), the jobs list at 1280 px and a finished demo-world tournament's page. Every test
asserts the action's effect (the account suspended, the tournament cancelled with its reason, the
flag reviewed: in the database and on the page after it), not only its banner.

One served instance (pytest-django's ``live_server``) and one browser serve every test of the
module. Screenshots are kept as artifacts in ``.artifacts/browser/`` (git-ignored;
``RIVALS_ARTIFACTS`` to put them elsewhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import artifacts, skip_without_chromium

PASSWORD = "op-password-1"

skip_without_chromium()


@pytest.fixture(scope="module")
def shots() -> Path:
    return artifacts("browser")


def _signed_in_page(browser, base: str, username: str, *, width: int = 1400):
    """A fresh context (no cookies from another test or operator), signed in as ``username``."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    page.base = base
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_selector("#site-name")
    return context, page


@pytest.fixture
def admin_page(browser, live_server, transactional_db, django_user_model):
    """A signed-in operator's page (an Administrator)."""
    operator = django_user_model.objects.create_superuser("operator", PASSWORD)
    context, page = _signed_in_page(browser, live_server.url, "operator")
    page.operator = operator
    yield page
    context.close()


@pytest.fixture
def role_page(browser, live_server, transactional_db):
    """``role_page(role)``: a signed-in page of a new operator of ``role`` (issue 40)."""
    from rivals.accounts.operators import operator_create

    contexts = []

    def open_as(role: str, *, width: int = 1400):
        operator_create(username=f"op-{role}", password=PASSWORD, role=role, actor="operator:test")
        context, page = _signed_in_page(browser, live_server.url, f"op-{role}", width=width)
        contexts.append(context)
        return page

    yield open_as
    for context in contexts:
        context.close()


def _confirm(page, button: str, *, fill: dict | None = None, tick: tuple[str, ...] = ()) -> str:
    """Press an object's action button, fill its confirmation page, submit; the messages' text."""
    page.click(f"button.object-action-{button}")
    page.wait_for_selector("form.confirm-action")
    for name, value in (fill or {}).items():
        page.fill(f"form.confirm-action [name={name}]", str(value))
    for name in tick:
        page.check(f"form.confirm-action [name={name}]")
    page.click("form.confirm-action input[type=submit]")
    page.wait_for_selector("ul.messagelist")
    return page.locator("ul.messagelist").inner_text()


@pytest.fixture
def flagged_player(transactional_db):
    """A player whose classic game was played at bot speed through the API."""
    from rest_framework.test import APIClient

    from rivals.games.models import Game
    from tests.games.helpers import plan_of
    from tests.matches.helpers import CODE

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


def test_operator_finds_a_player_and_replays_the_flagged_game(admin_page, flagged_player, shots):
    from rivals import engine
    from rivals.fairplay.models import FairPlayFlag
    from rivals.games.models import Game

    page = admin_page
    assert FairPlayFlag.objects.filter(account_id=flagged_player["account_id"], kind="fast_pairs").exists()
    faces = Game.objects.get(pk=flagged_player["game_id"]).initial_faces
    size = engine.get_layout("L08").size
    page.goto(f"{page.base}/admin/")
    page.screenshot(path=shots / "01-admin-home.png")

    page.goto(f"{page.base}/admin/rivals/account/")
    page.fill("#searchbar", "jade")
    page.press("#searchbar", "Enter")
    page.wait_for_selector("#result_list")
    assert page.locator("#result_list tbody tr").count() == 1
    page.screenshot(path=shots / "02-player-found-by-name.png")
    page.click("#result_list tbody tr a:text('Jade Tiger')")
    page.wait_for_selector("ul.player-hub")
    assert "pairs faster than a human" in page.content().lower()
    assert page.locator("table.key-figures").count() == 1
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
    assert {
        "01-admin-home.png",
        "02-player-found-by-name.png",
        "03-account-hub.png",
        "04-replay-event-1-the-deal.png",
        "05-replay-event-2.png",
        "06-replay-event-3.png",
        "07-replay-event-4.png",
    } <= {x.name for x in shots.iterdir()}


def _player_page_actions(page, pk: int, shots: Path) -> None:
    """Grant and correct jokers, suspend, lift, close — from the player page's buttons."""
    from rivals.models import Account, Event

    player = f"{page.base}/admin/rivals/account/{pk}/change/"
    page.goto(player)
    said = _confirm(page, "grant_jokers", fill={"amount": 5, "reason": "sorry for the outage"})
    assert "Grant jokers: 1 done" in said and Account.objects.get(pk=pk).jokers == 5
    assert page.url.endswith(f"/admin/rivals/account/{pk}/change/")  # back on the player's page
    assert "<b>5</b>" in page.inner_html("table.key-figures")
    said = _confirm(page, "correct_jokers", fill={"amount": 3, "reason": "granted 3 too many"})
    assert "now 2 joker(s)" in said and Account.objects.get(pk=pk).jokers == 2
    correction = Event.objects.filter(type="JokersChanged").latest("position")
    assert (correction.data["delta"], correction.data["note"]) == (-3, "granted 3 too many")

    page.click("button.object-action-suspend")
    page.wait_for_selector("form.confirm-action")
    assert "leave every ranking" in page.inner_text("ul.action-rows")
    page.screenshot(path=shots / "10-suspend-asks-for-a-reason.png", full_page=True)
    page.fill("form.confirm-action [name=reason]", "bot speed on a classic board")
    page.click("form.confirm-action input[type=submit]")
    page.wait_for_selector("ul.messagelist")
    account = Account.objects.get(pk=pk)
    assert account.suspended_at is not None and account.suspension_reason == "bot speed on a classic board"
    assert (
        "suspended" in page.inner_text("table.key-figures")
        and page.locator("button.object-action-suspend").count() == 0
    )
    page.screenshot(path=shots / "11-player-suspended.png", full_page=True)
    _confirm(page, "lift_suspension", fill={"reason": "appeal upheld"})
    assert Account.objects.get(pk=pk).suspended_at is None

    page.click("button.object-action-close_account")
    page.wait_for_selector("form.confirm-action")
    assert not page.is_checked("form.confirm-action [name=erase]")  # nothing irreversible is pre-ticked
    page.fill("form.confirm-action [name=reason]", "the player asked")
    page.click("form.confirm-action input[type=submit]")
    page.wait_for_selector("ul.messagelist")
    closed = Account.objects.get(pk=pk)
    assert closed.closed_at is not None and closed.display_name == "Jade Tiger"  # closed, not erased
    assert "closed" in page.inner_text("table.key-figures")


def _flag_and_report(page, pk: int, shots: Path) -> None:
    """Confirm and suspend the player's flag from its page, then dismiss a report on the player."""
    from rivals.fairplay.models import FairPlayFlag
    from rivals.models import Account
    from rivals.reports.services import report_file
    from tests.factories import AccountFactory

    flag = FairPlayFlag.objects.get(account_id=pk)
    page.goto(f"{page.base}/admin/fairplay/fairplayflag/")
    assert page.locator("#result_list tbody tr").first.inner_text().count("open") >= 1  # open first
    page.goto(f"{page.base}/admin/fairplay/fairplayflag/{flag.pk}/change/")
    said = _confirm(page, "confirm_and_suspend", fill={"reason": "four pairs in under a second"})
    assert "confirmed; account suspended" in said
    flag.refresh_from_db()
    assert (flag.status, flag.review_note) == ("confirmed", "four pairs in under a second")
    assert "four pairs in under a second" in Account.objects.get(pk=pk).suspension_reason
    assert (
        "confirmed" in page.inner_text("fieldset")
        and page.locator("button.object-action-review_dismissed").count() == 0
    )
    page.screenshot(path=shots / "12-flag-confirmed-account-suspended.png", full_page=True)

    report = report_file(
        reporter=AccountFactory.create(device_id="browser-reporter"), subject=f"player:{pk}", reason="name"
    )
    page.goto(f"{page.base}/admin/reports/report/{report.pk}/change/")
    said = _confirm(page, "dismiss", fill={"reason": "the name is fine"})
    assert "Dismiss reports: 1 done" in said
    report.refresh_from_db()
    assert (report.status, report.review_note) == ("dismissed", "the name is fine")


def _cancel_a_running_tournament(page, shots: Path) -> None:
    from rivals.matches.models import Round
    from tests.factories import AccountFactory
    from tests.tournaments.helpers import running_tournament
    from tournaments.models import Table, Tournament

    players = [AccountFactory.create(device_id=f"browser-cup-{i}") for i in range(3)]
    t = running_tournament(players, title="Evening Cup", prize_table=[100, 50])
    page.goto(f"{page.base}/admin/tournaments/tournament/{t.pk}/change/")
    page.click("button.object-action-cancel_tournaments")
    page.wait_for_selector("form.confirm-action")
    consequences = page.inner_text("ul.action-rows")
    assert "3 player(s) seated at 1 table(s) now" in consequences and "100 + 50 points" in consequences
    page.screenshot(path=shots / "13-cancel-tournament-consequences.png", full_page=True)
    page.fill("form.confirm-action [name=reason]", "the deal generator misbehaved")
    page.click("form.confirm-action input[type=submit]")
    page.wait_for_selector("ul.messagelist")
    t = Tournament.objects.get(pk=t.pk)
    assert (t.status, t.cancel_note) == ("cancelled", "the deal generator misbehaved")
    rounds = Round.objects.filter(pk__in=Table.objects.filter(tournament=t).values("round_id"))
    assert {r.status for r in rounds} == {"ended"}
    page.goto(f"{page.base}/admin/tournaments/tournament/{t.pk}/change/")
    assert "the deal generator misbehaved" in page.content()
    page.screenshot(path=shots / "14-tournament-cancelled.png", full_page=True)


def _schedule_job_and_operator(page, shots: Path) -> None:
    """Retire a schedule cancelling its instances, pause a job, add an operator."""
    from django.core.management import call_command
    from django_celery_beat.models import PeriodicTask

    from rivals.models import Account, Event
    from tests.tournaments.helpers import SCHEDULE_FORM
    from tournaments.models import RecurringSchedule, Tournament

    page.goto(f"{page.base}/admin/tournaments/recurringschedule/add/")
    for name, value in SCHEDULE_FORM.items():
        if name not in ("kind", "weekdays"):  # a select left at its default (regular); checkboxes, all ticked
            page.fill(f"[name={name}]", value)
    assert page.locator("input[name=weekdays]:checked").count() == 7
    page.click("input[name=_save]")
    page.wait_for_selector("ul.messagelist")
    schedule = RecurringSchedule.objects.get()
    upcoming = list(Tournament.objects.filter(schedule=schedule, status="scheduled"))
    assert upcoming
    page.goto(f"{page.base}/admin/tournaments/recurringschedule/{schedule.pk}/change/")
    page.click("button.object-action-retire_schedules")
    page.wait_for_selector("form.confirm-action")
    assert not page.is_checked("form.confirm-action [name=cancel_upcoming]")
    assert upcoming[0].title in page.inner_text("ul.action-rows")
    page.fill("form.confirm-action [name=reason]", "the format ends")
    page.check("form.confirm-action [name=cancel_upcoming]")
    page.click("form.confirm-action input[type=submit]")
    page.wait_for_selector("ul.messagelist")
    schedule.refresh_from_db()
    assert schedule.retired_at is not None
    assert set(Tournament.objects.filter(schedule=schedule).values_list("status", flat=True)) == {"cancelled"}
    page.screenshot(path=shots / "15-schedule-retired.png", full_page=True)

    call_command("setup_periodic_tasks", verbosity=0)
    job = PeriodicTask.objects.get(name="matches-sweep")
    page.goto(f"{page.base}/admin/django_celery_beat/periodictask/{job.pk}/change/")
    said = _confirm(page, "pause_jobs", fill={"reason": "investigating a stuck round"})
    assert "Pause jobs: 1 done" in said and PeriodicTask.objects.get(pk=job.pk).enabled is False
    call_command("setup_periodic_tasks", verbosity=0)  # the next make run
    assert PeriodicTask.objects.get(pk=job.pk).enabled is False
    page.goto(f"{page.base}/admin/django_celery_beat/periodictask/")
    assert "investigating a stuck round" in page.inner_text("#result_list")
    page.screenshot(path=shots / "16-job-paused.png", full_page=True)

    page.goto(f"{page.base}/admin/rivals/operator/add/")
    page.fill("[name=username]", "night-shift")
    page.select_option("[name=role]", "viewer")
    page.fill("[name=password1]", "a-long-pass-phrase-1")
    page.fill("[name=password2]", "a-long-pass-phrase-1")
    page.click("input[name=_save]")
    page.wait_for_selector("ul.messagelist")
    made = Account.objects.get(username="night-shift")
    assert made.is_staff and Event.objects.filter(stream_id=made.stream_id, type="OperatorCreated").exists()
    assert "reads every page, changes nothing" in page.content()


# One test per group of actions (not per action): each test pays a database flush and a sign-in.


def test_a_flag_a_report_and_the_player_pages_actions_do_what_they_say(admin_page, flagged_player, shots):
    pk = flagged_player["account_id"]
    _flag_and_report(admin_page, pk, shots)
    admin_page.goto(f"{admin_page.base}/admin/rivals/account/{pk}/change/")
    _confirm(admin_page, "lift_suspension", fill={"reason": "a first offence"})
    _player_page_actions(admin_page, pk, shots)


def test_a_tournament_a_schedule_a_job_and_a_new_operator(admin_page, shots):
    _cancel_a_running_tournament(admin_page, shots)
    _schedule_job_and_operator(admin_page, shots)


# --- issue 40: roles, the Operators page, the jobs list at 1280 px, a finished tournament -----------


def test_each_role_sees_and_does_what_it_may(role_page, shots):
    """A Viewer sees no action; Support suspends a player (a reason for the player, a note for
    operators) but is offered no tournament cancellation; Game operations the reverse."""
    from rivals.live.models import Notification
    from rivals.models import Account
    from tests.factories import AccountFactory
    from tests.tournaments.helpers import running_tournament
    from tournaments.models import Tournament

    player = AccountFactory.create(device_id="browser-roles-player", display_name="Jade Tiger")
    t = running_tournament([AccountFactory.create(device_id=f"browser-roles-{i}") for i in range(2)])
    player_url = f"/admin/rivals/account/{player.pk}/change/"
    tournament_url = f"/admin/tournaments/tournament/{t.pk}/change/"

    viewer = role_page("viewer")
    for url in (player_url, tournament_url, "/admin/rivals/account/", "/admin/django_celery_beat/periodictask/"):
        viewer.goto(viewer.base + url)
        assert viewer.locator("button[class*=object-action]").count() == 0, url
        assert viewer.locator("select[name=action]").count() == 0, url
        assert viewer.locator("input[name=_save]").count() == 0, url
    viewer.goto(viewer.base + player_url)
    viewer.screenshot(path=shots / "20-viewer-player-page-no-actions.png", full_page=True)

    support = role_page("support")
    support.goto(support.base + tournament_url)
    assert support.locator("button.object-action-cancel_tournaments").count() == 0
    support.screenshot(path=shots / "21-support-tournament-no-cancel.png", full_page=True)
    support.goto(support.base + player_url)
    assert support.locator("button.object-action-grant_jokers").count() == 0
    support.click("button.object-action-suspend")
    support.wait_for_selector("form.confirm-action")
    form = support.inner_text("form.confirm-action")
    assert "the player reads this" in form and "the player never sees it" in form
    support.select_option("form.confirm-action [name=reason_code]", "fair_play")
    support.fill("form.confirm-action [name=message]", "We saw automated play.")
    support.fill("form.confirm-action [name=reason]", "flag 97c6, reported by player 4242")
    support.screenshot(path=shots / "22-support-suspends-reason-message-note.png", full_page=True)
    support.click("form.confirm-action input[type=submit]")
    support.wait_for_selector("ul.messagelist")
    player.refresh_from_db()
    assert player.suspended_at is not None and player.suspension_reason == "flag 97c6, reported by player 4242"
    told = Notification.objects.get(account_id=player.pk, type="account_suspended").data
    assert told == {"reason_code": "fair_play", "message": "We saw automated play."}

    ops = role_page("game_ops")
    ops.goto(ops.base + player_url)
    assert ops.locator("button.object-action-suspend").count() == 0
    assert ops.locator("button.object-action-lift_suspension").count() == 0
    ops.goto(ops.base + tournament_url)
    ops.click("button.object-action-cancel_tournaments")
    ops.wait_for_selector("form.confirm-action")
    assert ops.locator("a.cancel-link").inner_text() == "Back, change nothing"  # one Cancel on the page
    ops.fill("form.confirm-action [name=reason]", "the sponsor pulled out")
    ops.click("form.confirm-action input[type=submit]")
    ops.wait_for_selector("ul.messagelist")
    assert Tournament.objects.get(pk=t.pk).status == "cancelled"
    assert Account.objects.get(pk=player.pk).suspended_at is not None  # Support's act stands


def test_the_operators_page_adds_changes_and_removes(admin_page, browser, shots):
    from rivals.models import Account, Event

    page = admin_page
    page.goto(f"{page.base}/admin/rivals/operator/add/")
    page.fill("[name=username]", "ana")
    page.select_option("[name=role]", "support")
    page.fill("[name=password1]", PASSWORD)
    page.fill("[name=password2]", PASSWORD)
    page.screenshot(path=shots / "30-operators-add-with-a-role.png", full_page=True)
    page.click("input[name=_save]")
    page.wait_for_selector("ul.messagelist")
    ana = Account.objects.get(username="ana")
    assert list(ana.groups.values_list("name", flat=True)) == ["Support"]
    page.click("button.object-action-change_role")
    page.wait_for_selector("form.confirm-action")
    page.select_option("form.confirm-action [name=role]", "game_ops")
    page.click("form.confirm-action input[type=submit]")
    page.wait_for_selector("ul.messagelist")
    assert list(Account.objects.get(pk=ana.pk).groups.values_list("name", flat=True)) == ["Game operations"]
    page.goto(f"{page.base}/admin/rivals/operator/")
    page.screenshot(path=shots / "31-operators-list.png", full_page=True)
    assert "Game operations" in page.inner_text("#result_list")

    context, ana_page = _signed_in_page(browser, page.base, "ana")  # ana signed in meanwhile
    page.goto(f"{page.base}/admin/rivals/operator/{ana.pk}/change/")
    page.click("button.object-action-remove_operators")
    page.wait_for_selector("form.confirm-action")
    page.fill("form.confirm-action [name=reason]", "left the team")
    page.click("form.confirm-action input[type=submit]")
    page.wait_for_selector("ul.messagelist")
    page.screenshot(path=shots / "32-operator-removed.png", full_page=True)
    assert not Account.objects.get(pk=ana.pk).is_active
    types = list(
        Event.objects.filter(stream_id=ana.stream_id, type__startswith="Operator").values_list("type", flat=True)
    )
    assert types == ["OperatorCreated", "OperatorRoleChanged", "OperatorRemoved"]
    ana_page.goto(f"{page.base}/admin/")  # her open session: signed out at the next page
    assert "/admin/login/" in ana_page.url
    ana_page.fill("#id_username", "ana")
    ana_page.fill("#id_password", PASSWORD)
    ana_page.click("input[type=submit]")
    ana_page.wait_for_selector(".errornote")
    assert "/admin/login/" in ana_page.url
    context.close()


def test_the_jobs_list_fits_1280_px_with_its_health_columns_first(role_page, shots):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone
    from django_celery_beat.models import PeriodicTask

    from config.periodic import PERIODIC_TASKS
    from rivals.models import JobRun

    call_command("setup_periodic_tasks", verbosity=0)
    now = timezone.now()
    for spec in PERIODIC_TASKS:
        JobRun.objects.update_or_create(
            pk=spec["task"],
            defaults={"started_at": now, "finished_at": now, "ok": True, "runs": 9, "result": "rounds 0, tickets 0"},
        )
    JobRun.objects.filter(pk="rivals.log_anchor").update(
        ok=False, finished_at=now - timedelta(minutes=3), result="AnchorRefused: " + "a long failure, " * 30
    )
    page = role_page("game_ops", width=1280)
    page.goto(f"{page.base}/admin/django_celery_beat/periodictask/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280  # no horizontal scroll
    results = "document.querySelector('#changelist .results')"
    assert page.evaluate(f"{results}.scrollWidth <= {results}.clientWidth")  # nor inside the list
    for column in ("state", "last_sent", "last_run", "last_result", "declared"):
        assert page.locator(f"th.column-{column}").is_visible(), column
    page.screenshot(path=shots / "40-jobs-list-1280px.png", full_page=True)
    heartbeat = PeriodicTask.objects.get(name="heartbeat")
    page.goto(f"{page.base}/admin/django_celery_beat/periodictask/{heartbeat.pk}/change/")
    page.click("button.object-action-pause_jobs")
    page.wait_for_selector("form.confirm-action")
    assert "monitoring sees it" in page.inner_text("ul.action-rows")
    page.screenshot(path=shots / "41-pause-the-heartbeat-monitoring-sees-it.png", full_page=True)


def test_a_finished_demo_world_tournaments_page(admin_page, shots):
    """The standings first, the tables and the event log folded away, no Save; its height said."""
    import io

    from django.core.management import call_command

    from tournaments.models import Tournament

    call_command("simulate", players=24, days=2, quiet=True, stdout=io.StringIO())
    t = Tournament.objects.filter(status="finished").order_by("-registered").first()
    assert t is not None and t.registered >= 2
    page = admin_page
    page.goto(f"{page.base}/admin/tournaments/tournament/{t.pk}/change/")
    headings = [h.strip() for h in page.locator("h2.fieldset-heading").all_inner_texts()]
    assert headings[:2] == ["Standings", "The tournament"] and headings[-1].startswith("Event log")
    assert page.locator("table.standings tr").count() == t.registered + 1
    assert page.locator("details[open]").count() == 0 and page.locator("details").count() == 2
    assert page.locator("input[type=submit]").count() == 0  # nothing to save
    height = page.evaluate("document.documentElement.scrollHeight")
    page.screenshot(path=shots / "50-finished-tournament.png", full_page=True)
    (shots / "50-finished-tournament-height.txt").write_text(f"{height} px, {t.registered} players\n")
    assert height < 2500, height
