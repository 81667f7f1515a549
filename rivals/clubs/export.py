"""The clubs room's part of a player's export (``rivals.accounts.export``): the club the account is
in (R-37), if any."""

from __future__ import annotations

from rest_framework import serializers

from rivals.accounts.export import Subject
from rivals.clubs.models import ClubMember


class ExportedMembership(serializers.Serializer):
    club_id = serializers.UUIDField()
    name = serializers.CharField()
    joined_at = serializers.DateTimeField()
    owner = serializers.BooleanField(help_text="you own it")


def clubs(subject: Subject):
    member = ClubMember.objects.filter(account=subject.account).select_related("club").first()
    if member is not None:
        club = member.club
        yield {
            "club_id": club.pk,
            "name": club.name,
            "joined_at": member.joined_at,
            "owner": club.owner_id == member.account_id,
        }


def register() -> None:
    from rivals.accounts.export import register_export_part

    register_export_part(
        name="clubs",
        feature="clubs",
        rows=clubs,
        shape=ExportedMembership,
        order=50,
        description="the club you are in (R-37)",
    )
