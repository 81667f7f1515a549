"""The reads of a round that its writes start from (``rivals.matches.services.rounds``): the
round, locked or not, and its players' boards — the hot path of every round intent. A round read
with its boards carries its clock (R-17: ``Round.clock_from``, the deadline from the boards' last
pairs)."""

from __future__ import annotations

from functools import cache

from django.db import connection

from rivals.errors import NotFound
from rivals.games.models import Game
from rivals.ids import is_uuid
from rivals.matches.models import LAST_PAIR_SQL, Round
from rivals.models import Account
from rivals.rawsql import column_names, execute_prepared, models_from_columns, models_from_rows, select_list


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


# The latest pair of the other boards of a pair's round (R-17's idle deadline runs from the latest
# pair of any player), read in the pair's statement instead of the other boards themselves (issue
# 35: a pair builds its own board alone — the opponents' figures are the round's read and the live
# socket's).
_OTHERS_LAST_PAIR_SQL = (
    f"(SELECT max({LAST_PAIR_SQL}) FROM rivals_game g WHERE g.round_id = %s AND g.account_id <> %s) "
    "AS others_last_pair_at"
)


@cache
def _own_locked_sql() -> str:
    """One statement and one row (issue 35: one round trip a pair): the round the account plays,
    the caller's board — locked while the round runs; a round over (ended: final) gives it
    unlocked, its players' late intents are refused from it — and the latest pair of the other
    boards; an unknown round no row."""
    cols = select_list(Game)
    running = "(SELECT status FROM r) = 'running'"
    mine = f"SELECT {cols} FROM rivals_game WHERE round_id = %s AND account_id = %s"
    return (
        f"WITH r AS ({_round_sql(False)}), "
        f"locked AS ({mine} AND {running} FOR UPDATE), "
        f"b AS (SELECT * FROM locked UNION ALL {mine} AND NOT {running}) "
        f"SELECT {select_list(Round, 'r')}, {_OTHERS_LAST_PAIR_SQL}, b.* FROM r LEFT JOIN b ON true"
    )


def round_with_own_board(round_id, *, account: Account) -> tuple[Round, Game]:
    """A pair's read (issue 35): the round unlocked, the caller's board locked — as it is once the
    lock is held — and the round's clock from it and the other boards' latest pair as it was
    (unlocked: the other boards only ever move the deadline later, R-17), in one prepared
    statement. The players of a round wait for no one's lock but their own board's. 404 for a
    round the account does not play; a round over (ended: final) comes with the board unlocked."""
    if not is_uuid(round_id):
        raise NotFound("no such round")
    me, rid = int(account.pk), str(round_id)
    with connection.cursor() as django_cursor:
        cur = execute_prepared(django_cursor, _own_locked_sql(), [rid, f"[{me}]", rid, me, rid, me, rid, me])
        rows = cur.fetchall()
        names = column_names(cur)
    split = len(Round._meta.concrete_fields)  # the round's columns, the others' last pair, the board's
    row = rows[0] if rows else None
    if row is None or row[split + 1] is None:  # no round of the account's, or no board of its own
        raise NotFound("no such round")
    (rnd,) = models_from_columns(Round, names[:split], [row[:split]])
    (game,) = models_from_columns(Game, names[split + 1 :], [row[split + 1 :]])
    return rnd.clock_from([game], also=row[split]), game
