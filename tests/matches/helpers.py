"""Helpers for competitive-play tests: real matches through the real services and engine."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from django.db import connection

from rivals import engine
from rivals.games.models import Game
from rivals.games.services import game_board
from rivals.matches import services as svc
from rivals.matches.models import Match, Round
from rivals.models import Account

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


def round_clock(round_id) -> Round | None:
    """The round with its current deadline (``ends_at``, R-17), unlocked; None if unknown."""
    from rivals.errors import NotFound
    from rivals.matches.services.round_reads import round_boards, round_row

    try:
        rnd = round_row(round_id)
    except NotFound:
        return None
    return rnd.clock_from(round_boards(rnd))


def reload(rnd: Round) -> Round:
    """The round as stored, with its clock (R-17: ``ends_at`` and ``last_pair_at`` from its boards)."""
    return round_clock(rnd.pk)


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


def intent_for(kind: str, board, choice: int, seq: int, *, otherwise: str = "click_blocked") -> object:
    """A round intent body of ``kind`` on ``board`` (``choice`` picks among the candidates): a
    removable pair, a mismatched pair, a blocked tile, a joker's tile, a hint or undo (now and then
    with a stale seq), a malformed body; when the board offers no candidate, ``otherwise``: a
    click on no tile, or a hint."""
    present = [i for i in range(board.layout.size) if (board.present >> i) & 1]
    free = [i for i in present if board.is_free(i)]
    blocked = [i for i in present if not board.is_free(i)]
    pairs = board.removable_pairs()
    if kind == "pair" and pairs:
        return {"seq": seq, "type": "remove_pair", "tiles": list(pairs[choice % len(pairs)])}
    if kind == "bad_pair" and present:
        return {"seq": seq, "type": "remove_pair", "tiles": [present[choice % len(present)], choice % 40]}
    if kind == "blocked" and blocked:
        return {"seq": seq, "type": "click_blocked", "tile": blocked[choice % len(blocked)]}
    if kind == "joker" and free:
        return {"seq": seq, "type": "joker", "tile": free[choice % len(free)]}
    if kind in ("hint", "undo"):
        return {"seq": seq if choice % 3 else seq + 1, "type": kind}
    if kind == "body":
        return [{"seq": "x"}, {"type": "remove_pair"}, {"seq": seq, "type": "nope"}, None, "x"][choice % 5]
    if otherwise == "hint":
        return {"seq": seq, "type": "hint"}
    return {"seq": seq, "type": "click_blocked", "tile": -1}


def race(*callables):
    """Run each callable in its own thread (its own database connection) at the same moment."""
    barrier = threading.Barrier(len(callables))
    outcomes: list = [None] * len(callables)

    def run(i, fn):
        try:
            barrier.wait()
            outcomes[i] = ("ok", fn())
        except Exception as exc:  # recorded and asserted by the test
            outcomes[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(callables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes
