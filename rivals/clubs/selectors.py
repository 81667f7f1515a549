"""Club reads (R-37): the list (search by name) and a club's page with members and summed points."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from rivals.accounts.selectors import ZERO_POINTS, points_totals
from rivals.clubs.models import Club, ClubMember
from rivals.clubs.services import club_name_key

MEMBERS_SHOWN = 500


def clubs_search(*, q: str = "", include_closed: bool = False) -> QuerySet[Club]:
    qs = Club.objects.select_related("owner")
    if not include_closed:
        qs = qs.filter(status="open")
    if q:
        qs = qs.filter(name_key__contains=club_name_key(q.strip()))
    return qs.order_by("name_key", "id")


def club_of(account) -> dict[str, Any] | None:
    """The player's club (``{"id", "name"}``) or None: its part of the own and public profiles."""
    member = ClubMember.objects.filter(account=account).select_related("club").first()
    return {"id": str(member.club_id), "name": member.club.name} if member else None


def club_profile_extension(account) -> dict[str, Any]:
    return {"club": club_of(account)}


def _owner(club: Club) -> dict[str, Any] | None:
    return {"id": club.owner_id, "display_name": club.owner.display_name} if club.owner_id else None


def club_summary(club: Club) -> dict[str, Any]:
    return {
        "id": str(club.pk),
        "name": club.name,
        "status": club.status,
        "members_count": club.members_count,
        "owner": _owner(club),
        "created_at": club.created_at,
    }


def club_view(*, club: Club) -> dict[str, Any]:
    """Members (longest-standing first) with their points, and the club's sums. Decision: a
    suspended member stays a member but adds nothing to the sums, as it is absent from the
    rankings (R-38)."""
    members = list(ClubMember.objects.filter(club=club).select_related("account").order_by("joined_at", "account_id"))
    totals = points_totals(m.account_id for m in members)
    summed = dict(ZERO_POINTS)
    for m in members:
        if m.account.listed:
            for board, points in totals[m.account_id].items():
                summed[board] += points
    return {
        **club_summary(club),
        "closed_at": club.closed_at,
        "points": summed,
        "members": [
            {
                "player": {"id": m.account_id, "display_name": m.account.display_name},
                "joined_at": m.joined_at,
                "owner": m.account_id == club.owner_id,
                "points": totals[m.account_id],
            }
            for m in members[:MEMBERS_SHOWN]
        ],
    }
