"""R-42's fair-play signals and R-38's flags from them: a hand-made honest player, a solver-assisted
one and a colluding pair play real rounds through the services; a worker scores each rated result
from the log; the numbers and the flags are exact."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from rivals import engine
from rivals.fairplay import scoring
from rivals.fairplay.analysis import Move, analyse_board
from rivals.fairplay.models import FairPlayBaseline, FairPlayBoard, FairPlayFlag, FairPlayPair, FairPlayWindow
from rivals.fairplay.signals import fairplay_result_score, signals_verify
from rivals.fairplay.signals_projection import signals_projection
from rivals.fairplay.tasks import results_due, signals_sweep
from rivals.matches import services as svc
from rivals.models import Account, Event
from tests.matches.helpers import accounts, at, board

CODES = [engine.random_code(rng_seed=s, layout_id="L08") for s in (1, 2, 3, 4)]

# the test's thresholds: small windows for a few 36-tile boards; pace left to the pure tests
THRESHOLDS = {
    "min_results": 3,
    "plan_min_choices": 20,
    "plan_z": 3.0,
    "plan_excess": 0.2,
    "keep_min_critical": 1000,
    "pace_min_boards": 1000,
    "pace_min_intervals": 1000,
    "collusion_min_pairs": 8,
    "collusion_deals": 3,
}


@pytest.fixture(autouse=True)
def _signals(settings):
    settings.RIVALS = {**settings.RIVALS, "ROUND_LAYOUTS": ["L08"], "FAIRPLAY_SIGNALS": THRESHOLDS}


def _sequence(deal: engine.Deal, pick) -> list[tuple[int, int]]:
    b = engine.Board(deal.layout, deal.faces, "rivals")
    out = []
    while pairs := b.removable_pairs():
        out.append(pick(pairs))
        b.remove(*out[-1])
    return out


def _oracle(deal: engine.Deal, pairs: list[tuple[int, int]]) -> tuple[int, int, int]:
    """(choices, critical, kept) by brute force: every removable pair solved at every position
    (the plan hits depend on the server's plan after each pair: the test's last line checks them
    on the plan itself)."""
    b = engine.Board(deal.layout, deal.faces, "rivals")
    choices = critical = kept = 0
    solvable = True
    for p in pairs:
        removable = b.removable_pairs()
        if solvable and len(removable) > 1:
            choices += 1
            keeps = {}
            for q in removable:
                probe = b.copy()
                probe.remove(*q)
                keeps[q] = probe.present == 0 or engine.solve(probe).solvable
            if not all(keeps.values()):
                critical += 1
                kept += keeps[p]
            solvable = keeps[p]
        b.remove(*p)
    return choices, critical, kept


@pytest.mark.parametrize("seed", [1, 2, 3, 5])
def test_R_42_the_analysis_of_a_board_equals_brute_force(seed):
    deal = engine.deal_from_code(engine.random_code(rng_seed=seed, layout_id="L06"))
    for pick in (lambda ps: ps[0], lambda ps: ps[-1], lambda ps: ps[len(ps) // 2]):
        pairs = _sequence(deal, pick)
        got = analyse_board(deal.layout, deal.faces, [Move(p, 2000) for p in pairs], deal.plan, probes=1000)
        assert (got.choices, got.critical, got.kept) == _oracle(deal, pairs)
    plan = analyse_board(deal.layout, deal.faces, [Move(p, 1000) for p in deal.plan], deal.plan, probes=1000)
    assert plan.plan_hits == plan.choices and plan.kept == plan.critical and plan.lost_at is None


def test_R_42_pace_and_collusion_arithmetic_is_exact():
    t = scoring.Thresholds()
    board = {"hard_ms": [4000, 4000], "easy_ms": [2000, 2000, 2000]}
    assert round(scoring.slowdown(board), 6) == round(__import__("math").log(2), 6)
    a = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18), (19, 20), (21, 22), (23, 24)]
    b = a[:6] + [(99, 98)] + a[6:]
    assert scoring.lcs(a, b) == 12 and scoring.similarity(a, b, t) == 1.0
    assert scoring.similarity(a[:11], b, t) is None  # fewer than 12 unforced pairs: no comparison
    assert scoring.similarity(a, list(reversed(a)), t) == round(1 / 12, 4)
    assert scoring.collusion_evidence([0.9, 0.2, 0.85, 0.8], t) and not scoring.collusion_evidence([0.9, 0.79, 0.85], t)


def _round_of(match):
    return match.rounds.order_by("index").first()


def _play(rnd, moves: dict) -> None:
    """Apply every player's pairs in time order (``moves``: account → [(seconds, pair)]) until the
    round ends, then end it at its deadline."""
    timeline = sorted((s, acc.pk, acc, p) for acc, plays in moves.items() for s, p in plays)
    for s, _, acc, p in timeline:
        rnd.refresh_from_db()
        if rnd.status != "running":
            break
        game = board(rnd, acc)
        if game.status != "playing":
            continue
        result = svc.round_intent_apply(
            account=acc, round_id=rnd.pk, intent={"seq": game.seq, "type": "remove_pair", "tiles": list(p)}, now=at(s)
        )
        assert result.refused is None, result.refused
    rnd.refresh_from_db()
    if rnd.status == "running":
        assert svc.round_end_if_due(round_id=rnd.pk, now=rnd.ends_at, via="sweeper")


def _removed(rnd, acc) -> list[tuple[int, int]]:
    game = board(rnd, acc)
    return [
        tuple(e.data["tiles"])
        for e in Event.objects.filter(stream_id=game.stream_id, type="PairRemoved").order_by("version")
    ]


def _world():
    """Four deals; on each, two one-round matches: the honest H against the colluder A, then the
    assisted S against A's partner B, who replays A's pairs in order."""
    honest, assisted, leader, follower = accounts(4, prefix="fp")
    results = []
    for k, code in enumerate(CODES):
        deal = engine.deal_from_code(code)
        t0 = 1000 * k
        m1 = svc.match_create(mode="duel", account_ids=[honest.pk, leader.pk], now=at(t0), code=code)
        r1 = _round_of(m1)
        high = _sequence(deal, lambda ps: ps[-1])
        low = _sequence(deal, lambda ps: ps[0])
        _play(
            r1,
            {
                honest: [(t0 + 5 + 2.5 * i, p) for i, p in enumerate(high)],
                leader: [(t0 + 3 + 2 * i, p) for i, p in enumerate(low)],
            },
        )
        copied = _removed(r1, leader)
        m2 = svc.match_create(mode="duel", account_ids=[assisted.pk, follower.pk], now=at(t0 + 300), code=code)
        r2 = _round_of(m2)
        _play(
            r2,
            {
                assisted: [(t0 + 305 + 3 * i, p) for i, p in enumerate(deal.plan)],
                follower: [(t0 + 303 + 1.5 * i, p) for i, p in enumerate(copied)],
            },
        )
        results += [f"match:{m1.pk}", f"match:{m2.pk}"]
    return (honest, assisted, leader, follower), results


@pytest.mark.django_db
def test_R_42_R_38_an_honest_an_assisted_player_and_a_colluding_pair_are_scored_and_flagged_exactly():
    (honest, assisted, leader, follower), results = _world()
    # the intents that ended the rounds and rated the matches added no signal: a worker scores them
    assert not Event.objects.filter(type="FairPlaySignalsScored").exists()
    assert results_due(now=at(10_000)) == results  # rated, not yet scored: the oldest first
    for result in results:
        assert fairplay_result_score(result=result, now=at(5000))
        assert not fairplay_result_score(result=result, now=at(5000))  # once
    assert Event.objects.filter(type="FairPlaySignalsScored").count() == 8

    windows = {w.account_id: w for w in FairPlayWindow.objects.all()}
    assert {a: windows[a.pk].scored for a in (honest, assisted, leader, follower)} == dict.fromkeys(
        (honest, assisted, leader, follower), 4
    )
    s_entries = windows[assisted.pk].entries
    # the assisted player took the plan pair at every choice (its rounds ended at B's completion
    # twice: 8 pairs); the honest one rarely; A's and B's boards are the same pairs
    assert [e["plan_hits"] for e in s_entries] == [e["choices"] for e in s_entries] == [8, 15, 16, 8]
    assert [(e["critical"], e["kept"]) for e in s_entries] == [(0, 0), (0, 0), (2, 2), (0, 0)]
    h_entries = windows[honest.pk].entries
    assert [(e["pairs"], e["choices"], e["plan_hits"]) for e in h_entries] == [
        (13, 13, 0),
        (18, 17, 5),
        (18, 17, 0),
        (13, 13, 1),
    ]
    a_entries, b_entries = windows[leader.pk].entries, windows[follower.pk].entries
    numbers = [(e["pairs"], e["choices"], e["plan_hits"], e["critical"], e["kept"]) for e in a_entries]
    assert numbers == [(18, 14, 2, 0, 0), (16, 12, 4, 1, 0), (16, 10, 2, 1, 0), (18, 14, 4, 0, 0)]
    unforced = dict(FairPlayBoard.objects.values_list("game_id", "free_pairs"))
    a_pairs = [unforced[uuid.UUID(e["game_id"])] for e in a_entries]
    assert a_pairs == [unforced[uuid.UUID(e["game_id"])] for e in b_entries] and len(a_pairs[0]) == 14

    flags = {(f.account_id, f.kind): f for f in FairPlayFlag.objects.all()}
    assert set(flags) == {(assisted.pk, "solver_assist"), (leader.pk, "collusion"), (follower.pk, "collusion")}
    solver = flags[(assisted.pk, "solver_assist")]
    assert solver.status == "open" and solver.subject == "solver_assist-3"  # at the third result
    assert solver.details["why"] == ["plan"]
    scores = solver.details["scores"]
    assert (scores["choices"], scores["plan_hits"], scores["plan_expected"], scores["plan_z"]) == (
        39,
        39,
        0.2715,
        10.24,
    )
    assert [r["round_id"] for r in solver.details["rounds"]] == [e["round_id"] for e in s_entries[:3]]
    pair = flags[(leader.pk, "collusion")]
    assert (
        pair.details["partner_id"] == follower.pk
        and flags[(follower.pk, "collusion")].details["partner_id"] == leader.pk
    )
    assert pair.subject == f"collusion of {leader.pk}-{follower.pk}"  # at the third shared deal
    assert pair.details["scores"] == {
        "shared_deals": 3,
        "near_identical": 3,
        "mean_similarity": 1.0,
        "similarity_at_least": 0.8,
    }
    assert [s["round_id"] for s in pair.details["shared"]] == [e["round_id"] for e in a_entries[:3]]
    assert [s["other_round_id"] for s in pair.details["shared"]] == [e["round_id"] for e in b_entries[:3]]
    # no other pair of accounts came near: the honest player against each of the others
    assert all(
        max(x[3] for x in p.shared) < 0.8
        for p in FairPlayPair.objects.exclude(key=pair.subject.removeprefix("collusion of "))
    )
    # a flag never suspends
    assert not Account.objects.filter(suspended_at__isnull=False).exists()


@pytest.mark.django_db
def test_R_42_the_signals_projection_rebuilds_from_the_log_and_the_sweep_scores_what_is_due():
    _, results = _world()
    assert signals_sweep.run(now=at(10_000).isoformat()) == 8
    assert signals_sweep.run(now=at(10_000).isoformat()) == 0 and results_due(now=at(10_000)) == []

    def state():
        return (
            sorted((w.account_id, w.scored, w.entries, w.history, w.flagged) for w in FairPlayWindow.objects.all()),
            sorted(
                FairPlayBaseline.objects.values_list("key", "choices", "plan_hits", "critical", "kept", "pace_boards")
            ),
            sorted(FairPlayBoard.objects.values_list("game_id", "code", "free_pairs")),
            sorted(FairPlayPair.objects.values_list("key", "shared")),
        )

    live = state()
    signals_projection.reset()
    for event in Event.objects.filter(type__in=signals_projection.event_types).order_by("position"):
        signals_projection.apply(event)
    assert state() == live
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM rivals_stream WHERE type = 'fairplay'")
        assert cur.fetchone()[0] == len(results)


@pytest.mark.django_db
def test_R_42_fairplay_signals_verify_recomputes_every_scored_board_from_the_log():
    from io import StringIO

    from django.core.management import call_command

    _, results = _world()
    out = StringIO()
    call_command("fairplay_signals", stdout=out)
    assert out.getvalue().strip() == "scored 8 results"  # the real clock's now: all due
    out = StringIO()
    call_command("fairplay_signals", "--verify", stdout=out)
    assert out.getvalue().strip() == "16 scored boards match the log"
    # a board's numbers that the log does not give are named (edited in memory: the log refuses updates)
    event = Event.objects.filter(type="FairPlaySignalsScored").order_by("position").first()
    event.data["boards"][1]["plan_hits"] += 1
    checked, wrong = signals_verify([event])
    assert checked == 2 and wrong == [
        f"{event.data['result']} board {event.data['boards'][1]['game_id']}: plan_hits differs"
    ]


@pytest.mark.django_db(transaction=True)
def test_R_42_rebuild_projections_verifies_the_signals_tables_against_the_log():
    from io import StringIO

    from django.core.management import CommandError, call_command

    _world()
    assert signals_sweep.run(now=at(10_000).isoformat()) == 8

    def verify() -> str:
        out = StringIO()
        call_command("rebuild_projections", "--verify", "--no-progress", stdout=out)
        return out.getvalue()

    assert "every projection equals the log" in verify()
    FairPlayWindow.objects.filter(scored=4).update(scored=5)  # wrecked rows
    with pytest.raises(CommandError, match=r"1 projection tables differ from the log: fairplay_window \("):
        verify()
    call_command("rebuild_projections", "--no-progress", stdout=StringIO())
    assert "every projection equals the log" in verify()


def test_R_42_the_analysis_keeps_the_removable_pairs_of_each_position_as_the_engine_lists_them():
    """T-6a's pairs, kept removal by removal (``analysis._Removable``), equal the engine's own
    listing at every position of random play on every layout."""
    from tests.fairplay.removable import walk_removable

    positions, _ = walk_removable(9, 20)
    assert positions > 500


@pytest.mark.django_db
def test_R_42_the_admin_lists_the_signal_windows_and_the_pairs_that_shared_deals(operator):
    (honest, assisted, leader, follower), results = _world()
    for result in results:
        fairplay_result_score(result=result, now=at(5000))
    windows = operator.get("/admin/fairplay/fairplaywindow/").content.decode()
    # the assisted player's four boards (47 choices), the honest one's (60)
    assert "plan pair 100 % of 47 choices (same rating: 28 %, z 11.01)" in windows
    assert "plan pair 10 % of 60 choices (same rating: 31 %, z -3.57)" in windows
    window = operator.get(f"/admin/fairplay/fairplaywindow/{assisted.pk}/change/").content.decode()
    assert "kept solvable 100 % of 2 critical" in window
    pair = FairPlayPair.objects.get(key=f"{leader.pk}-{follower.pk}")
    page = operator.get(f"/admin/fairplay/fairplaypair/{pair.pk}/change/").content.decode()
    assert f"/admin/rivals/account/{leader.pk}/change/" in page and ">4<" in page  # four shared deals
