"""Operators managed like players are (issue 40, API.md "Operators"): an Administrator adds an
operator with a role, changes the role and removes the operator — on the Operators page and from
scripts (``operator_add``, ``operator_role``, ``operator_remove``) — each an event with the acting
operator; a removed operator can no longer sign in and their past actions stay attributed to
them; the last Administrator can be neither removed nor demoted."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from rivals.accounts.operators import operator_create, operator_remove, operator_role_change
from rivals.errors import NotAllowed
from rivals.models import AccessToken, Account, Event
from tests.accounts.roles import signed_in
from tests.admin_pages import messages_of
from tests.projections import assert_live_equals_rebuild

pytestmark = pytest.mark.django_db
OPERATORS = "/admin/rivals/operator/"


def _events(account: Account) -> list[tuple[str, dict, str]]:
    rows = Event.objects.filter(stream_id=account.stream_id, type__startswith="Operator").order_by("version")
    return [(e.type, {k: v for k, v in e.data.items() if k != "account_id"}, e.metadata["actor"]) for e in rows]


def test_an_administrator_adds_changes_and_removes_an_operator_on_the_operators_page():
    admin = signed_in("administrator", "lead")
    res = admin.post(
        f"{OPERATORS}add/",
        {
            "username": "ana",
            "role": "support",
            "password1": "a-long-pass-phrase-1",
            "password2": "a-long-pass-phrase-1",
        },
    )
    assert res.status_code == 302, res.content.decode()[:2000]
    ana = Account.objects.get(username="ana")
    assert res["Location"] == reverse("admin:rivals_operator_change", args=[ana.pk])
    page = admin.get(res["Location"]).content.decode()
    assert "Support" in page and "suspensions and lifts" in page  # what the role may do
    confirm = admin.post(OPERATORS, {"action": "change_role", "_selected_action": [ana.pk]}).content.decode()
    assert 'name="role"' in confirm and "Game operations may do" in confirm
    admin.post(OPERATORS, {"action": "change_role", "_selected_action": [ana.pk], "apply": "1", "role": "game_ops"})
    assert list(Account.objects.get(pk=ana.pk).groups.values_list("name", flat=True)) == ["Game operations"]
    res = admin.post(
        OPERATORS, {"action": "remove_operators", "_selected_action": [ana.pk], "apply": "1", "reason": "left the team"}
    )
    assert any(text.startswith("Remove operators: 1 done") for _, text in messages_of(res))
    ana.refresh_from_db()
    assert (ana.is_active, ana.is_staff, ana.has_usable_password(), ana.groups.count()) == (False, True, False, 0)
    lead = f"operator:{admin.user.pk}"
    assert _events(ana) == [
        ("OperatorCreated", {"display_name": "ana", "role": "support"}, lead),
        ("OperatorRoleChanged", {"role": "game_ops", "previous_role": "support", "reason": ""}, lead),
        ("OperatorRemoved", {"role": "game_ops", "reason": "left the team"}, lead),
    ]
    listed = admin.get(f"{OPERATORS}?state=removed").content.decode()
    assert "ana" in listed and "removed: can no longer sign in" in listed
    assert_live_equals_rebuild()


def test_a_removed_operator_can_no_longer_sign_in_and_their_past_actions_stay_theirs():
    from rivals.accounts.services import token_issue
    from rivals.admin_display import actor_html
    from rivals.fairplay.services import account_suspend
    from tests.factories import AccountFactory

    support = signed_in("support", "ben")
    ben = support.user
    player = AccountFactory.create(device_id="removed-op-player")
    support.post(
        "/admin/rivals/account/",
        {
            "action": "suspend",
            "_selected_action": [player.pk],
            "apply": "1",
            "reason_code": "fair_play",
            "reason": "bot speed",
        },
    )
    assert Account.objects.get(pk=player.pk).suspended_at is not None
    token_issue(account=ben, kind="password")
    operator_remove(account=ben, reason="offboarded", actor="operator:test")
    assert support.get("/admin/").status_code == 302  # the open session is signed out at its next page
    assert not Client().login(username="ben", password="op-password-1")
    assert not AccessToken.objects.filter(account=ben).exists()
    suspended = Event.objects.get(stream_id=player.stream_id, type="AccountSuspended")
    assert "ben" in actor_html(suspended.metadata["actor"])  # still named by their actions
    with pytest.raises(NotAllowed, match="removed"):
        operator_role_change(account=ben, role="support", actor="operator:test")
    with pytest.raises(NotAllowed, match="already suspended"):
        account_suspend(account=player, reason="x", actor=f"operator:{ben.pk}")


def test_the_last_administrator_is_neither_removed_nor_demoted():
    only = operator_create(username="only-admin", password="p-123456789", actor="operator:test")
    with pytest.raises(NotAllowed, match="last Administrator"):
        operator_remove(account=only, reason="x", actor="operator:test")
    with pytest.raises(NotAllowed, match="last Administrator"):
        operator_role_change(account=only, role="viewer", actor="operator:test")
    admin = Client()
    admin.force_login(only)
    page = admin.post(OPERATORS, {"action": "remove_operators", "_selected_action": [only.pk]}).content.decode()
    assert "will be skipped: the last Administrator" in page and "Nothing to do" in page
    res = admin.post(
        OPERATORS, {"action": "remove_operators", "_selected_action": [only.pk], "apply": "1", "reason": "x"}
    )
    assert ("warning", "Remove operators: nothing done") in messages_of(res)
    second = operator_create(username="second-admin", password="p-123456789", actor="operator:test")
    operator_role_change(account=only, role="viewer", actor=f"operator:{second.pk}")  # another Administrator now
    only.refresh_from_db()
    assert not only.is_superuser and list(only.groups.values_list("name", flat=True)) == ["Viewer"]
    with pytest.raises(NotAllowed, match="last Administrator"):
        operator_remove(account=second, reason="x", actor="operator:test")


def test_the_scripts_add_change_and_remove_operators_as_events(monkeypatch):
    lead = operator_create(username="lead", password="p-123456789", actor="operator:test")
    monkeypatch.setenv("RIVALS_OPERATOR_PASSWORD", "a-long-pass-phrase-2")
    out = io.StringIO()
    call_command("operator_add", "cara", "--role", "viewer", "--by", "lead", stdout=out)
    assert "cara" in out.getvalue() and "Viewer" in out.getvalue()
    cara = Account.objects.get(username="cara")
    assert cara.check_password("a-long-pass-phrase-2") and Client().login(
        username="cara", password="a-long-pass-phrase-2"
    )
    call_command("operator_role", "cara", "support", "--reason", "joined support", stdout=io.StringIO())
    call_command("operator_remove", "cara", "--reason", "contract ended", "--by", "lead", stdout=io.StringIO())
    assert _events(cara) == [
        ("OperatorCreated", {"display_name": "cara", "role": "viewer"}, f"operator:{lead.pk}"),
        (
            "OperatorRoleChanged",
            {"role": "support", "previous_role": "viewer", "reason": "joined support"},
            "operator:cli",
        ),
        ("OperatorRemoved", {"role": "support", "reason": "contract ended"}, f"operator:{lead.pk}"),
    ]
    with pytest.raises(CommandError, match="last Administrator"):
        call_command("operator_remove", "lead", "--reason", "x", stdout=io.StringIO())
    with pytest.raises(CommandError, match="last Administrator"):
        call_command("operator_role", "lead", "viewer", stdout=io.StringIO())
    with pytest.raises(CommandError, match="no active operator"):
        call_command("operator_add", "dan", "--role", "viewer", "--by", "cara", stdout=io.StringIO())  # removed
    with pytest.raises(CommandError):
        call_command("operator_add", "dan", "--role", "superhero", stdout=io.StringIO())
    assert not Account.objects.filter(username="dan").exists()
    assert_live_equals_rebuild()


def test_operator_add_asks_the_password_when_none_is_given(monkeypatch):
    monkeypatch.delenv("RIVALS_OPERATOR_PASSWORD", raising=False)
    answers = iter(["a-long-pass-phrase-3", "a-long-pass-phrase-3"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command("operator_add", "eve", "--role", "game_ops", stdout=io.StringIO())
    eve = Account.objects.get(username="eve")
    assert eve.check_password("a-long-pass-phrase-3") and eve.has_perm("tournaments.add_tournament")
    assert not eve.has_perm("rivals.suspend_account")
