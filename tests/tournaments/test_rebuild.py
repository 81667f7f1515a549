"""Tournament and pot rows are projections: rebuilding them from the event log gives the live state."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.forms.models import model_to_dict
from django.utils import timezone

from rivals.projections import rebuild_all
from tests.tournaments.helpers import at, new_tournament, players, register_all, score_tables
from tournaments.models import Pot, PotEntrant, Registration, Table, TableSeat, Tournament, Trophy, Wave
from tournaments.services.play import tournament_tick
from tournaments.services.pots import pot_create, pot_enter, pot_finalize

pytestmark = pytest.mark.django_db


def _row(o) -> tuple:
    """A row without its surrogate keys (autoincrement ids differ after a rebuild)."""
    d = {k: v for k, v in model_to_dict(o).items() if k not in ("id", "wave", "table")}
    if isinstance(o, Table):
        d["wave_number"] = o.wave.number
    if isinstance(o, TableSeat):
        d["table_at"] = (o.table.wave.number, o.table.number)
    return tuple(sorted((k, str(v)) for k, v in d.items()))


def snapshot():
    return {
        m.__name__: sorted(_row(o) for o in m.objects.all())
        for m in (Tournament, Registration, Wave, Table, TableSeat, Trophy, Pot, PotEntrant)
    }


def test_rebuild_projections_reproduces_tournaments_and_pots():
    t = new_tournament(prize_table=[30, 10])
    accounts = players(5)
    register_all(t, accounts)
    tournament_tick(tournament_id=t.pk, now=at(10))
    score_tables(t, 1, {a.pk: 100 * i for i, a in enumerate(accounts)})
    tournament_tick(tournament_id=t.pk, now=at(30))
    score_tables(t, 2, {a.pk: 50 * i for i, a in enumerate(accounts)}, now=at(40))
    tournament_tick(tournament_id=t.pk, now=at(71))
    now = timezone.now()
    pot = pot_create(
        actor="operator:1",
        title="Pot",
        code="MJ1-L08-AAAAAAB",
        prize_split=[5],
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=5),
        entrants=[accounts[0].pk],
    )
    pot_enter(pot_id=pot.pk, account=accounts[1])
    pot_finalize(pot_id=pot.pk, now=pot.ends_at)
    before = snapshot()
    assert len(before["TableSeat"]) == 10 and len(before["Trophy"]) == 1
    rebuild_all()
    assert snapshot() == before
