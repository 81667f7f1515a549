"""The load benchmark's floor endpoint (rivals/api/views_floor.py): absent unless enabled, and when
served it does what it claims (a locked head, one event per accepted seq, 409 on a stale seq)."""

from __future__ import annotations

import pytest
from django.db import connection
from rest_framework.test import APIRequestFactory, force_authenticate

from rivals.api.views_floor import FloorIntentView


@pytest.mark.django_db
def test_the_floor_is_not_routed_by_default(guest):
    client, _ = guest("floor-off")
    assert client.post("/api/v1/bench/floor", {"seq": 0}, format="json").status_code == 404


@pytest.mark.django_db
def test_the_floor_appends_one_row_per_accepted_seq_and_refuses_a_stale_one(guest):
    from rivals.models import Account

    _, account_id = guest("floor-on")
    account = Account.objects.get(pk=account_id)
    view, factory = FloorIntentView.as_view(), APIRequestFactory()

    def post(seq):
        request = factory.post(
            "/api/v1/bench/floor", {"seq": seq, "type": "remove_pair", "tiles": [1, 2]}, format="json"
        )
        force_authenticate(request, user=account)
        return view(request)

    assert [post(0).data, post(1).data] == [{"accepted": True, "seq": 1}, {"accepted": True, "seq": 2}]
    stale = post(1)
    assert stale.status_code == 409 and stale.data["error"]["details"] == {"seq": 2}
    with connection.cursor() as cur:
        cur.execute("SELECT seq FROM bench_floor_event WHERE account_id = %s ORDER BY seq", [account_id])
        assert [r[0] for r in cur.fetchall()] == [1, 2]
