"""Who hears of a club's rename by an operator (API.md "Notifications": ``club_renamed``, R-39;
registered in ``rivals.notices`` from the app's ``ready()``): its owner."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rivals.clubs import events as ev
from rivals.clubs.events import CLUB_RENAMED
from rivals.notices import Facts, Notices
from rivals.player_notice import OperatorNoticeData, notice_data


class ClubRenamedData(OperatorNoticeData):
    club_id = serializers.UUIDField()
    name = serializers.CharField(help_text="the name an operator gave the club (R-39)")


SHAPES = {"club_renamed": ClubRenamedData}


def _club_renamed(event: Any, d: ev.ClubRenamedData, facts: Facts) -> Notices:
    if not d.get("owner_id"):  # its owner chose the name (version 2 names the owner)
        return []
    data = {"club_id": d["club_id"], "name": d["name"], **notice_data(d, default_code="abusive_name")}
    return [(d["owner_id"], "club_renamed", data)]


TOLD = {CLUB_RENAMED: _club_renamed}
