import pytest

from tests.matches.helpers import accounts, at, board, first_round, match, pair, reload

pytestmark = pytest.mark.django_db


def test_quick_match_round_idle_end():
    a, b = accounts(2)
    m = match("quick", [a, b])
    rnd = first_round(m)
    pair(rnd, a, 3)
    pair(rnd, b, 5)
    from rivals.matches.services import round_end_if_due
    assert not round_end_if_due(round_id=rnd.pk, now=at(24))
    assert round_end_if_due(round_id=rnd.pk, now=at(25))
    rnd = reload(rnd)
    assert rnd.status == "ended" and rnd.end_reason == "idle"
    m.refresh_from_db()
    assert m.status == "finished"
    print(m.standings, m.prizes, board(rnd, a).status)
