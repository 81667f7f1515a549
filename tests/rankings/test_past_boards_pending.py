"""R-34's decision: a point earned by a round belongs to the instant the round ended — its deadline
when time ended it — even when the ending is written later; so a past board says ``final: true``
only once no round, arena, match, tournament or pot that can still pay into its period is
unresolved. (Time is applied on read, by a task at the moment and by the beat sweeper: here the
sweeper comes late.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from rivals.matches import services as rounds
from rivals.matches.models import Round
from rivals.points.models import PointsLedgerEntry
from rivals.points.selectors import awards_pending
from tests.matches.helpers import CODE, round_clock, seconds, steady
from tests.rankings.helpers import make_accounts, utc
from tests.tournaments.helpers import new_tournament, register_all, score_tables
from tournaments.services.play import tournament_tick

pytestmark = pytest.mark.django_db

# Wednesday 2026-06-03 23:59:55 Romanian time (+03:00) is 20:59:55Z; Thursday begins at 21:00:00Z
WEDNESDAY = "2026-06-03"
MIDNIGHT = utc("2026-06-03T21:00:00Z")


@pytest.fixture
def clock(monkeypatch):
    state = {}
    monkeypatch.setattr(timezone, "now", lambda: state["now"])

    def set_to(instant):
        state["now"] = utc(instant) if isinstance(instant, str) else instant

    return set_to


def _daily(api, day: str) -> dict:
    res = api.get("/api/v1/rankings/daily", {"day": day})
    assert res.status_code == 200, res.content
    body = res.json()
    return {"rows": [(r["player"]["display_name"], r["points"]) for r in body["results"]], **body["period"]}


def test_r34_a_round_with_a_235955_deadline_ended_by_the_sweeper_at_000005_pays_yesterday(api, clock):
    """A Quick Match round whose idle deadline is 23:59:55 on Wednesday: the sweeper ends it at
    00:00:05 on Thursday. Until then Wednesday's board says ``final: false``; then A's 15 points
    (R-12: the winner did not complete) are on Wednesday's board, dated at the deadline, and it is
    final; Thursday's board has nothing of it."""
    clock("2026-06-03T20:59:30Z")
    a, b = make_accounts(2, "late")
    m = rounds.match_create(mode="quick", account_ids=[a.pk, b.pk], now=utc("2026-06-03T20:59:30Z"), code=CODE)
    rnd = m.rounds.get()
    steady(rnd, a, 1, seconds(utc("2026-06-03T20:59:35Z")))  # B stays idle (R-18a: unpaid anyway)
    assert round_clock(rnd.pk).ends_at == utc("2026-06-03T20:59:55Z")  # 20 s after the last pair

    clock("2026-06-04T09:00:00Z")  # not yet swept (a dead worker): the day ended, the round did not
    assert _daily(api, WEDNESDAY) == {"rows": [], "starts_on": WEDNESDAY, "ends_on": WEDNESDAY, "final": False}
    assert awards_pending(start=utc("2026-06-02T21:00:00Z"), end=MIDNIGHT)
    clock("2026-06-03T21:00:03Z")  # 00:00:03 Thursday
    assert _daily(api, WEDNESDAY)["final"] is False

    assert rounds.rounds_end_due(now=utc("2026-06-03T21:00:05Z")) == 1  # the sweeper, at 00:00:05
    rnd.refresh_from_db()
    assert (rnd.status, rnd.end_reason, rnd.ended_at) == ("ended", "idle", utc("2026-06-03T20:59:55Z"))
    entry = PointsLedgerEntry.objects.get(source="quick_match")
    assert (entry.account_id, entry.amount, entry.awarded_at) == (a.pk, 15, utc("2026-06-03T20:59:55Z"))
    clock("2026-06-03T21:00:06Z")
    assert _daily(api, WEDNESDAY) == {
        "rows": [("LATE0", 15)],
        "starts_on": WEDNESDAY,
        "ends_on": WEDNESDAY,
        "final": True,
    }
    assert _daily(api, "2026-06-04")["rows"] == []  # not the day it was written
    weekly = api.get("/api/v1/rankings/weekly", {"week": "2026-06-01"}).json()
    assert weekly["period"]["final"] is False  # the week of 2026-06-01 … 06-07 has not ended


