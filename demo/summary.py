"""What the world holds after a run, counted in the database, and where a newcomer looks."""

from __future__ import annotations

from django.db.models import Count, Sum

from rankings.models import AmrPoints, DailyPoints, WeeklyPoints
from rivals.clubs.models import Club, ClubMember
from rivals.fairplay.models import FairPlayFlag
from rivals.matches.models import Match
from rivals.models import Account, DailyBonusClaim, Event, Game, PointsLedgerEntry
from tournaments.models import Tournament, Trophy

WHERE = (
    ("admin (create an operator with manage.py createsuperuser)", "/admin/"),
    ("accounts, fair-play flags", "/admin/rivals/account/  /admin/fairplay/fairplayflag/"),
    ("matches, tournaments", "/admin/matches/match/  /admin/tournaments/tournament/"),
    ("rankings", "/api/v1/rankings/amr  /api/v1/rankings/weekly  /api/v1/rankings/daily"),
    ("tournament pages", "/api/v1/tournaments?status=finished  /api/v1/tournaments/{id}"),
    ("player profiles, clubs", "/api/v1/players/{id}  /api/v1/clubs"),
    ("level leaderboards", "/api/v1/levels/1/leaderboard"),
)


def world_counts(*, device_digests: list[str], events_before: int) -> dict[str, object]:
    """The counts the command prints (and the tests read)."""
    accounts = Account.objects.filter(device_id__in=device_digests)
    solo = Game.objects.filter(account__in=accounts, round_id__isnull=True)
    matches = dict(Match.objects.filter(status="finished").values_list("mode").annotate(n=Count("pk")))
    tournaments = {
        f"{kind} {status}": n
        for kind, status, n in Tournament.objects.values_list("kind", "status")
        .annotate(n=Count("pk"))
        .order_by("kind", "status")
    }
    points = dict(PointsLedgerEntry.objects.values_list("source").annotate(s=Sum("amount")).order_by("source"))
    return {
        "accounts": accounts.count(),
        "clubs": Club.objects.filter(status="open").count(),
        "club members": ClubMember.objects.count(),
        "solo games": solo.count(),
        "solo games won": solo.filter(status="won").count(),
        "matches finished": matches,
        "tournaments": tournaments,
        "trophies": Trophy.objects.count(),
        "fair-play flags": FairPlayFlag.objects.filter(account__in=accounts).count(),
        "flagged accounts": FairPlayFlag.objects.filter(account__in=accounts).values("account").distinct().count(),
        "daily bonus claims": DailyBonusClaim.objects.filter(account__in=accounts).count(),
        "points by source": points,
        "ranking rows (amr / weekly / daily)": (
            AmrPoints.objects.count(),
            WeeklyPoints.objects.count(),
            DailyPoints.objects.count(),
        ),
        "events written": Event.objects.count() - events_before,
    }


def summary_lines(counts: dict[str, object]) -> list[str]:
    lines = [f"  {name}: {value}" for name, value in counts.items()]
    lines.append("Where to look (manage.py runserver, or make run):")
    lines += [f"  {what}: {paths}" for what, paths in WHERE]
    return lines
