"""Single player levels: R-1…R-7 with the exact numbers of RULES.md and EXAMPLES.md."""

from __future__ import annotations

import pytest

from rivals.games import services as svc
from rivals.games.models import LevelBest
from rivals.points.models import PointsLedgerEntry
from tests.games.helpers import account, at, new_game, play_to_win


def points(acc) -> list[int]:
    return list(
        PointsLedgerEntry.objects.filter(account=acc).order_by("event_position").values_list("amount", flat=True)
    )


def complete(acc, seconds: float, created_s: float = 0):
    """One completion of level 1 in exactly ``seconds`` of server play time; returns new awards."""
    before = PointsLedgerEntry.objects.filter(account=acc).count()
    game = new_game(acc, "single", created_s=created_s, level=1)
    play_to_win(game, acc, created_s, created_s + seconds)
    game.refresh_from_db()
    assert game.completion_ms == round(seconds * 1000)
    return [e.amount for e in PointsLedgerEntry.objects.filter(account=acc).order_by("event_position")[before:]]


@pytest.mark.django_db
def test_r1_r2_level_is_a_fixed_code_the_same_for_every_account():
    a, b = account("a"), account("b")
    g1, g2 = new_game(a, level=1), new_game(b, level=1)
    assert g1.code == g2.code == svc.level_get(number=1).code
    assert g1.faces == g2.faces
    assert svc.level_get(number=10).hard and not svc.level_get(number=11).hard


@pytest.mark.django_db
def test_r1_level_get_serves_the_shipped_table(api):
    """R-1: what the service hands out is the engine's shipped table, row for row, whether the
    level was stored before (batch job) or is stored on first use."""
    from rivals.engine import levels
    from rivals.games.levels import levels_generate

    levels_generate(start=1, end=3)
    for n in (1, 2, 3, 4, 10, 777, 4501, 11000):
        row = levels.table()[n - 1]
        got = svc.level_get(number=n)
        assert (got.number, got.code, got.layout, got.hard, got.difficulty) == (
            row.level,
            row.code,
            row.layout,
            row.hard,
            row.difficulty,
        )
        body = api.get(f"/api/v1/levels/{n}").json()
        assert (body["level"], body["code"], body["hard"]) == (n, row.code, row.hard)


@pytest.mark.django_db
def test_r1_next_level_opens_when_the_previous_is_won():
    from rivals.errors import NotAllowed

    a = account("a")
    with pytest.raises(NotAllowed, match="locked"):
        new_game(a, level=2)
    complete(a, 100)
    assert new_game(a, level=2).level == 2


@pytest.mark.django_db
def test_r3_r5_worked_example_of_time_bonuses_on_one_level():
    """EXAMPLES.md "R-5 Time bonuses on one level", steps 1–9 with the exact points."""
    A, B, C, D, E = (account(n) for n in "ABCDE")
    assert complete(A, 95.0) == [10, 10]  # 1: A 1st → 20; no further time bonus for A
    assert complete(B, 120.0) == [10, 5]  # 2: B 2nd → 15
    assert complete(B, 90.0) == [10]  # 3: B 1st → first-place bonus, not earned before
    assert complete(B, 80.0) == []  # 4: both bonuses used
    assert complete(C, 95.0) == [10, 5]  # 5: C shares 2nd with A → 15
    assert complete(D, 80.0) == [10, 10]  # 6: D shares 1st with B → 20
    # 7: E completes when ten accounts are faster → 11th: only the first completion
    for i in range(6):
        complete(account(f"fast{i}"), 70.0 + i)  # with B, D, A, C: ten accounts faster than 150 s
    assert complete(E, 150.0) == [10]
    assert complete(E, 75.5) == [5]  # 8: E takes 3rd (behind 70.0 and 71.0)
    assert complete(E, 70.0) == [10]  # 9: E takes a shared 1st (with fast0 at 70.0)
    assert sum(points(A)) == 20 and sum(points(B)) == 25 and sum(points(E)) == 25
    board = svc.level_get(number=1)
    assert LevelBest.objects.get(level=board.number, account=B).best_ms == 80_000


@pytest.mark.django_db
def test_r5_a_game_earns_at_most_one_time_bonus_and_the_10_ends_time_bonuses():
    A = account("A")
    assert complete(A, 50.0) == [10, 10]  # first place: 10 + 10
    assert complete(A, 40.0) == []  # after the 10 nothing more, not even the 5
    keys = set(PointsLedgerEntry.objects.filter(account=A).values_list("award_key", flat=True))
    assert keys == {f"single_player:first_completion:{A.pk}:1", f"single_player:first_place:{A.pk}:1"}


@pytest.mark.django_db
def test_r4_leaderboard_equal_times_share_a_place(api):
    A, B, C = account("A"), account("B"), account("C")
    complete(A, 90.0)
    complete(B, 90.0)
    complete(C, 95.0)
    res = api.get("/api/v1/levels/1/leaderboard")
    assert res.status_code == 200
    assert [(r["place"], r["time_ms"]) for r in res.json()] == [(1, 90000), (1, 90000), (3, 95000)]


@pytest.mark.django_db
def test_r4_the_leaderboard_keeps_each_accounts_best_time_and_counts_its_completions():
    """R-4: one row per account and level — the best time, the instant it was achieved, the
    completions — the same live (one upsert per win) as rebuilt from the log."""
    from django.core.management import call_command

    A = account("A")
    complete(A, 100.0)
    complete(A, 60.0, created_s=200)  # the best: won at 260 s
    complete(A, 80.0, created_s=300)  # slower: the best stays
    row = LevelBest.objects.values_list("best_ms", "achieved_at", "completions").get(level=1, account=A)
    assert row == (60_000, at(260), 3)
    call_command("rebuild_projections")
    assert LevelBest.objects.values_list("best_ms", "achieved_at", "completions").get(level=1, account=A) == row


@pytest.mark.django_db
def test_r7_single_player_points_count_for_rankings():
    A = account("A")
    complete(A, 30.0)
    assert all(e.counts and e.source == "single_player" for e in PointsLedgerEntry.objects.filter(account=A))


@pytest.mark.django_db
def test_r6_a_won_level_can_be_replayed_for_a_better_time_without_new_completion_points():
    A = account("A")
    assert complete(A, 100.0) == [10, 10]
    assert complete(A, 60.0) == []  # R-3 once; R-5 exhausted
    assert LevelBest.objects.get(level=1, account=A).best_ms == 60_000
    assert LevelBest.objects.get(level=1, account=A).completions == 2
