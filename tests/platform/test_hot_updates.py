"""Issue 25: the rows every accepted pair rewrites — the board (``rivals_game``), its stream head
(``rivals_stream``) and, in a round, the round (``matches_round``: R-17's deadline moves with
every pair) — are updated HOT (heap-only: the new row version on the same page, no index entry
written): no index holds a column a pair changes, and the board's pages keep room for the new
version (fillfactor 70, migration rivals 0012). Counted by PostgreSQL in the test's own
transaction (``pg_stat_get_xact_tuples_*``)."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from config.embedded import database_url
from tests.games.helpers import account, at, intent, new_game, non_decisive_pair
from tests.matches import helpers as m

pytestmark = pytest.mark.django_db

TABLES = ("rivals_game", "rivals_stream", "matches_round")


def _updates() -> dict[str, tuple[int, int]]:
    """{table: (rows updated, of them HOT)} so far in this transaction."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT t, pg_stat_get_xact_tuples_updated(t::regclass), pg_stat_get_xact_tuples_hot_updated(t::regclass) "
            "FROM unnest(%s::text[]) AS t",
            [list(TABLES)],
        )
        return {t: (upd, hot) for t, upd, hot in cur.fetchall()}


@pytest.fixture(autouse=True)
def _vacuumed():
    """What an earlier test's rolled-back rows left on the board's pages is reclaimed first (as
    autovacuum does in production): whether a page still has room for three new versions of a
    board must not depend on which tests ran before (a board row is ~1.2 kB)."""
    with psycopg.connect(database_url(connection.settings_dict), autocommit=True) as side:
        side.execute("VACUUM rivals_game, rivals_stream, matches_round")


def _delta(before, after) -> dict[str, tuple[int, int]]:
    return {t: (after[t][0] - before[t][0], after[t][1] - before[t][1]) for t in TABLES}


def test_the_board_is_kept_with_room_for_its_updates():
    with connection.cursor() as cur:
        cur.execute("SELECT reloptions FROM pg_class WHERE relname = 'rivals_game'")
        assert cur.fetchone()[0] == ["fillfactor=70"]


def test_a_solo_pair_updates_its_board_and_stream_head_hot():
    acc = account("hot")
    game = new_game(acc, "single", level=1)
    before = _updates()
    for t in (1, 2, 3):
        intent(game, acc, "remove_pair", now=at(t), tiles=list(non_decisive_pair(game)))
    assert _delta(before, _updates()) == {"rivals_game": (3, 3), "rivals_stream": (3, 3), "matches_round": (0, 0)}


def test_a_round_pair_updates_its_board_and_stream_head_hot_and_never_the_round():
    a, b = m.accounts(2)
    rnd = m.first_round(m.match("quick", [a, b]))
    before = _updates()
    m.steady(rnd, a, 2, start_s=1)
    m.steady(rnd, b, 1, start_s=2)
    # each pair: the board and the board's stream head; never the round (issue 35: R-17's deadline
    # comes from the boards' last pairs, so the players of a round share no row on a pair)
    assert _delta(before, _updates()) == {"rivals_game": (3, 3), "rivals_stream": (3, 3), "matches_round": (0, 0)}