def test_r34_only_the_last_round_of_an_arena_can_pay_into_a_past_period(clock):
    """An arena pays at its last round's end: a first round whose deadline passed cannot pay into
    that day (the next rounds start after its end is written); the last one can, until it ends."""
    clock("2026-06-03T20:58:00Z")
    players = make_accounts(4, "arena")
    m = rounds.match_create(
        mode="arena", account_ids=[p.pk for p in players], now=utc("2026-06-03T20:58:00Z"), code=CODE
    )
    wednesday = {"start": utc("2026-06-02T21:00:00Z"), "end": MIDNIGHT}
    assert m.rounds.get(index=1).ends_at < MIDNIGHT and not awards_pending(**wednesday)
    for index in (1, 2):
        rnd = m.rounds.get(index=index)
        assert rounds.round_end_if_due(round_id=rnd.pk, now=rnd.ends_at, via="task")
    assert m.rounds.get(index=3).ends_at < MIDNIGHT and awards_pending(**wednesday)  # 20 s after its start
    assert not awards_pending(start=MIDNIGHT, end=utc("2026-06-04T21:00:00Z"))  # not Thursday's
    assert rounds.rounds_end_due(now=utc("2026-06-03T21:00:30Z")) == 1  # the sweeper, after midnight
    assert not awards_pending(**wednesday)


def test_r34_a_tournament_finalized_after_midnight_pays_the_day_of_its_end(api, clock):
    """Its prizes are dated at its end time (22:10 Romanian time on Monday 2026-06-01): Monday's
    board is not final while the tournament runs after its end, waiting to be finalized."""
    clock("2026-06-01T18:00:00Z")
    t = new_tournament(prize_table=[100, 50])
    players = make_accounts(2, "cup")
    register_all(t, players)
    assert tournament_tick(tournament_id=t.pk, now=utc("2026-06-01T18:10:00Z")) == "started"
    score_tables(t, 1, {players[0].pk: 500, players[1].pk: 100}, now=utc("2026-06-01T18:20:00Z"))
    # no further wave is seated for two players? every table ended: the tournament waits for its end
    clock("2026-06-01T21:00:05Z")  # 00:00:05 Tuesday: the end (19:10Z) passed, not yet finalized
    for round_id in Round.objects.filter(status="running").values_list("pk", flat=True):
        rounds.round_end_if_due(round_id=round_id, now=utc("2026-06-01T19:10:00Z"), via="task")
    assert _daily(api, "2026-06-01")["final"] is False
    assert tournament_tick(tournament_id=t.pk, now=utc("2026-06-01T21:00:05Z")) == "finalized"
    prizes = dict(PointsLedgerEntry.objects.filter(source="tournament_prize").values_list("account_id", "awarded_at"))
    assert set(prizes.values()) == {t.ends_at}
    monday = _daily(api, "2026-06-01")
    assert monday["final"] is True and monday["rows"][0] == ("CUP0", 100)


def test_r34_the_pending_rounds_read_is_a_range_of_the_running_rounds_index():
    """Cheap: among 4,000 ended rounds and a few running ones, the read is a range of the running
    rounds' partial index by start (a deadline is at most 5 minutes after it)."""
    from datetime import timedelta

    from rivals.matches.models import Match
    from rivals.matches.selectors import pending_last_rounds

    match = Match.objects.create(mode="quick", created_at=MIDNIGHT)
    start = utc("2026-01-01T00:00:00Z")
    Round.objects.bulk_create(
        Round(
            match=match,
            index=i,
            mode="quick",
            status="running" if i % 400 == 0 else "ended",
            code=CODE,
            layout="L08",
            starts_at=start + timedelta(hours=i),
            hard_ends_at=start + timedelta(hours=i, minutes=5),
            ends_at=start + timedelta(hours=i, seconds=20),
        )
        for i in range(1, 4001)
    )
    with connection.cursor() as cur:
        cur.execute("ANALYZE matches_round")
        plan = pending_last_rounds(utc("2026-06-02T21:00:00Z"), MIDNIGHT).explain()
    assert "Index Scan using round_running on matches_round" in plan, plan
    assert "Index Cond: ((starts_at >= " in plan, plan
