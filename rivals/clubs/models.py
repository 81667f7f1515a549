"""Clubs (R-37): projections of the ``club-<id>`` streams (rebuilt by ``rebuild_projections``).

A player is in at most one club (``ClubMember.account`` is unique); names are unique among open
clubs by their skeleton (``name_key``: ``rivals.names.name_skeleton``); an empty club is closed, and a
closed club frees its name.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class Club(models.Model):
    STATUSES = (("open", "open"), ("closed", "closed"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=40)
    name_key = models.CharField(max_length=160, help_text="the name's skeleton: unique among open clubs")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=STATUSES, default="open")
    members_count = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0, help_text="stream version")
    created_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "clubs_club"
        ordering = ["name_key"]
        constraints = [
            models.UniqueConstraint(fields=["name_key"], condition=Q(status="open"), name="club_open_name_unique")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def stream_id(self) -> str:
        return f"club-{self.id}"


class ClubMember(models.Model):
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, primary_key=True, related_name="club_membership"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    joined_at = models.DateTimeField()

    class Meta:
        db_table = "clubs_member"
        ordering = ["joined_at", "account_id"]
        indexes = [models.Index(fields=["club", "joined_at"], name="club_member_joined")]

    def __str__(self) -> str:
        return f"member #{self.account_id}"  # the admin's inline names the player beside it
