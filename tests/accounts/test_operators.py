"""Operators are accounts but not players (issue 22): every way one comes to exist is an event
(``OperatorCreated``), so ``rebuild_projections --verify`` holds on any database with operators —
a fresh demo world after ``make run``'s development superuser included; the development
password can be set again; an operator has no public profile and is never listed."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from rivals.accounts.operators import operators_recorded
from rivals.models import Account, Event
from tests.factories import AccountFactory
from tests.projections import assert_live_equals_rebuild

pytestmark = pytest.mark.django_db


def _created(account: Account) -> Event:
    return Event.objects.get(stream_id=account.stream_id, type="OperatorCreated")


def test_createsuperuser_makes_an_operator_through_the_services(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "op-password-1")
    call_command("createsuperuser", "--noinput", "--username", "night-shift", stdout=io.StringIO())
    operator = Account.objects.get(username="night-shift")
    assert (operator.is_staff, operator.is_superuser, operator.display_name) == (True, True, "night-shift")
    assert operator.check_password("op-password-1")
    event = _created(operator)
    assert event.data == {"account_id": operator.pk, "display_name": "night-shift", "role": "administrator"}
    assert list(operator.groups.values_list("name", flat=True)) == ["Administrator"]  # issue 40
    assert event.metadata["actor"] == "operator:cli"
    assert_live_equals_rebuild()


def test_make_runs_development_superuser_is_an_event_and_its_password_can_be_set_again(monkeypatch):
    monkeypatch.delenv("RIVALS_ADMIN_PASSWORD", raising=False)
    out = io.StringIO()
    call_command("dev_operator", stdout=out)
    admin = Account.objects.get(username="admin")
    printed = out.getvalue().split("admin / ")[1].split()[0]
    assert admin.check_password(printed) and _created(admin).metadata["actor"] == "system"
    again = io.StringIO()
    call_command("dev_operator", stdout=again)
    assert "password unchanged" in again.getvalue() and "changepassword admin" in again.getvalue()
    monkeypatch.setenv("RIVALS_ADMIN_PASSWORD", "a-new-password-9")
    call_command("dev_operator", stdout=io.StringIO())
    admin.refresh_from_db()
    assert admin.check_password("a-new-password-9") and Event.objects.filter(type="OperatorCreated").count() == 1
    assert_live_equals_rebuild()


def test_operators_made_before_it_was_an_event_are_recorded_and_the_rebuild_keeps_their_name():
    from rivals.rebuild import rebuild

    old = Account(username="admin", is_staff=True, is_superuser=True, display_name="admin")  # as before issue 22
    old.set_password("x")
    old.save()
    report = rebuild(verify_only=True)
    assert not report.equal  # the rebuild would blank its name: 'admin' → ''
    assert operators_recorded() == 1 and operators_recorded() == 0
    assert _created(old).data["display_name"] == "admin"
    assert_live_equals_rebuild()


def test_a_fresh_demo_world_after_make_run_verifies(monkeypatch):
    """`make demo` then `make run`: the world, then the development superuser — every projection
    equals the log (it did not: the superuser's name was written with no event)."""
    monkeypatch.delenv("RIVALS_ADMIN_PASSWORD", raising=False)
    call_command("simulate", players=8, days=1, quiet=True, stdout=io.StringIO())
    call_command("dev_operator", stdout=io.StringIO())
    call_command("rebuild_projections", "--verify", stdout=io.StringIO())  # exits 1 (CommandError) on a difference


def test_an_operator_is_not_a_player(api, django_user_model):
    operator = django_user_model.objects.create_superuser("op-visible", "op-password-1")
    assert api.get(f"/api/v1/players/{operator.pk}").status_code == 404
    assert api.get("/api/v1/players", {"q": "op-visible"}).json()["count"] == 0
    from rivals.errors import NotFound
    from rivals.matches.services import duel_challenge

    with pytest.raises(NotFound):
        duel_challenge(account=AccountFactory.create(device_id="op-challenger"), opponent=operator.pk)


def test_an_operators_username_cannot_look_like_a_players(django_user_model):
    from rivals.errors import Invalid

    with pytest.raises(Invalid):
        django_user_model.objects.create_superuser("guest-0123", "op-password-1")
