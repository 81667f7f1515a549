"""Operators' roles (issue 40, API.md "Operators"): Administrator, Game operations, Support and
Viewer are Django groups with permissions, created by a migration and kept by every migrate; each
admin page offers a role exactly the actions it may run, and a post of any other changes nothing
and says so. Every role reads every page."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from rivals.models import Account, Event
from tests.accounts.roles import ROLES, offered, signed_in
from tests.admin_pages import messages_of
from tests.factories import AccountFactory

pytestmark = pytest.mark.django_db

NONE: set[str] = set()
PLAYER = {"grant_jokers", "correct_jokers", "suspend", "lift_suspension", "close_account"}
FLAGS = {"review_dismissed", "review_confirmed", "confirm_and_suspend"}
REPORTS = {"dismiss", "uphold", "reset_display_name", "rename_club"}
SCHEDULES = {"deactivate_schedules", "retire_schedules", "reactivate_schedules"}
# page → role → the actions its list offers
OFFERED = {
    "/admin/rivals/account/": {
        "administrator": PLAYER,
        "game_ops": {"grant_jokers", "correct_jokers"},
        "support": {"suspend", "lift_suspension", "close_account"},
        "viewer": NONE,
    },
    "/admin/rivals/operator/": {
        "administrator": {"change_role", "remove_operators"},
        "game_ops": NONE,
        "support": NONE,
        "viewer": NONE,
    },
    "/admin/fairplay/fairplayflag/": {"administrator": FLAGS, "game_ops": NONE, "support": FLAGS, "viewer": NONE},
    "/admin/reports/report/": {"administrator": REPORTS, "game_ops": NONE, "support": REPORTS, "viewer": NONE},
    "/admin/tournaments/tournament/": {
        "administrator": {"cancel_tournaments"},
        "game_ops": {"cancel_tournaments"},
        "support": NONE,
        "viewer": NONE,
    },
    "/admin/tournaments/recurringschedule/": {
        "administrator": SCHEDULES,
        "game_ops": SCHEDULES,
        "support": NONE,
        "viewer": NONE,
    },
    "/admin/django_celery_beat/periodictask/": {
        "administrator": {"pause_jobs", "resume_jobs"},
        "game_ops": {"pause_jobs", "resume_jobs"},
        "support": NONE,
        "viewer": NONE,
    },
    "/admin/matches/round/": {
        "administrator": {"end_round_now"},
        "game_ops": {"end_round_now"},
        "support": NONE,
        "viewer": NONE,
    },
    "/admin/rivals/event/": dict.fromkeys(ROLES, NONE),
}
# what each role may add
ADDS = {
    "/admin/tournaments/tournament/add/": {"administrator", "game_ops"},
    "/admin/tournaments/pot/add/": {"administrator", "game_ops"},
    "/admin/tournaments/recurringschedule/add/": {"administrator", "game_ops"},
    "/admin/rivals/operator/add/": {"administrator"},
    "/admin/rivals/account/add/": set(),
}


def test_the_roles_are_groups_made_by_the_migration_and_their_permissions_by_migrate():
    groups = {g.name: g for g in Group.objects.prefetch_related("permissions__content_type")}
    assert set(groups) >= {"Administrator", "Game operations", "Support", "Viewer"}

    def perms(name: str) -> set[str]:
        return {f"{p.content_type.app_label}.{p.codename}" for p in groups[name].permissions.all()}

    viewer, ops, support = perms("Viewer"), perms("Game operations"), perms("Support")
    assert viewer and all(p.split(".")[1].startswith("view_") for p in viewer)  # reads, changes nothing
    assert {"rivals.view_account", "rivals.view_event", "tournaments.view_tournament"} <= viewer
    assert not [p for p in viewer if p.startswith(("auth.", "sessions.", "contenttypes."))]
    assert ops - viewer == {
        "tournaments.add_tournament",
        "tournaments.change_tournament",
        "tournaments.add_pot",
        "tournaments.add_recurringschedule",
        "tournaments.change_recurringschedule",
        "django_celery_beat.change_periodictask",
        "matches.change_round",
        "rivals.grant_jokers",
    }
    assert support - viewer == {
        "reports.change_report",
        "fairplay.change_fairplayflag",
        "rivals.suspend_account",
        "rivals.close_account",
        "rivals.export_account",
    }
    assert not groups["Administrator"].permissions.exists()  # a superuser: everything, of every model to come


@pytest.fixture
def rows_on_every_page():
    """A row on each page with actions (Django shows no action menu over an empty list)."""
    from datetime import time

    from django.core.management import call_command

    from rivals.fairplay.services import fairplay_flag
    from rivals.reports.services import report_file
    from tests.tournaments.helpers import players, running_tournament
    from tournaments.services.schedules import schedule_create

    a, b = AccountFactory.create(device_id="rows-a"), AccountFactory.create(device_id="rows-b")
    fairplay_flag(account_id=a.pk, kind="fast_pairs", subject="game-1", details={"fast_pairs": 4})
    report_file(reporter=b, subject=f"player:{a.pk}", reason="name")
    running_tournament(players(2))  # a tournament, and the round of its table
    settings = {
        "title": "Nightly",
        "kind": "regular",
        "local_time": time(20),
        "weekdays": "0123456",
        "duration_minutes": 60,
        "registration_hours_before": 24,
        "min_players": 2,
        "prize_table": [],
        "multipliers": [],
        "days_ahead": 1,
    }
    schedule_create(actor="operator:test", **settings)
    call_command("setup_periodic_tasks", verbosity=0)


@pytest.mark.parametrize("role", ROLES)
def test_each_page_offers_a_role_exactly_its_actions(role, rows_on_every_page):
    client = signed_in(role)
    for url, by_role in OFFERED.items():
        res = client.get(url)
        assert res.status_code == 200, (url, res.status_code)
        assert offered(res.content.decode()) == by_role[role], (url, role)
    for url, allowed in ADDS.items():
        assert client.get(url).status_code == (200 if role in allowed else 403), (url, role)


@pytest.mark.parametrize("role", ROLES)
def test_every_role_reads_every_page(role):
    client = signed_in(role)
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url
    index = client.get("/admin/").content.decode()
    assert "Operators" in index and "Tournaments" in index


def test_every_action_of_the_admin_names_the_permission_it_needs():
    """Django offers an action without ``permissions`` to everyone who reads the page: none is."""
    for model_admin in admin.site._registry.values():
        for func, name, _ in model_admin._get_base_actions():
            assert getattr(func, "allowed_permissions", None), f"{type(model_admin).__name__}.{name}"


def test_the_player_page_shows_a_role_its_buttons_only():
    player = AccountFactory.create(device_id="roles-player", display_name="Jade Tiger")
    url = reverse("admin:rivals_account_change", args=[player.pk])
    # Support also downloads a player's data (a subject access request, issue 39)
    assert offered(signed_in("support").get(url).content.decode()) == {"suspend", "close_account", "export"}
    assert offered(signed_in("game_ops").get(url).content.decode()) == {"grant_jokers"}
    assert offered(signed_in("viewer").get(url).content.decode()) == NONE


def _post(client, url: str, action: str, pks: list, **data):
    return client.post(url, {"action": action, "_selected_action": pks, "apply": "1", **data})


def test_a_post_of_an_action_the_role_may_not_run_changes_nothing_and_says_so():
    from django_celery_beat.models import PeriodicTask

    from tests.tournaments.helpers import players, running_tournament
    from tournaments.models import Tournament

    player = AccountFactory.create(device_id="roles-target", display_name="Jade Tiger")
    events = Event.objects.filter(stream_id=player.stream_id).count()
    note = {"reason": "bot-like play (flag 97c6)", "reason_code": "fair_play"}
    for role in ("viewer", "game_ops"):
        res = _post(signed_in(role, f"{role}-1"), "/admin/rivals/account/", "suspend", [player.pk], **note)
        assert res.status_code == 302
        (said,) = messages_of(res)
        assert said[0] == "error" and "not allowed to your role" in said[1] and "nothing was changed" in said[1]
    support = signed_in("support")
    res = _post(
        support, "/admin/rivals/account/", "grant_jokers", [player.pk], amount="5", reason="x", reason_code="goodwill"
    )
    assert "not allowed to your role (Support)" in messages_of(res)[0][1]
    player.refresh_from_db()
    assert (player.suspended_at, player.jokers) == (None, 0)
    assert Event.objects.filter(stream_id=player.stream_id).count() == events

    t = running_tournament(players(2))
    res = _post(support, "/admin/tournaments/tournament/", "cancel_tournaments", [t.pk], reason="no")
    assert "not allowed" in messages_of(res)[0][1] and Tournament.objects.get(pk=t.pk).status == "running"
    from django.core.management import call_command

    call_command("setup_periodic_tasks", verbosity=0)
    job = PeriodicTask.objects.get(name="matches-sweep")
    res = _post(support, "/admin/django_celery_beat/periodictask/", "pause_jobs", [job.pk], reason="no")
    assert "not allowed" in messages_of(res)[0][1] and PeriodicTask.objects.get(pk=job.pk).enabled
    viewer = signed_in("viewer", "viewer-2")
    res = viewer.post("/admin/tournaments/tournament/add/", {"title": "Sneaky"})
    assert res.status_code == 403 and not Tournament.objects.filter(title="Sneaky").exists()
    res = _post(viewer, "/admin/rivals/operator/", "remove_operators", [support.user.pk], reason="x")
    assert "not allowed" in messages_of(res)[0][1] and Account.objects.get(pk=support.user.pk).is_active


def test_a_role_runs_what_it_may():
    from rivals.fairplay.models import FairPlayFlag  # noqa: F401  (the support role's own page)

    player = AccountFactory.create(device_id="roles-allowed", display_name="Jade Tiger")
    support, ops = signed_in("support"), signed_in("game_ops")
    _post(support, "/admin/rivals/account/", "suspend", [player.pk], reason="bot speed", reason_code="fair_play")
    _post(ops, "/admin/rivals/account/", "grant_jokers", [player.pk], amount="2", reason="outage", reason_code="outage")
    player.refresh_from_db()
    assert player.suspended_at is not None and player.jokers == 2
    actors = dict(Event.objects.filter(stream_id=player.stream_id).values_list("type", "metadata__actor"))
    assert actors["AccountSuspended"] == f"operator:{support.user.pk}"
    assert actors["JokersChanged"] == f"operator:{ops.user.pk}"


def test_a_players_data_export_is_supports_and_a_viewer_posting_it_gets_nothing():
    """Issue 39 beside issue 40: the operator's download of a player's data is Support's (and an
    Administrator's); a Viewer or Game operations posting it is refused and nothing is recorded."""
    player = AccountFactory.create(device_id="roles-export", display_name="Jade Tiger")
    url = reverse("admin:rivals_account_export", args=[player.pk])
    for role in ("viewer", "game_ops"):
        assert signed_in(role, f"{role}-export").post(url).status_code == 403
    assert not Event.objects.filter(stream_id=player.stream_id, type="AccountDataExported").exists()
    res = signed_in("support", "support-export").post(url)
    assert res.status_code == 200 and b'"account"' in b"".join(res.streaming_content)
    assert Event.objects.filter(stream_id=player.stream_id, type="AccountDataExported").count() == 1
