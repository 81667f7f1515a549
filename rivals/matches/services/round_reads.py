"""The reads of a round that its writes start from (``rivals.matches.services.rounds``): the
round, locked or not, and its players' boards — the hot path of every round intent. A round read
with its boards carries its clock (R-17: ``Round.clock_from``, the deadline from the boards' last
pairs)."""

from __future__ import annotations

from django.db import connection

from rivals.errors import NotFound
from rivals.games.models import Game
from rivals.ids import is_uuid
from rivals.matches.models import Round
from rivals.models import Account
from rivals.rawsql import execute_prepared, models_from_rows, select_list


def round_row(round_id, *, account: Account | None = None, lock: bool = False, skip_locked: bool = False) -> Round:
    """The round (locked if asked; ``skip_locked``: NotFound rather than wait for another's lock);
    a round the account does not play is 404, not 403."""
    rnd = None
    if is_uuid(round_id):
        sql = "SELECT * FROM matches_round WHERE id = %s"
        params: list = [str(round_id)]
        if account is not None:
            sql += " AND players @> %s::jsonb"
            params.append(f"[{int(account.pk)}]")
        lock_sql = (" FOR UPDATE" + (" SKIP LOCKED" if skip_locked else "")) if lock else ""
        rnd = next(iter(Round.objects.raw(sql + lock_sql, params)), None)
    if rnd is None:
        raise NotFound("no such round")
    return rnd


def round_boards(rnd: Round, *, lock: bool = False) -> list[Game]:
    """The players' boards in seat order, each with its player's ``display_name`` (one query).

    Locking them is safe from deadlocks: every path that locks more than one board of a round
    holds the round's row lock first, and a pair that locks its own board alone waits for nothing
    else of the round (issue 35; the solo game path locks one board and never the round)."""
    sql = (
        "SELECT g.*, a.display_name AS player_name FROM rivals_game g JOIN rivals_account a ON a.id = g.account_id "
        "WHERE g.round_id = %s" + (" FOR UPDATE OF g" if lock else "")
    )
    boards = {g.account_id: g for g in Game.objects.raw(sql, [str(rnd.pk)])}
    return [boards[a] for a in rnd.players if a in boards]


def _round_sql(lock: bool) -> str:
    return f"SELECT {select_list(Round)} FROM matches_round WHERE id = %s AND players @> %s::jsonb" + (
        " FOR UPDATE" if lock else ""
    )


def _boards_sql(lock: bool) -> str:
    return (
        f"SELECT {select_list(Game, 'g')}, a.display_name AS player_name FROM rivals_game g "
        "JOIN rivals_account a ON a.id = g.account_id WHERE g.round_id = %s" + (" FOR UPDATE OF g" if lock else "")
    )


def round_with_boards(round_id, *, account: Account, lock: bool = False) -> tuple[Round, list[Game]]:
    """The round the account plays and every board of it: the round first — locked if asked —
    then its boards, read after that lock with a fresh snapshot. 404 for a round the account does
    not play. Two prepared statements (``rivals.rawsql.execute_prepared``: the server neither
    parses nor plans them again; every round intent reads them), with their columns named."""
    if not is_uuid(round_id):
        raise NotFound("no such round")
    with connection.cursor() as django_cursor:
        cur = execute_prepared(django_cursor, _round_sql(lock), [str(round_id), f"[{int(account.pk)}]"])
        rounds = models_from_rows(Round, cur, cur.fetchall())
        if not rounds:
            raise NotFound("no such round")
        cur = execute_prepared(django_cursor, _boards_sql(lock), [str(round_id)])
        games = models_from_rows(Game, cur, cur.fetchall())
    rnd = rounds[0]
    boards = {g.account_id: g for g in games}
    boards = [boards[a] for a in rnd.players if a in boards]
    return rnd.clock_from(boards), boards


def round_clock(round_id) -> Round | None:
    """The round with its current deadline (``ends_at``, R-17), unlocked; None if unknown."""
    try:
        rnd = round_row(round_id)
    except NotFound:
        return None
    return rnd.clock_from(round_boards(rnd))


def _own_locked_sql() -> str:
    cols = select_list(Game)
    return (
        f"WITH mine AS (SELECT {cols} FROM rivals_game WHERE round_id = %s AND account_id = %s FOR UPDATE) "
        f"SELECT {cols}, NULL::text AS player_name FROM mine UNION ALL "
        f"SELECT {select_list(Game, 'g')}, a.display_name FROM rivals_game g JOIN rivals_account a "
        "ON a.id = g.account_id WHERE g.round_id = %s AND g.account_id <> %s"
    )


def round_with_own_board(round_id, *, account: Account) -> tuple[Round, list[Game]]:
    """A pair's read (issue 35): the round unlocked, the caller's board locked — as it is once the
    lock is held — and the other boards as they were (unlocked: they only ever move the deadline
    later, R-17), in two prepared statements. The players of a round wait for no one's lock but
    their own board's. 404 for a round the account does not play; no boards for a round over."""
    if not is_uuid(round_id):
        raise NotFound("no such round")
    me = int(account.pk)
    with connection.cursor() as django_cursor:
        cur = execute_prepared(django_cursor, _round_sql(False), [str(round_id), f"[{me}]"])
        rounds = models_from_rows(Round, cur, cur.fetchall())
        if not rounds:
            raise NotFound("no such round")
        if rounds[0].status != "running":  # over: nothing to lock (the caller refuses under the end's locks)
            return rounds[0], []
        cur = execute_prepared(django_cursor, _own_locked_sql(), [str(round_id), me, str(round_id), me])
        games = models_from_rows(Game, cur, cur.fetchall())
    rnd = rounds[0]
    boards = {g.account_id: g for g in games}
    boards = [boards[a] for a in rnd.players if a in boards]
    return rnd.clock_from(boards), boards
