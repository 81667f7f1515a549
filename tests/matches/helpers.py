"""Helpers for competitive-play tests: real matches through the real services and engine."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from django.db import transaction

from rivals import engine
from rivals.games.services import game_board
from rivals.matches import services as svc
from rivals.matches.models import Match, Round
from rivals.models import Account, Game

T0 = datetime(2026, 6, 1, 9, 0, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def accounts(n: int, jokers: int = 0, prefix: str = "p") -> list[Account]:
    from tests.factories import AccountFactory

    return [AccountFactory.create(device_id=f"{prefix}-{i}", jokers=jokers) for i in range(n)]


# a fixed 36-tile Diamond deal, so that every run plays the same boards (random play on it gets
# stuck in about one playout of six)
CODE = engine.random_code(rng_seed=3, layout_id="L08")


def match(mode: str, players: list[Account], start_s: float = 0, code: str | None = CODE, **kw) -> Match:
    return svc.match_create(mode=mode, account_ids=[a.pk for a in players], now=at(start_s), code=code, **kw)


def first_round(m: Match) -> Round:
    return m.rounds.order_by("index").first()


def board(rnd: Round, acc: Account) -> Game:
    return Game.objects.get(round_id=rnd.pk, account=acc)


def play(rnd: Round, acc: Account, kind: str, t: float, **fields):
    game = board(rnd, acc)
    return svc.round_intent_apply(
        account=acc, round_id=rnd.pk, intent={"seq": game.seq, "type": kind, **fields}, now=at(t)
    )


def plan(rnd: Round, acc: Account) -> list[tuple[int, int]]:
    result = engine.solve(game_board(board(rnd, acc)))
    assert result.solvable
    return [tuple(p) for p in result.plan]


def pair(rnd: Round, acc: Account, t: float):
    """Remove the next pair of a winning plan at ``t`` seconds."""
    return play(rnd, acc, "remove_pair", t, tiles=list(plan(rnd, acc)[0]))


def blocked_tile(rnd: Round, acc: Account) -> int:
    b = game_board(board(rnd, acc))
    return next(t for t in range(b.layout.size) if (b.present >> t) & 1 and not b.is_free(t))


def reload(rnd: Round) -> Round:
    return Round.objects.get(pk=rnd.pk)


def complete(rnd: Round, acc: Account, start_s: float, step_s: float = 1.0):
    """Play a winning plan to the end, one pair every ``step_s`` seconds from ``start_s``."""
    result = None
    for i, p in enumerate(plan(rnd, acc)):
        result = play(rnd, acc, "remove_pair", start_s + i * step_s, tiles=list(p))
    return result


def round_ended_events(rnd: Round):
    from rivals.models import Event

    return list(Event.objects.filter(stream_id=f"round-{rnd.pk}", type="RoundEnded"))


def _line(b, n: int) -> list[tuple[int, int]] | None:
    """``n`` pairs to play from board ``b``, none of them decisive (R-15), each keeping the board
    solvable - found by a depth-first search that prefers the solver's next pair, then the
    removable pairs in order (so that the line does not hang on one solver's plan)."""
    if n == 0:
        return []
    res = engine.solve(b)
    if not res.solvable:
        return None
    for p in dict.fromkeys([tuple(res.plan[0]), *b.removable_pairs()]):
        if not _keeps_going(b, p):
            continue
        after = b.copy()
        after.remove(*p)
        rest = _line(after, n - 1)
        if rest is not None:
            return [p, *rest]
    return None


def steady(rnd: Round, acc: Account, n: int, start_s: float, step_s: float = 2.0) -> None:
    """``n`` pairs at a constant interval (no speed record after the first), none of them
    decisive (R-15), each keeping the board solvable: exactly 100 points each."""
    line = _line(game_board(board(rnd, acc)), n)
    assert line is not None, f"no {n} pairs in a row here that are neither decisive nor losing"
    for i, chosen in enumerate(line):
        play(rnd, acc, "remove_pair", start_s + i * step_s, tiles=list(chosen))


def seconds(moment: datetime) -> float:
    return (moment - T0).total_seconds()


def steady_all(rnd: Round, counts: dict, step_s: float = 1.0, after_s: float = 0.0) -> None:
    """Round-robin play: each tick every player who still owes pairs removes one (none decisive,
    a constant interval shorter than the first one: exactly 100 each)."""
    start = seconds(rnd.starts_at) + after_s
    players = [acc for acc, n in counts.items() if n]
    lines = {acc: _line(game_board(board(rnd, acc)), counts[acc]) for acc in players}
    assert all(line is not None for line in lines.values())
    for i in range(max(counts.values())):
        for k, acc in enumerate(players):
            if i >= counts[acc]:
                continue
            play(
                rnd,
                acc,
                "remove_pair",
                start + (k + 1) * step_s / (len(players) + 1) + i * step_s,
                tiles=list(lines[acc][i]),
            )


def _keeps_going(b, p) -> bool:
    if engine.is_decisive(b, p):
        return False
    after = b.copy()
    after.remove(*p)
    return engine.solve(after).solvable


# --- projection properties (tests/*/test_projection_properties.py) --------------------------------


@contextmanager
def rolled_back():
    """One hypothesis example's writes, undone after it (the log is append-only: a savepoint is
    rolled back, nothing is deleted)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def assert_live_equals_rebuild() -> None:
    """``rebuild_projections --verify`` in the test's transaction: every projection rebuilt from
    the log into private copies equals its live table."""
    from rivals.rebuild import rebuild

    report = rebuild(verify_only=True)
    assert report.equal, [d for d in report.differences if d.any]
