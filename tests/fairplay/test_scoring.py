"""R-42's window arithmetic (``rivals.fairplay.scoring``, pure: no database) raising the pace flags
(``no_slowdown``: no slower where a pair loses than elsewhere, against the rating band; ``regular``:
machine-regular intervals) and the plan-agreement flag ``keep`` (the critical positions kept), with
the numbers the thresholds (``scoring.Thresholds()``, the defaults) are set against; and the pace
against the account's own history (``faster_than_history``)."""

from __future__ import annotations

import math

from rivals.fairplay import scoring

T = scoring.Thresholds()
LAYOUT, BAND = "L08", 4
HALF_LN2 = round(math.log(2) / 2, 4)


def _board(hard: list[int], easy: list[int], critical: int = 0, kept: int = 0) -> dict:
    return {"choices": 0, "plan_hits": 0, "critical": critical, "kept": kept, "hard_ms": hard, "easy_ms": easy}


def _baseline() -> scoring.Baseline:
    """A band of 30 boards: half twice as slow at the hard position (slowdown ln 2), half not
    (0): the band's slowdown has mean ln 2 / 2 and spread ln 2 / 2; no position counts (the prior
    rates: plan 0.30, keep 0.85)."""
    base = scoring.Baseline()
    for k in range(30):
        base.add(LAYOUT, BAND, _board([4000 if k % 2 else 2000], [2000] * 3))
    return base


def _window(boards: list[dict], base: scoring.Baseline) -> dict:
    """An account's state after ``boards`` (one result each), as the projection keeps it."""
    state: dict = {}
    for k, board in enumerate(boards):
        entry = scoring.board_entry(board, layout=LAYOUT, band=BAND, baseline=base, t=T)
        scoring.account_add(state, {**entry, "result": f"match:{k}"}, T)
        state["scored"] = state.get("scored", 0) + 1
    return state


def test_R_42_the_bands_pace_baseline_is_exact():
    mean, sd, boards = _baseline().pace(LAYOUT, BAND)
    assert (round(mean, 4), round(sd, 4), boards) == (HALF_LN2, HALF_LN2, 30)
    assert _baseline().rates(LAYOUT, BAND, T) == (0.30, 0.85)


def test_R_42_no_slowdown_where_a_pair_loses_raises_the_pace_flag():
    """Twice as fast at the hard position (slowdown −ln 2): each board is (ln 2 / 2 + ln 2) / (ln 2 / 2)
    = 3 spreads below its band, five boards 3·√5 = 6.71 ≥ ``pace_z`` 5 — with ``pace_min_boards`` 5."""
    base = _baseline()
    state = _window([_board([500], [1000] * 3) for _ in range(5)], base)
    s = scoring.window_scores(state["entries"], state["history"])
    assert (s["pace_boards"], s["slowdown"], s["slowdown_expected"], s["pace_z"]) == (5, -0.6931, HALF_LN2, 6.71)
    assert (s["intervals"], s["faster_than_history"]) == (20, 0.0)  # too few intervals for "regular"; no history
    assert scoring.pace_evidence(s, T) == ["no_slowdown"] and scoring.solver_evidence(s, T) == []
    assert scoring.account_decide(state, T) == {"pace": (s, ["no_slowdown"])}
    # four such boards: z 3·4/√4 = 6.0, but fewer than pace_min_boards
    four = _window([_board([500], [1000] * 3) for _ in range(4)], base)
    s4 = scoring.window_scores(four["entries"], four["history"])
    assert (s4["pace_boards"], s4["pace_z"], scoring.pace_evidence(s4, T)) == (4, 6.0, [])
    # as slow at the hard position as elsewhere, on twenty boards: √20 = 4.47 < 5, not flagged
    even = _window([_board([1000], [1000] * 3) for _ in range(20)], base)
    se = scoring.window_scores(even["entries"], even["history"])
    assert (se["pace_boards"], se["pace_z"], scoring.pace_evidence(se, T)) == (20, 4.47, [])


def test_R_42_machine_regular_intervals_raise_the_pace_flag_and_the_pace_is_set_against_the_accounts_history():
    """Twenty boards at 2000 ms a pair, then twenty at exactly 1000 ms: the window (the last
    twenty) has 100 intervals of spread 0 (< ``pace_min_sd`` 0.10) — ``regular`` —, and is twice as
    fast as the account's own older boards (``faster_than_history`` 0.5)."""
    base = _baseline()
    state = _window(
        [_board([2000], [2000] * 4) for _ in range(20)] + [_board([1000], [1000] * 4) for _ in range(20)], base
    )
    assert len(state["entries"]) == T.window and state["history"]["n"] == 100
    s = scoring.window_scores(state["entries"], state["history"])
    # (the window keeps its sums of logs to 6 decimals: a spread of 0 reads 0.001)
    assert (s["intervals"], s["interval_spread"], s["faster_than_history"]) == (100, 0.001, 0.5)
    assert (s["pace_boards"], s["pace_z"]) == (20, 4.47)  # no slower where it loses, but z 4.47 < pace_z 5
    assert scoring.pace_evidence(s, T) == ["regular"]
    assert scoring.account_decide(state, T) == {"pace": (s, ["regular"])}
    # one interval fewer than pace_min_intervals: not judged
    short = _window([_board([1000], [1000] * 4) for _ in range(19)] + [_board([1000], [1000] * 3)], base)
    ss = scoring.window_scores(short["entries"], short["history"])
    assert (ss["intervals"], ss["interval_spread"], scoring.pace_evidence(ss, T)) == (99, 0.001, [])


def test_R_42_keeping_every_critical_position_raises_the_solver_flag_keep():
    """Against the band's keep rate 0.85: 120 critical positions all kept is (120 − 102) / √(120 ·
    0.85 · 0.15) = 4.6 ≥ ``keep_z`` 4.5, 15 points above (≥ ``keep_excess`` 0.08), with
    ``keep_min_critical`` 40; 100 of 100 is only 4.2."""
    base = _baseline()
    state = _window([_board([], [], critical=24, kept=24) for _ in range(5)], base)
    s = scoring.window_scores(state["entries"], state["history"])
    assert (s["critical"], s["kept"], s["keep_share"], s["keep_expected"], s["keep_z"]) == (120, 120, 1.0, 0.85, 4.6)
    assert scoring.solver_evidence(s, T) == ["keep"] and scoring.pace_evidence(s, T) == []
    assert scoring.account_decide(state, T) == {"solver_assist": (s, ["keep"])}
    fewer = _window([_board([], [], critical=20, kept=20) for _ in range(5)], base)
    sf = scoring.window_scores(fewer["entries"], fewer["history"])
    assert (sf["critical"], sf["keep_z"], scoring.solver_evidence(sf, T)) == (100, 4.2, [])
    # a window of four results flags nothing yet (min_results 5), whatever its numbers
    assert scoring.account_decide(_window([_board([], [], critical=30, kept=30) for _ in range(4)], base), T) == {}
