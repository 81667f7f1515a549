"""R-39 (and R-37, R-38): players are found by part of their display name — public, paginated,
case-insensitive; suspended and closed accounts and operators are never listed; a result shows
no more than a public profile."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rivals.accounts import selectors
from rivals.accounts.services import account_close, account_rename
from rivals.fairplay.services import account_suspend
from rivals.models import Account
from rivals.names import search_key
from tests.factories import AccountFactory

pytestmark = pytest.mark.django_db


def _named(label: str, name: str) -> Account:
    return AccountFactory.create(device_id=f"search-{label}", display_name=name)


def _found(api, q: str, **page) -> dict:
    res = api.get("/api/v1/players", {"q": q, **page})
    assert res.status_code == 200, res.content
    return res.json()


def test_r39_search_is_public_case_insensitive_and_finds_part_of_the_name(api):
    jade = _named("jade", "Jade Dragon")
    ana = _named("ana", "Ana")
    banana = _named("banana", "Banana Split")
    _named("other", "Tile Master")
    body = _found(api, "DRAG")
    assert body == {
        "count": 1,
        "count_capped": False,
        "results": [{"id": jade.pk, "display_name": "Jade Dragon", "club": None}],
    }
    # names that start with the query first, then the others
    assert [r["id"] for r in _found(api, "ana")["results"]] == [ana.pk, banana.pk]
    assert _found(api, "zz")["count"] == 0


def test_r39_search_folds_width_and_case_as_names_are_read():
    straße = _named("strasse", "Straße Sieben")
    wide = _named("wide", "ＲＩＶＡＬ")
    assert search_key("Straße Sieben") == "strasse sieben"
    assert [r["id"] for r in selectors.player_search(q="STRASSE", limit=10, offset=0)["results"]] == [straße.pk]
    assert [r["id"] for r in selectors.player_search(q="rival", limit=10, offset=0)["results"]] == [wide.pk]
    assert selectors.player_search(q="100%", limit=10, offset=0)["count"] == 0  # LIKE's wildcards are text


def test_r39_suspended_closed_and_operator_accounts_are_not_listed(api):
    shown = _named("shown", "Lotus One")
    suspended = _named("suspended", "Lotus Two")
    closed = _named("closed", "Lotus Three")
    operator = _named("operator", "Lotus Four")
    account_suspend(account=suspended, reason="test", actor="operator:test")
    account_close(account=closed, reason="test", actor="operator:test", erase=False)
    Account.objects.filter(pk=operator.pk).update(is_staff=True)
    assert [r["id"] for r in _found(api, "lotus")["results"]] == [shown.pk]
    assert set(selectors.listed_players().values_list("pk", flat=True)) >= {shown.pk}
    assert not selectors.listed_players().filter(pk__in=[suspended.pk, closed.pk, operator.pk]).exists()


def test_r37_a_result_reveals_nothing_a_public_profile_does_not(api, guest):
    client, player_id = guest("search-public")
    client.patch("/api/v1/account", {"display_name": "Quiet Crane"}, format="json")
    club = client.post("/api/v1/clubs", {"name": "Crane Club"}, format="json").json()
    account = Account.objects.get(pk=player_id)
    account.email, account.email_verified = "crane@example.org", True
    account.save()
    body = _found(api, "crane")
    assert body["results"] == [
        {"id": player_id, "display_name": "Quiet Crane", "club": {"id": club["id"], "name": "Crane Club"}}
    ]
    profile = api.get(f"/api/v1/players/{player_id}").json()
    for row in body["results"]:
        assert set(row) <= set(profile) and all(row[k] == profile[k] for k in row)
    text = json.dumps(body)
    assert "crane@example.org" not in text and "guest-" not in text and "search-public" not in text


@pytest.mark.parametrize("q", ["a", " a ", "\u200ba", ""])
def test_r39_a_query_needs_two_characters(api, q):
    res = api.get("/api/v1/players", {"q": q})
    assert res.status_code == 400 and res.json()["error"]["code"] == "invalid"


@pytest.mark.parametrize("q", ["a\x00b", "ab\x1f", "a\u202eb"])
def test_r39_a_query_with_control_characters_is_400(api, q):
    res = api.get("/api/v1/players", {"q": q})
    assert res.status_code == 400 and res.json()["error"]["code"] == "invalid"


def test_r39_search_pages_and_caps_its_count(api, monkeypatch):
    players = [_named(f"page-{i}", f"Panda {i:02}") for i in range(12)]
    first = _found(api, "panda", limit=5, offset=0)
    second = _found(api, "panda", limit=5, offset=5)
    assert first["count"] == second["count"] == 12 and not first["count_capped"]
    ordered = sorted(players, key=lambda a: (search_key(a.display_name), a.pk))
    assert [r["id"] for r in first["results"] + second["results"]] == [a.pk for a in ordered[:10]]
    monkeypatch.setattr(selectors, "SEARCH_MAX", 10)
    capped = _found(api, "panda", limit=5, offset=8)
    assert capped["count"] == 10 and capped["count_capped"] is True
    assert [r["id"] for r in capped["results"]] == [a.pk for a in ordered[8:10]]
    assert _found(api, "panda", limit=5, offset=10)["results"] == []


def test_r39_the_name_follows_renames_and_resets():
    player = _named("rename", "Old Name")
    account_rename(account=player, display_name="Brand New")
    assert selectors.player_search(q="old name", limit=5, offset=0)["count"] == 0
    assert selectors.player_search(q="brand", limit=5, offset=0)["count"] == 1
    Account.objects.filter(pk=player.pk).update(search_name="")  # the projection writes it back
    from rivals.projections import rebuild_all

    rebuild_all()
    assert Account.objects.get(pk=player.pk).search_name == "brand new"


def test_r39_the_partial_indexes_hold_exactly_the_listed_players():
    """The search's indexes (migration 0010) and ``selectors.LISTED`` state one predicate."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT indexrelid::regclass::text, pg_get_expr(indpred, indrelid) FROM pg_index "
            "WHERE indrelid = 'rivals_account'::regclass AND indexrelid::regclass::text LIKE 'account_search_%%'"
        )
        predicates = dict(cur.fetchall())
    assert set(predicates) == {"account_search_prefix", "account_search_grams", "account_search_shuffle"}
    where, params = selectors._listed_sql()
    for predicate in predicates.values():
        assert predicate == "((NOT is_staff) AND (suspended_at IS NULL) AND (closed_at IS NULL))"
    assert set(selectors.listed_players().values_list("pk", flat=True)) == set(
        Account.objects.extra(where=[predicates["account_search_prefix"]]).values_list("pk", flat=True)
    )
    assert "is_staff" in where and "suspended_at" in where and "closed_at" in where and not params


