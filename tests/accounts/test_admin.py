"""The operators' admin: the account page as hub, player search, no deletion (closing is an
event), periodic tasks in plain words with their last run, the board replay, and the action
forms inside the admin's frame."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rivals.games.models import Game
from rivals.models import Account, Event
from tests.admin_pages import messages_of
from tests.games.helpers import plan_of
from tests.matches.helpers import CODE


@pytest.fixture
def player(db):
    from rivals.accounts.services import account_rename
    from rivals.games.services import game_create
    from tests.factories import AccountFactory

    account = AccountFactory.create(device_id="hub-player")
    account_rename(account=account, display_name="Golden Crane")
    game = game_create(account=account, mode="classic", code=CODE)
    from rivals.games.services import game_intent_apply

    for seq, pair in enumerate(plan_of(game)[:3]):
        game_intent_apply(
            account=account, game_id=game.pk, intent={"seq": seq, "type": "remove_pair", "tiles": list(pair)}
        )
    return Account.objects.get(pk=account.pk), Game.objects.get(pk=game.pk)


def test_the_account_page_is_the_hub(operator, player):
    account, game = player
    page = operator.get(reverse("admin:rivals_account_change", args=[account.pk])).content.decode()
    for target in (
        "games/game/?account__id__exact",
        "matches/round/?player=",
        "sichuan/sichuantable/?account__id__exact",
        "rivals/event/?player=",
        "points/pointsledgerentry/?player=",
        "type__exact=JokersChanged",
        "games/rejectedintent/?player=",
        "fairplay/fairplayflag/?account__id__exact",
    ):
        assert target in page, target
    events = operator.get(reverse("admin:rivals_event_changelist") + f"?player={account.pk}").content.decode()
    assert f"game-{game.pk}" in events and f"account-{account.pk}" in events
    by_name = operator.get(reverse("admin:rivals_event_changelist") + "?q=golden+crane").content.decode()
    assert f"game-{game.pk}" in by_name  # a player's name finds all their streams' events
    by_id = operator.get(reverse("admin:rivals_event_changelist") + f"?q={account.pk}").content.decode()
    assert f"account-{account.pk}" in by_id
    found = operator.get(reverse("admin:rivals_account_changelist") + "?q=golden").content.decode()
    assert "Golden Crane" in found


def test_accounts_are_closed_not_deleted_and_the_rebuild_keeps_them(operator, player):
    from rivals.personal import ERASED_NAME
    from rivals.projections import rebuild_all

    account, game = player
    url = reverse("admin:rivals_account_changelist")
    res = operator.post(url, {"action": "delete_selected", "_selected_action": [account.pk]})
    assert Account.objects.filter(pk=account.pk).exists()  # no delete action at all
    assert operator.get(reverse("admin:rivals_account_delete", args=[account.pk])).status_code == 403
    form = operator.post(url, {"action": "close_account", "_selected_action": [account.pk]}).content.decode()
    assert form.count("<h1>Close accounts</h1>") == 1 and 'id="site-name"' in form  # the admin's frame
    res = operator.post(
        url,
        {
            "action": "close_account",
            "_selected_action": [account.pk],
            "apply": "1",
            "reason": "the player asked for erasure",
            "erase": "on",
        },
    )
    assert res.status_code == 302
    closed = Account.objects.get(pk=account.pk)
    assert (closed.is_active, closed.email, closed.device_id, closed.display_name) == (False, None, None, ERASED_NAME)
    event = Event.objects.get(type="AccountClosed")
    assert event.metadata["actor"].startswith("operator:") and event.data["erased"] is True
    assert Game.objects.filter(account=closed).count() == 1  # the rules' records stay
    rebuild_all()
    again = Account.objects.get(pk=account.pk)
    assert again.display_name == ERASED_NAME and again.closed_at is not None  # the sealed name is gone for good
    assert "Golden Crane" not in str(list(Event.objects.values_list("data", flat=True)))


def test_grant_jokers_keeps_the_admin_frame_and_one_title(operator, player):
    account, _ = player
    url = reverse("admin:rivals_account_changelist")
    page = operator.post(url, {"action": "grant_jokers", "_selected_action": [account.pk]}).content.decode()
    assert page.count("Grant jokers</h1>") == 1 and 'id="site-name"' in page and "breadcrumbs" in page
    operator.post(
        url,
        {
            "action": "grant_jokers",
            "_selected_action": [account.pk],
            "apply": "1",
            "amount": "2",
            "reason_code": "goodwill",
            "reason": "apology",
        },
    )
    assert Account.objects.get(pk=account.pk).jokers == 2
    assert Event.objects.get(type="JokersChanged").metadata["actor"].startswith("operator:")


def test_periodic_tasks_say_what_they_do_and_how_they_last_ran(operator):
    from django.core.management import call_command

    from rivals.tasks import idempotency_prune

    call_command("setup_periodic_tasks", verbosity=0)
    idempotency_prune.apply()  # a real task run through Celery's tracer (signals included)
    page = operator.get(reverse("admin:django_celery_beat_periodictask_changelist")).content.decode()
    assert "Deletes Idempotency-Key records older than 48 hours" in page
    assert "Ends competitive rounds whose deadline passed" in page
    assert re.search(r"ok</span> 0</span><br><small>1 runs, 0 failed</small>", page)


def test_the_game_page_replays_the_board(operator, player):
    _, game = player
    url = reverse("admin:games_game_change", args=[game.pk])
    start = operator.get(url + "?at=1").content.decode()
    assert 'data-version="1"' in start and 'data-tiles="36"' in start and "the deal" not in start
    third = operator.get(url + "?at=3").content.decode()
    assert 'data-version="3"' in third and 'data-tiles="32"' in third and third.count('class="removed"') == 2
    assert "replay-previous" in third and "replay-next" in third
    last = operator.get(url).content.decode()
    assert 'data-version="4"' in last and 'data-tiles="30"' in last and "replay-next" not in last


# --- issue 22: a game-operator page, every change an event ----------------------------------------


def test_the_player_page_shows_the_player_and_no_permission_widgets(operator, player):
    from rivals.clubs.services import club_found

    account, _ = player
    club_found(account=account, name="Crane Club")
    page = operator.get(reverse("admin:rivals_account_change", args=[account.pk])).content.decode()
    for widget in ('name="is_staff"', 'name="is_superuser"', 'name="groups"', 'name="user_permissions"', "password/"):
        assert widget not in page, widget
    assert 'name="username"' not in page and 'name="_save"' not in page  # nothing is edited in place
    figures = (
        "points and places",
        "365 days (AMR)",
        "jokers",
        "trophies",
        "Crane Club</a> (owner)",
        " games (",
        "last seen",
    )
    for figure in figures:
        assert figure in page, figure
    assert "fair-play flags" in page and "0 open" in page
    for action in ("grant_jokers", "suspend", "close_account"):
        assert f'value="{action}"' in page  # the actions are buttons on the page
    assert 'value="lift_suspension"' not in page and 'value="correct_jokers"' not in page  # nothing to lift or take


def test_a_post_to_the_player_page_changes_nothing(operator, player):
    from rivals.fairplay.services import account_suspend

    account, _ = player
    account_suspend(account=account, reason="test", actor="operator:1")
    events = Event.objects.count()
    url = reverse("admin:rivals_account_change", args=[account.pk])
    res = operator.post(url, {"username": "hacked", "is_staff": "on", "is_superuser": "on", "display_name": "X"})
    assert res.status_code == 403
    account.refresh_from_db()
    assert (account.is_staff, account.is_superuser, account.display_name) == (False, False, "Golden Crane")
    assert Event.objects.count() == events


def test_add_makes_an_operator_through_the_services(operator):
    """Issue 40: operators are added on the Operators page, with a role; the accounts list adds none."""
    assert operator.get(reverse("admin:rivals_account_add")).status_code == 403
    res = operator.post(
        reverse("admin:rivals_operator_add"),
        {
            "username": "night-shift",
            "role": "support",
            "password1": "a-long-pass-phrase-1",
            "password2": "a-long-pass-phrase-1",
        },
    )
    assert res.status_code == 302, res.content.decode()[:2000]
    made = Account.objects.get(username="night-shift")
    assert made.is_staff and not made.is_superuser and made.check_password("a-long-pass-phrase-1")
    assert list(made.groups.values_list("name", flat=True)) == ["Support"]
    created = Event.objects.get(stream_id=made.stream_id, type="OperatorCreated")
    assert created.metadata["actor"].startswith("operator:") and created.data["role"] == "support"
    page = operator.get(reverse("admin:rivals_account_change", args=[made.pk])).content.decode()
    assert "not a player" in page and 'value="suspend"' not in page
    form = operator.get(reverse("admin:rivals_operator_add")).content.decode()
    assert 'name="is_staff"' not in form and 'name="groups"' not in form and 'name="role"' in form


def test_the_list_filters_suspended_players_and_operators(operator, player):
    from rivals.fairplay.services import account_suspend
    from tests.factories import AccountFactory

    account, _ = player
    other = AccountFactory.create(device_id="hub-other", display_name="Silver Fox")
    account_suspend(account=account, reason="test", actor="operator:1")
    url = reverse("admin:rivals_account_changelist")

    def listed(query: str) -> str:
        page = operator.get(url + query).content.decode()
        return page[page.index('id="result_list"') : page.index("</table>", page.index('id="result_list"'))]

    suspended = listed("?state=suspended")
    assert "Golden Crane" in suspended and "Silver Fox" not in suspended
    active = listed("?state=active&role=player")
    assert "Silver Fox" in active and "Golden Crane" not in active and "operator" not in active
    assert f">{other.pk}<" in active
    assert "Golden Crane" not in listed("?role=operator") and "operator: Administrator" in listed("?role=operator")


def test_a_mistaken_grant_is_corrected_with_a_compensating_event(operator, player):
    from tests.projections import assert_live_equals_rebuild

    account, _ = player
    url = reverse("admin:rivals_account_changelist")
    grant = {
        "action": "grant_jokers",
        "_selected_action": [account.pk],
        "apply": "1",
        "amount": "5",
        "reason_code": "goodwill",
        "reason": "oops",
    }
    operator.post(url, grant)
    page = operator.post(url, {"action": "correct_jokers", "_selected_action": [account.pk]}).content.decode()
    assert "has 5 joker(s)" in page and "never goes below 0" in page
    res = operator.post(
        url,
        {
            "action": "correct_jokers",
            "_selected_action": [account.pk],
            "apply": "1",
            "amount": "4",
            "reason_code": "correction",
            "reason": "typo",
        },
        follow=True,  # the list shows the messages: the next request starts with none
    )
    assert Account.objects.get(pk=account.pk).jokers == 1
    correction = Event.objects.filter(type="JokersChanged").latest("position")
    assert (correction.data["delta"], correction.data["reason"], correction.data["note"]) == (
        -4,
        "operator_correction",
        "typo",
    )
    assert correction.metadata["actor"].startswith("operator:")
    assert [level for level, text in messages_of(res)] == ["success"]
    too_many = operator.post(
        url,
        {
            "action": "correct_jokers",
            "_selected_action": [account.pk],
            "apply": "1",
            "amount": "2",
            "reason_code": "correction",
            "reason": "x",
        },
    )
    said = messages_of(too_many)
    assert ("warning", "Correct jokers: nothing done") in said and not [m for m in said if m[0] == "success"]
    assert any("spent jokers cannot be taken back" in text for _, text in said)
    assert Account.objects.get(pk=account.pk).jokers == 1
    assert_live_equals_rebuild()


def test_closing_shows_its_consequences_and_erasure_is_not_pre_ticked(operator, player):
    account, _ = player
    url = reverse("admin:rivals_account_changelist")
    page = operator.post(url, {"action": "close_account", "_selected_action": [account.pk]}).content.decode()
    erase = re.search(r'<input[^>]*name="erase"[^>]*>', page).group(0)
    assert "checked" not in erase
    assert "can no longer sign in" in page and "its games, rounds and points stay" in page
    operator.post(url, {"action": "close_account", "_selected_action": [account.pk], "apply": "1", "reason": "asked"})
    closed = Account.objects.get(pk=account.pk)
    assert closed.closed_at is not None and closed.display_name == "Golden Crane"  # closed, not erased
    assert Event.objects.get(type="AccountClosed").data["erased"] is False
