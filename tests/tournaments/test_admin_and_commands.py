"""Operators: the admin (services and events behind every action) and the management commands."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from rivals.models import Event
from tests.tournaments.helpers import SCHEDULE_FORM, players, running_tournament
from tournaments.models import Pot, RecurringSchedule, Tournament

pytestmark = pytest.mark.django_db


def _form(**kw):
    now = timezone.localtime(timezone.now())
    start, end = now + timedelta(hours=1), now + timedelta(hours=2)
    data = {
        "kind": "regular",
        "title": "Admin Cup",
        "registration_opens_at_0": now.strftime("%Y-%m-%d"),
        "registration_opens_at_1": now.strftime("%H:%M:%S"),
        "starts_at_0": start.strftime("%Y-%m-%d"),
        "starts_at_1": start.strftime("%H:%M:%S"),
        "ends_at_0": end.strftime("%Y-%m-%d"),
        "ends_at_1": end.strftime("%H:%M:%S"),
        "min_players": "2",
        "prize_table": "100, 50,25",
        "multipliers": "1,2,3",
    }
    for prefix in ("registrations", "waves", "tables"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    data.update(kw)
    return data


def test_r21_operator_creates_edits_and_cancels_in_the_admin_as_events(admin_client, admin_user):
    form = _form()
    res = admin_client.post("/admin/tournaments/tournament/add/", form)
    assert res.status_code == 302, res.content.decode()[:3000]
    t = Tournament.objects.get()
    assert (t.prize_table, t.multipliers) == ([100, 50, 25], [1, 2, 3])
    created = Event.objects.get(stream_id=t.stream_id, type="TournamentCreated")
    assert created.metadata["actor"] == f"operator:{admin_user.pk}"
    page = admin_client.get(f"/admin/tournaments/tournament/{t.pk}/change/")
    assert page.status_code == 200 and b"TournamentCreated" in page.content
    res = admin_client.post(
        f"/admin/tournaments/tournament/{t.pk}/change/", {**form, "title": "Renamed", "multipliers": "2"}
    )
    assert res.status_code == 302
    edited = Event.objects.get(stream_id=t.stream_id, type="TournamentEdited")
    assert edited.data["changes"] == {"title": "Renamed", "multipliers": [2]}
    assert edited.metadata["actor"] == f"operator:{admin_user.pk}"
    bad = admin_client.post("/admin/tournaments/tournament/add/", _form(multipliers="1,7"))
    assert bad.status_code == 200 and b"multipliers" in bad.content and Tournament.objects.count() == 1
    cancel = {"action": "cancel_tournaments", "_selected_action": [t.pk]}
    page = admin_client.post("/admin/tournaments/tournament/", cancel).content.decode()
    t.refresh_from_db()
    assert t.status == "scheduled" and 'name="reason"' in page  # one click asks first (issue 22)
    assert "prizes not paid: 100 + 50 + 25 points to places 1–3" in page
    admin_client.post("/admin/tournaments/tournament/", {**cancel, "apply": "1", "reason": "the venue is closed"})
    t.refresh_from_db()
    assert (t.status, t.cancel_reason, t.cancel_note) == ("cancelled", "operator", "the venue is closed")
    cancelled = Event.objects.get(stream_id=t.stream_id, type="TournamentCancelled")
    assert cancelled.metadata["actor"] == f"operator:{admin_user.pk}" and cancelled.schema_version == 2
    assert cancelled.data["note"] == "the venue is closed"


def test_r21_a_running_tournament_is_read_only_in_the_admin(admin_client):
    t = running_tournament(players(2))  # seated, its table opened
    page = admin_client.get(f"/admin/tournaments/tournament/{t.pk}/change/")
    assert page.status_code == 200
    assert b"/admin/matches/round/" in page.content  # the table links to its round
    assert b'name="title"' not in page.content and b"WaveSeated" in page.content
    text = page.content.decode()  # issue 40: the standings first, no Save on a page with nothing to save
    heading = 'class="fieldset-heading">{}'.format
    assert text.index(heading("Standings")) < text.index(heading("The tournament")) < text.index(heading("Event log"))
    assert "<details><summary>" in text  # the tables and the log folded away
    assert 'name="_save"' not in text and 'name="_continue"' not in text
    assert admin_client.post(f"/admin/tournaments/tournament/{t.pk}/change/", _form(title="Hacked")).status_code == 403
    t.refresh_from_db()
    assert t.title == "Running" and not Event.objects.filter(stream_id=t.stream_id, type="TournamentEdited").exists()
    for path in ("trophy", "recurringschedule", "pot"):
        assert admin_client.get(f"/admin/tournaments/{path}/").status_code == 200
    assert admin_client.get("/admin/tournaments/trophy/add/").status_code == 403


def test_cancelling_a_running_tournament_says_who_is_seated_and_ends_their_rounds(admin_client, admin_user):
    from rivals.matches.models import Round
    from tests.factories import AccountFactory
    from tests.projections import assert_live_equals_rebuild
    from tournaments.models import Table

    # accounts with their events: the rebuild below checks them too
    t = running_tournament([AccountFactory.create(device_id=f"seated-{i}") for i in range(4)], prize_table=[10, 5])
    assert t.status == "running" and Table.objects.filter(tournament=t, status="playing").count() == 1  # 4 at one
    url = "/admin/tournaments/tournament/"
    page = admin_client.post(url, {"action": "cancel_tournaments", "_selected_action": [t.pk]}).content.decode()
    assert "4 player(s) seated at 1 table(s) now" in page and "4 registered player(s)" in page
    assert "prizes not paid: 10 + 5 points to places 1–2, and the winner&#x27;s cup" in page
    page = admin_client.get(f"{url}{t.pk}/change/").content.decode()
    assert 'value="cancel_tournaments"' in page  # the action is a button on the tournament's page
    res = admin_client.post(
        url,
        {"action": "cancel_tournaments", "_selected_action": [t.pk], "apply": "1", "reason": "a bug in the deal"},
        follow=True,
    )
    assert "cancelled, 1 round(s) ended" in res.content.decode()
    t.refresh_from_db()
    assert (t.status, t.cancel_note) == ("cancelled", "a bug in the deal")
    rounds = Round.objects.filter(pk__in=Table.objects.filter(tournament=t).values("round_id"))
    assert {r.status for r in rounds} == {"ended"} and {r.end_reason for r in rounds} == {"operator"}
    assert not Event.objects.filter(stream_id=t.stream_id, type="TableScored").exists()  # no TP
    again = admin_client.post(url, {"action": "cancel_tournaments", "_selected_action": [t.pk]}).content.decode()
    assert "will be skipped: already cancelled" in again
    assert_live_equals_rebuild()


def test_r21_a_schedule_saved_in_the_admin_creates_its_instances(admin_client):
    res = admin_client.post("/admin/tournaments/recurringschedule/add/", {**SCHEDULE_FORM, "active": "on"})
    assert res.status_code == 302, res.content.decode()[:2000]
    s = RecurringSchedule.objects.get()
    assert s.multipliers == [1, 2] and Tournament.objects.filter(schedule=s).count() in (2, 3)


def test_p5_operator_creates_a_pot_in_the_admin(admin_client, admin_user):
    now = timezone.localtime(timezone.now())
    (acc,) = players(1)
    res = admin_client.post(
        "/admin/tournaments/pot/add/",
        {
            "title": "Pot",
            "code": "MJ1-L08-AAAAAAB",
            "time_limit_s": "300",
            "prize_split": "30,20",
            "counts": "on",
            "starts_at_0": now.strftime("%Y-%m-%d"),
            "starts_at_1": now.strftime("%H:%M:%S"),
            "ends_at_0": (now + timedelta(hours=1)).strftime("%Y-%m-%d"),
            "ends_at_1": (now + timedelta(hours=1)).strftime("%H:%M:%S"),
            "entrants": str(acc.pk),
            "entrants-TOTAL_FORMS": "0",
            "entrants-INITIAL_FORMS": "0",
        },
    )
    assert res.status_code == 302, res.content.decode()[:2000]
    pot = Pot.objects.get()
    assert (pot.open_entry, pot.counts, pot.prize_split) == (False, True, [30, 20])
    assert list(pot.entrants.values_list("account_id", flat=True)) == [acc.pk]
    assert (
        Event.objects.get(stream_id=pot.stream_id, type="PotCreated").metadata["actor"] == f"operator:{admin_user.pk}"
    )
    assert admin_client.get(f"/admin/tournaments/pot/{pot.pk}/change/").status_code == 200


def test_tournament_create_command_prints_the_id_and_refuses_bad_input():
    out = io.StringIO()
    call_command(
        "tournament_create",
        "--kind",
        "champions",
        "--title",
        "Sunday Champions",
        "--starts-at",
        "2030-06-02T18:00:00Z",
        "--ends-at",
        "2030-06-02T19:00:00+00:00",
        "--registration-opens",
        "2030-06-01T00:00:00Z",
        "--min-players",
        "16",
        "--prizes",
        "300,150",
        "--multipliers",
        "1,2,3",
        stdout=out,
    )
    t = Tournament.objects.get(pk=out.getvalue().strip())
    assert (t.kind, t.min_players, t.prize_table, t.multipliers) == ("champions", 16, [300, 150], [1, 2, 3])
    with pytest.raises(CommandError, match="multipliers"):
        call_command(
            "tournament_create",
            "--title",
            "X",
            "--starts-at",
            "2030-06-02T18:00:00Z",
            "--ends-at",
            "2030-06-02T19:00:00Z",
            "--min-players",
            "2",
            "--multipliers",
            "0",
        )
    with pytest.raises(CommandError, match="starts-at"):
        call_command(
            "tournament_create",
            "--title",
            "X",
            "--starts-at",
            "tomorrow",
            "--ends-at",
            "2030-06-02T19:00:00Z",
            "--min-players",
            "2",
        )


def test_jobs_run_due_runs_every_periodic_job_once_by_name():
    from config.periodic import PERIODIC_TASKS

    out = io.StringIO()
    call_command("jobs_run_due", stdout=out)
    ran = [line.split(":")[0] for line in out.getvalue().splitlines()]
    assert sorted(ran) == sorted({spec["task"] for spec in PERIODIC_TASKS})  # rankings.roll once, not twice
    from rivals.models import Heartbeat

    assert Heartbeat.objects.filter(source="celery").exists()  # the heartbeat job ran, in this process
    import inspect

    from rivals.management.commands import jobs_run_due

    assert "tournaments" not in inspect.getsource(jobs_run_due)  # a generic command: tasks by name


def test_r28_an_operator_moving_a_champions_start_into_another_week_in_the_admin_ends_its_registrations(
    admin_client, admin_user
):
    from rivals.points.services import points_award
    from rivals.romanian_time import week_bounds_utc
    from tournaments.models import Registration
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.registration import tournament_register

    now = timezone.now().replace(microsecond=0)
    start, end = now + timedelta(hours=1), now + timedelta(hours=2)
    monday = week_bounds_utc(start)[0]  # the registration (made "before") is in the start's week
    t = tournament_create(
        actor="operator:test", kind="champions", title="Champions", registration_opens_at=monday,
        starts_at=start, ends_at=end, min_players=16, prize_table=[500], multipliers=[1],
    )  # fmt: skip
    (ann,) = players(1, prefix="champ")
    points_award(account=ann, amount=200, source="tournament_prize", key="r28:admin", at=monday + timedelta(seconds=1))
    tournament_register(tournament_id=t.pk, account=ann, now=monday + timedelta(seconds=2))
    local = timezone.localtime
    form = _form(
        kind="champions",
        title="Champions",
        min_players="16",
        prize_table="500",
        multipliers="1",
        registration_opens_at_0=local(monday).strftime("%Y-%m-%d"),
        registration_opens_at_1=local(monday).strftime("%H:%M:%S"),
        starts_at_0=local(start + timedelta(days=7)).strftime("%Y-%m-%d"),
        starts_at_1=local(start + timedelta(days=7)).strftime("%H:%M:%S"),
        ends_at_0=local(end + timedelta(days=7)).strftime("%Y-%m-%d"),
        ends_at_1=local(end + timedelta(days=7)).strftime("%H:%M:%S"),
    )
    res = admin_client.post(f"/admin/tournaments/tournament/{t.pk}/change/", form, follow=True)
    assert res.status_code == 200
    assert "1 registration(s) ended (reason rescheduled" in res.content.decode()
    t.refresh_from_db()
    assert (t.starts_at, t.registered) == (start + timedelta(days=7), 0)
    assert t.registration_opens_at == week_bounds_utc(t.starts_at)[0]  # reopens under that week's rule
    assert not Registration.objects.filter(tournament=t).exists()
    ended = Event.objects.get(stream_id=t.stream_id, type="PlayerUnregistered")
    assert ended.data["reason"] == "rescheduled" and ended.metadata["actor"] == f"operator:{admin_user.pk}"


def test_a_finished_tournaments_page_shows_the_standings_first_and_nothing_to_save(admin_client):
    """Issue 40: the final standings first (places, names, table points, prizes), the tournament in
    a few lines, the tables and the event log folded away, no Save, no row captioned with ids."""
    from tests.tournaments.helpers import at, new_tournament, register_all, score_tables
    from tournaments.services import finalize
    from tournaments.services.play import tournament_start

    t = new_tournament(prize_table=[100, 50])
    a, b, c = players(3, prefix="fin")
    register_all(t, [a, b, c])
    tournament_start(tournament_id=t.pk, now=at(10))
    score_tables(t, 1, {a.pk: 300, b.pk: 900, c.pk: 600})
    assert finalize.tournament_finalize(tournament_id=t.pk, now=at(70))
    text = admin_client.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    heading = 'class="fieldset-heading">{}'.format
    assert text.index(heading("Standings")) < text.index(heading("The tournament")) < text.index(heading("Event log"))
    standings = text[text.index('class="standings"') : text.index("</table>", text.index('class="standings"'))]
    assert standings.index("FIN1") < standings.index("FIN2") < standings.index("FIN0")  # by place
    assert ">100<" in standings and ">50<" in standings
    assert text.count("<details>") == 2  # the tables and the log, folded
    for nothing in ('name="_save"', 'name="_continue"', 'name="_addanother"', f" in {t.pk}"):
        assert nothing not in text, nothing
    for developers in ("TournamentFinalized", "R-2"):  # the event types stay in the log's own rows
        assert developers not in text[: text.index(heading("Event log"))], developers


def test_a_schedules_weekdays_are_checkboxes():
    from django.test import Client

    from rivals.accounts.operators import operator_create

    ops = Client()
    ops.force_login(
        operator_create(username="ops-weekdays", password="x-123456789", role="game_ops", actor="operator:test")
    )
    form = ops.get("/admin/tournaments/recurringschedule/add/").content.decode()
    for day, name in enumerate(("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")):
        assert f'type="checkbox" name="weekdays" value="{day}"' in form and name in form
    res = ops.post("/admin/tournaments/recurringschedule/add/", {**SCHEDULE_FORM, "weekdays": ["5", "6"]})
    assert res.status_code == 302, res.content.decode()[:2000]
    from tournaments.models import RecurringSchedule

    schedule = RecurringSchedule.objects.get()
    assert schedule.weekdays == "56"
    listed = ops.get("/admin/tournaments/recurringschedule/").content.decode()
    assert "Sat, Sun" in listed and ">56<" not in listed
    bad = ops.post("/admin/tournaments/recurringschedule/add/", {**SCHEDULE_FORM, "weekdays": []})
    assert bad.status_code == 200 and RecurringSchedule.objects.count() == 1