NAMES = st.lists(st.text(alphabet="abAB ßｂ_%", min_size=1, max_size=8), min_size=1, max_size=12)


@pytest.mark.parametrize("plan", ["rare", "common", "common_over_budget"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=NAMES, q=st.text(alphabet="abAB ßｂ_%", min_size=2, max_size=4))
def test_r39_every_plan_finds_exactly_the_names_that_contain_the_query(monkeypatch, plan, names, q):
    """Whichever plan serves a query (the shares of its pieces decide), the answer is every listed
    name containing it, prefix matches first by name, then the others in the shuffled order."""
    from django.db import transaction

    shares = {"rare": 0.0, "common": 1.0, "common_over_budget": 1.0}[plan]
    monkeypatch.setattr(selectors, "_piece_shares", lambda: ({}, shares, 1000.0))
    monkeypatch.setattr(selectors, "SEARCH_MAX", 3)  # small: the common plan's scan answers alone
    if plan == "common_over_budget":
        monkeypatch.setattr(selectors, "SCAN_BUDGET", 2)
    key = search_key(q)
    if len(key) < 2:
        return
    with transaction.atomic():
        accounts = []
        for i, name in enumerate(names):
            account = Account.objects.create_user(f"prop-{i}", None)
            account.display_name, account.search_name = name, search_key(name)
            account.save()
            accounts.append(account)
        answer = selectors.player_search(q=q, limit=100, offset=0)
        found = [r["id"] for r in answer["results"]]
        with connection.cursor() as cur:
            cur.execute("SELECT id, hashint8(id) FROM rivals_account WHERE id = ANY(%s)", [[a.pk for a in accounts]])
            shuffle = dict(cur.fetchall())
        starts = sorted((a for a in accounts if a.search_name.startswith(key)), key=lambda a: (a.search_name, a.pk))
        inside = sorted(
            (a for a in accounts if key in a.search_name and not a.search_name.startswith(key)),
            key=lambda a: (shuffle[a.pk], a.pk),
        )
        expected = [a.pk for a in starts + inside]
        assert found == expected[:3]
        assert (answer["count"], answer["count_capped"]) == (min(len(expected), 3), len(expected) > 3)
        transaction.set_rollback(True)
