"""S-18, S-19: the AI sees only its seat, follows the rules and decides fast."""

import ast
import inspect
import time
from dataclasses import fields

import rivals.sichuan.engine as E
import rivals.sichuan.engine.ai as ai_mod
from rivals.sichuan.engine import BaselinePlayer, SeatView, ai_action, new_table, seat_view
from rivals.sichuan.engine.table import Table
from rivals.sichuan.engine.view import MeldView

from .helpers import make_table, tile_of


def _walk(obj, seen=None):
    yield obj
    if isinstance(obj, (tuple, list)):
        for x in obj:
            yield from _walk(x)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(k)
            yield from _walk(v)
    elif isinstance(obj, (SeatView, MeldView)):
        for f in fields(obj):
            yield from _walk(getattr(obj, f.name))


def test_s18_ai_module_never_imports_the_table():
    tree = ast.parse(inspect.getsource(ai_mod))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert not any("table" in name for name in imported), imported
    assert not any(isinstance(v, type) and issubclass(v, Table) for v in vars(ai_mod).values())


def test_s18_seat_view_holds_only_plain_values_and_no_other_hand():
    t = new_table(3)
    for s in range(4):
        E.apply(t, s, {"type": "declare_missing", "suit": "CDB"[s % 3]})
    v = seat_view(t, 1)
    for x in _walk(v):
        assert isinstance(x, (int, str, bool, type(None), tuple, list, dict, SeatView, MeldView))
        assert not isinstance(x, Table)
    assert not hasattr(v, "__dict__")  # slots: nothing can be attached
    assert set(v.hand) == set(t.hands[1])
    assert v.hand_sizes == tuple(len(h) for h in t.hands)
    assert {f.name for f in fields(SeatView)}.isdisjoint({"hands", "wall", "table"})
    assert v.revealed_hands is None and v.wall_count == len(t.wall)


def test_s18_declares_missing_suit_of_least_cost():
    t = make_table(
        ["123456789C 1234D 8B", "123456789B 11D 22D", "2468D 39D 1346789C", "2366C 9C 2468B 1357B"], missing=None
    )
    assert ai_action(seat_view(t, 0)) == {"type": "declare_missing", "suit": "B"}
    assert ai_action(seat_view(t, 1)) == {"type": "declare_missing", "suit": "C"}


def test_s18_discards_missing_suit_first_and_always_wins():
    t = make_table(
        ["123C 456C 789C 11D 2B 3B 4B", "123456789C 11D 22D", "2468D 39D 1346789B", "2366C 9C 2468B 1357B"],
        missing="BBCD",
    )
    a = ai_action(seat_view(t, 0))
    assert a["type"] == "discard" and (a["tile"] >> 2) // 9 == 2
    t = make_table(
        ["777D 123C 456C 789C 11D", "123456789C 11B 22B", "234568D 1357B 9B 6B 8B", "3456B 1289D 99D 1B 2B 7B"],
        missing="BDCC",
    )
    assert ai_action(seat_view(t, 0)) == {"type": "win"}


def test_s18_pongs_only_when_not_farther_from_ready():
    # seat 1 with 55D in a hand where ponging keeps shanten -> pong
    t = make_table(
        ["5D 123B 456B 789B 11C 22C", "55D 99D 123C 456C 78C 1D", "2468D 3D 1346789C", "2366C 9C 2468B 1357B"],
        missing="DBBD",
    )
    E.apply(t, 0, {"type": "discard", "tile": tile_of(t, 0, "5D")})
    assert t.phase == "claims"
    assert ai_action(seat_view(t, 1)) == {"type": "pong"}
    # a 55D that is part of 3-4-5-5-6-7D breaks two runs: pass
    t = make_table(
        ["5D 123B 456B 789B 11C 22C", "345567D 123C 456C 9C", "2468D 3D 1346789C", "2366C 9C 2468B 1357B"],
        missing="DBBD",
    )
    E.apply(t, 0, {"type": "discard", "tile": tile_of(t, 0, "5D")})
    assert ai_action(seat_view(t, 1)) == {"type": "pass"}


def test_s19_ai_beats_baseline_and_decides_fast():
    wins_ai = wins_base = 0
    times = []

    def timed(view):
        t0 = time.perf_counter()
        a = ai_action(view)
        times.append(time.perf_counter() - t0)
        return a

    n = 40
    for i in range(n):
        t = new_table(1000 + i)
        ai_seat = i % 4
        pol = {s: timed if s == ai_seat else BaselinePlayer(i * 4 + s) for s in range(4)}
        E.run_ai_turns(t, human_seat=None, policies=pol)
        wins_ai += t.wins[ai_seat] is not None
        wins_base += sum(t.wins[s] is not None for s in range(4) if s != ai_seat)
    assert wins_ai / n > wins_base / (3 * n) + 0.2
    times.sort()
    assert times[len(times) // 2] < 0.005


def test_s19_baseline_takes_wins_and_plays_legal():
    t = make_table(
        ["777D 123C 456C 789C 11D", "123456789C 11B 22B", "234568D 1357B 9B 6B 8B", "3456B 1289D 99D 1B 2B 7B"],
        missing="BDCC",
    )
    assert BaselinePlayer(1)(seat_view(t, 0)) == {"type": "win"}
    t = new_table(8)
    E.run_ai_turns(t, human_seat=None, policies={s: BaselinePlayer(s) for s in range(4)})
    assert t.over and sum(t.scores) == 0
