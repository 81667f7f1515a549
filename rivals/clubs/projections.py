"""The clubs projection: ``Club`` and ``ClubMember`` rows from the club streams' events."""

from __future__ import annotations

from rivals.clubs.events import CLUB_CLOSED, CLUB_FOUNDED, CLUB_JOINED, CLUB_LEFT, CLUB_OWNER_CHANGED, CLUB_RENAMED
from rivals.models import Event
from rivals.projections import Projection
from rivals.rebuild import Table


def club_key(club_id, name: str) -> str:
    """``name_key`` of a founded club: the name's skeleton (``rivals.names``), computed from the name
    (not the event's ``name_key``, which older events computed otherwise). Decision: a club founded
    before skeletons whose skeleton an open club already has keeps its name, with its id after
    ``#`` in the key (so both stay open; an operator may rename one)."""
    from rivals.clubs.models import Club
    from rivals.names import name_skeleton

    key = name_skeleton(name)
    if Club.objects.filter(name_key=key, status="open").exclude(pk=club_id).exists():
        key = f"{key}#{club_id}"
    return key


class ClubsProjection(Projection):
    name = "clubs"
    event_types = frozenset({CLUB_FOUNDED, CLUB_JOINED, CLUB_LEFT, CLUB_OWNER_CHANGED, CLUB_CLOSED, CLUB_RENAMED})

    tables = (Table("clubs_club"), Table("clubs_member"))

    def reset(self) -> None:
        from rivals.clubs.models import Club, ClubMember

        ClubMember.objects.all().delete()
        Club.objects.all().delete()

    def apply(self, event: Event) -> None:
        from django.db.models import F

        from rivals.clubs.models import Club, ClubMember

        d = event.data
        club = Club.objects.filter(pk=d["club_id"])
        if event.type == CLUB_FOUNDED:
            Club.objects.create(
                id=d["club_id"],
                name=d["name"],
                name_key=club_key(d["club_id"], d["name"]),
                owner_id=d["owner_id"],
                created_at=event.recorded_at,
                members_count=1,
                version=event.version,
            )
            ClubMember.objects.create(account_id=d["owner_id"], club_id=d["club_id"], joined_at=event.recorded_at)
            return
        if event.type == CLUB_JOINED:
            ClubMember.objects.create(account_id=d["account_id"], club_id=d["club_id"], joined_at=event.recorded_at)
            club.update(members_count=F("members_count") + 1)
        elif event.type == CLUB_LEFT:
            ClubMember.objects.filter(account_id=d["account_id"], club_id=d["club_id"]).delete()
            club.update(members_count=F("members_count") - 1)
        elif event.type == CLUB_OWNER_CHANGED:
            club.update(owner_id=d["owner_id"])
        elif event.type == CLUB_RENAMED:  # an operator's rename
            club.update(name=d["name"], name_key=club_key(d["club_id"], d["name"]))
        elif event.type == CLUB_CLOSED:
            club.update(status="closed", closed_at=event.recorded_at, owner_id=None)
        club.update(version=event.version)


clubs_projection = ClubsProjection()
