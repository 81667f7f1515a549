"""``manage.py simulate``: a small demo world, played through the real services, fills everything a
newcomer opens — and stays a projection of its events (the rebuild reproduces it)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from rankings.models import AmrPoints, DailyPoints, WeeklyPoints
from rankings.selectors import rankings_state
from rivals.clubs.models import ClubMember
from rivals.daily_bonus.models import DailyBonusClaim
from rivals.fairplay.models import FairPlayFlag
from rivals.games.models import Game
from rivals.matches.models import Match
from rivals.models import Account
from rivals.points.models import PointsLedgerEntry
from tests.matches.test_admin_and_rebuild import _snapshot as matches_snapshot
from tests.tournaments.test_rebuild import snapshot as tournaments_snapshot
from tournaments.models import Tournament, Trophy

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(120)]


def _live():
    return {
        "accounts": sorted(Account.objects.values_list("id", "display_name", "jokers")),
        "games": sorted(Game.objects.values_list("id", "status", "score", "seq", "present", "completion_ms")),
        "claims": sorted(DailyBonusClaim.objects.values_list("account_id", "day", "streak", "doubled")),
        "flags": sorted(FairPlayFlag.objects.values_list("account_id", "kind", "subject")),
        "members": sorted(ClubMember.objects.values_list("account_id", "club_id")),
        "matches": matches_snapshot(),
        "tournaments": tournaments_snapshot(),
        "rankings": rankings_state(),
    }


def test_simulate_fills_the_world_through_the_services_and_the_rebuild_reproduces_it():
    out = io.StringIO()
    call_command("simulate", players=24, days=2, quiet=True, stdout=out)
    text = out.getvalue()
    assert "Simulated 24 players over 2 days" in text and "/api/v1/rankings/amr" in text

    demo = Account.objects.filter(username__startswith="guest-", is_staff=False)
    assert demo.count() == 24
    assert not demo.filter(display_name__startswith="Player ").exists()  # everyone got a name
    assert ClubMember.objects.exists()
    assert Game.objects.filter(round_id__isnull=True, mode="single", status="won").count() >= 10
    finished = set(Match.objects.filter(status="finished").values_list("mode", flat=True))
    assert {"quick", "arena", "tournament"} <= finished
    regular = Tournament.objects.filter(kind="regular", status="finished")
    assert regular.exists() and Trophy.objects.exists()
    assert PointsLedgerEntry.objects.filter(source="tournament_prize", amount__gt=0).exists()
    # 24 players cannot qualify 16 for Champions on the first day: it is cancelled
    assert Tournament.objects.filter(kind="champions", status="cancelled").exists()
    assert FairPlayFlag.objects.filter(kind="fast_pairs").exists()  # the bot-speed player
    assert DailyBonusClaim.objects.exists() and DailyBonusClaim.objects.filter(doubled=True).exists()
    assert AmrPoints.objects.exists() and WeeklyPoints.objects.exists() and DailyPoints.objects.exists()

    before = _live()
    call_command("rebuild_projections", stdout=io.StringIO())
    assert _live() == before


def test_simulate_refuses_a_world_too_small_for_its_tournaments():
    with pytest.raises(CommandError, match="at least 8"):
        call_command("simulate", players=4, days=1, quiet=True, stdout=io.StringIO())


@override_settings(PRODUCTION=True)
def test_simulate_refuses_to_run_in_production():
    with pytest.raises(CommandError, match="DJANGO_PRODUCTION"):
        call_command("simulate", players=24, days=1, quiet=True, stdout=io.StringIO())
    assert not Account.objects.exists()
