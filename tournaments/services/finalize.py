"""Finalization (R-26, R-27, R-29): final places, the prize table, the trophy — exactly once.

One transaction under the tournament's row lock: a second worker running it at the same moment
waits for the lock and then finds the tournament finished; a worker that dies half-way rolls the
whole transaction back (places, prizes, trophy), and the rerun does it all. The prizes'
``PointsAwarded`` carry the key ``tournament_prize:<tournament>:<account>`` (unique in the
ledger), a second guard of exactly-once.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from rivals.models import Account
from rivals.points.services import points_award
from tournaments import events as ev
from tournaments.models import Table
from tournaments.scoring import final_places
from tournaments.services.common import tournament_append, tournament_locked


def prize_key(tournament_id, account_id: int) -> str:
    return f"tournament_prize:{tournament_id}:{account_id}"


def _totals(t) -> list[tuple[int, int, object]]:
    """``(account, total TP, registered_at)`` summed from the table results themselves (the
    registrations' running totals are a projection for the standings page)."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT r.account_id, COALESCE(s.tp, 0), r.registered_at FROM tournaments_registration r "
            "LEFT JOIN (SELECT account_id, SUM(tp) AS tp FROM tournaments_tableseat WHERE tournament_id = %s "
            "AND tp IS NOT NULL GROUP BY account_id) s ON s.account_id = r.account_id WHERE r.tournament_id = %s",
            [t.pk, t.pk],
        )
        return cur.fetchall()


@transaction.atomic
def tournament_finalize(*, tournament_id, now: datetime | None = None) -> bool:
    """After the end, once every table has ended: places, prizes, trophy. False when not due or done.

    Decision: prizes are awarded at the tournament's end time (the instant R-26 makes them due),
    so a late job never moves them into another Romanian day or week (R-28, R-34).
    Decision: places follow R-26 literally — players with 0 TP are placed too (by registration).
    R-26 decision: a player with 0 TP at the end receives no prize and no trophy, and that
    place's prize is paid to nobody else; a tournament in which nobody earned TP pays nothing.
    R-38: a suspended or closed account keeps its place and receives no prize and no trophy
    (not passed on either).
    """
    now = now or timezone.now()
    t = tournament_locked(tournament_id)
    if t.status != "running" or now < t.ends_at or Table.objects.filter(tournament=t, status="playing").exists():
        return False
    places = final_places(_totals(t))
    restricted = Account.objects.restricted_ids(a for a, _, _ in places)

    def paid(account_id: int, tp: int) -> bool:
        return tp > 0 and account_id not in restricted

    prizes = t.prize_table
    rows = [[a, place, tp, prizes[place - 1] if place <= len(prizes) and paid(a, tp) else 0] for a, place, tp in places]
    trophy = None
    if rows and paid(rows[0][0], rows[0][2]):  # R-27 the regular cup; R-29 one counted Champions copy per win
        trophy = {"account_id": rows[0][0], "kind": "champions" if t.kind == "champions" else "cup", "title": t.title}
    tournament_append(t, [ev.tournament_finalized(places=rows, trophy=trophy, at=now)], actor="system", now=now)
    for account_id, place, tp, prize in rows:
        if prize > 0:
            points_award(
                account=account_id,
                amount=prize,
                source="tournament_prize",
                key=prize_key(t.pk, account_id),
                at=t.ends_at,
                ref={"tournament_id": str(t.pk), "title": t.title, "place": place, "tp": tp},
            )
    return True
