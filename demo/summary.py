"""What the world holds after a run, counted in the database, and where a newcomer looks."""

from __future__ import annotations

import statistics

from django.db.models import Count, Sum

from rankings.models import AmrPoints, DailyPoints, WeeklyPoints
from rivals.clubs.models import Club, ClubMember
from rivals.daily_bonus.models import DailyBonusClaim
from rivals.fairplay.models import FairPlayFlag
from rivals.fairplay.scoring import SIGNAL_KINDS
from rivals.games.models import Game
from rivals.matches.models import Match, MatchPlayer
from rivals.models import Account, Event
from rivals.points.models import PointsLedgerEntry
from tournaments.models import Tournament, Trophy

WHERE = (
    ("admin (create an operator with manage.py createsuperuser)", "/admin/"),
    ("accounts, fair-play flags", "/admin/rivals/account/  /admin/fairplay/fairplayflag/"),
    ("matches, tournaments", "/admin/matches/match/  /admin/tournaments/tournament/"),
    ("rankings", "/api/v1/rankings/amr  /api/v1/rankings/weekly  /api/v1/rankings/daily"),
    ("ratings (R-41) and their history", "/api/v1/ratings  /admin/ratings/rating/  /admin/ratings/ratingchange/"),
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


def ratings_against_skill(skills: dict[int, float]) -> dict[str, object]:
    """R-41 and R-42 judged against the bots' hidden true skill (``skills``: account → skill):
    Kendall τ of the rated bots' μ and ordinal against their skill (bots with 5 rated results or
    more), and per queue mode the median spread of true skill in the queue's matches against that
    of the same players grouped at random."""
    import random

    from rivals.ratings import skill
    from rivals.ratings.models import Rating

    rows = Rating.objects.filter(account_id__in=skills).values_list(
        "account_id", "mu", "ordinal", "one_to_one", "multi"
    )
    rated = [(a, mu, ordinal) for a, mu, ordinal, one, multi in rows if one + multi >= 5]
    out: dict[str, object] = {"rated bots (5 results or more)": len(rated)}
    if len(rated) > 1:
        truth = [skills[a] for a, _, _ in rated]
        out["Kendall τ (μ, skill)"] = round(skill.kendall_tau([mu for _, mu, _ in rated], truth), 3)
        out["Kendall τ (ordinal, skill)"] = round(skill.kendall_tau([o for _, _, o in rated], truth), 3)
    rng = random.Random(0)
    for mode, size in (("quick", 2), ("arena", 4)):
        by_match: dict = {}
        seats = MatchPlayer.objects.filter(match__mode=mode, match__status="finished")
        for match, account in seats.values_list("match_id", "account_id"):
            by_match.setdefault(match, []).append(skills.get(account))
        groups = [g for g in by_match.values() if None not in g]
        if not groups:
            continue
        everyone = [x for g in groups for x in g]
        shuffled = [rng.sample(everyone, size) for _ in range(1000)]
        spread = statistics.median(max(g) - min(g) for g in groups)
        at_random = statistics.median(max(g) - min(g) for g in shuffled)
        out[f"{mode}: median skill spread (at random)"] = f"{spread:.3f} ({at_random:.3f})"
    return out


def flags_against_kind(kinds: dict[int, str]) -> dict[str, str]:
    """R-42's flags judged against the bots' hidden kind (``kinds``: account → honest, assisted,
    colluding, bot speed): per kind, how many were flagged by the signals (any of their kinds)."""
    flagged: dict[int, set] = {}
    rows = FairPlayFlag.objects.filter(account_id__in=kinds, kind__in=SIGNAL_KINDS)
    for account, kind in rows.values_list("account_id", "kind"):
        flagged.setdefault(account, set()).add(kind)
    out = {}
    for kind in ("honest", "assisted", "colluding", "bot speed"):
        group = [a for a, k in kinds.items() if k == kind]
        if group:
            hit = [a for a in group if a in flagged]
            by = sorted({k for a in hit for k in flagged[a]})
            out[kind] = f"{len(hit)} of {len(group)} flagged" + (f" ({', '.join(by)})" if by else "")
    return out


def summary_lines(counts: dict[str, object]) -> list[str]:
    lines = [f"  {name}: {value}" for name, value in counts.items()]
    lines.append("Where to look (manage.py runserver, or make run):")
    lines += [f"  {what}: {paths}" for what, paths in WHERE]
    return lines
