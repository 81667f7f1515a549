"""Tournaments (R-21…R-29) and pot competitions (P-5): projections of their event streams.

A tournament is the stream ``tournament-<id>`` (``TournamentCreated``, ``PlayerRegistered``,
``WaveSeated``, ``TableScored``, ``TournamentFinalized`` …); a pot competition is ``pot-<id>``.
Every row here except ``RecurringSchedule`` (operator configuration) is rebuilt from those events
by ``manage.py rebuild_projections``. Ids of rivals' matches, rounds and games are plain UUIDs,
not foreign keys: rivals owns those rows (and rebuilds them itself), tournaments only point at them.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

from rivals.romanian_time import week_bounds_utc

KINDS = (("regular", "regular"), ("champions", "Champions Tournament"))
CHAMPIONS_MIN_PLAYERS = 16
MULTIPLIER_MIN, MULTIPLIER_MAX = 1, 6


class RecurringSchedule(models.Model):
    """Operator configuration: create a tournament every chosen weekday at a Romanian wall-clock time.

    The materialize job creates the instances ``days_ahead`` days in advance, one per
    (schedule, Romanian date) — a unique key, so a second run creates nothing — and none where a
    tournament of the same kind already starts at that instant (a re-created schedule). Its life
    is events on ``schedule-<id>`` (``tournaments.services.schedules``); it is never deleted.
    """

    title = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=KINDS, default="regular")
    local_time = models.TimeField(help_text="start, Romanian wall-clock time (Europe/Bucharest)")
    weekdays = models.CharField(
        max_length=7, default="0123456", help_text="days of the week it runs: 0 = Monday … 6 = Sunday"
    )
    duration_minutes = models.PositiveIntegerField(default=60)
    registration_hours_before = models.PositiveIntegerField(
        default=24, help_text="registration opens this long before the start"
    )
    min_players = models.PositiveIntegerField(default=2)
    prize_table = models.JSONField(default=list, help_text="points per final place, e.g. [100, 50, 25]")
    multipliers = models.JSONField(default=list, help_text="TP multiplier per wave, integers 1…6, e.g. [1, 2, 3]")
    days_ahead = models.PositiveSmallIntegerField(default=7)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True, help_text="retired for good (never deleted)")

    class Meta:
        ordering = ["local_time", "title"]

    def __str__(self) -> str:
        return f"{self.title} ({self.local_time:%H:%M} Europe/Bucharest)"

    @property
    def stream_id(self) -> str:
        return f"schedule-{self.pk}"

    @property
    def state(self) -> str:
        return "retired" if self.retired_at else "active" if self.active else "inactive"


class Tournament(models.Model):
    STATUSES = (("scheduled", "upcoming"), ("running", "running"), ("finished", "finished"), ("cancelled", "cancelled"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=10, choices=KINDS, default="regular")
    title = models.CharField(max_length=120)
    registration_opens_at = models.DateTimeField(blank=True, help_text="default: now")
    starts_at = models.DateTimeField(help_text="registration closes at the start")
    ends_at = models.DateTimeField()
    min_players = models.PositiveIntegerField()
    prize_table = models.JSONField(default=list, help_text="points per final place (R-21, R-26)")
    multipliers = models.JSONField(default=list, help_text="TP multiplier per seating wave (R-25)")
    seed = models.BigIntegerField(help_text="seeds the reproducible tie order of seating (R-23)")
    status = models.CharField(max_length=10, choices=STATUSES, default="scheduled")
    version = models.PositiveIntegerField(default=0, help_text="stream version")
    registered = models.PositiveIntegerField(default=0)
    current_wave = models.PositiveIntegerField(default=0)
    schedule = models.ForeignKey(
        RecurringSchedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    occurrence = models.DateField(null=True, blank=True, help_text="Romanian date of a scheduled instance")
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finalized_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=40, blank=True, default="")
    cancel_note = models.CharField(max_length=300, blank=True, default="", help_text="an operator's reason")

    class Meta:
        ordering = ["starts_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "occurrence"],
                name="tournament_schedule_occurrence",
                condition=Q(schedule__isnull=False),
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status_start")]

    def __str__(self) -> str:
        return f"{self.title} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"tournament-{self.id}"

    @property
    def minimum(self) -> int:
        """R-22 and R-29: a Champions Tournament needs at least 16 whatever its own minimum."""
        if self.kind == "champions":
            return max(self.min_players, CHAMPIONS_MIN_PLAYERS)
        return self.min_players

    def multiplier(self, wave: int) -> int:
        """R-25. Decision: wave n uses the n-th entry; waves past the schedule keep its last entry
        (an empty schedule is ×1 throughout)."""
        if not self.multipliers:
            return 1
        return int(self.multipliers[min(wave, len(self.multipliers)) - 1])

    @property
    def registration_opens(self) -> datetime:
        """When registration opens. R-28: a Champions Tournament's never opens before the Monday
        00:00 (Romanian time) of the week holding its start — an earlier window is moved to it
        (settings record it so since that rule; this covers tournaments created before it)."""
        if self.kind != "champions":
            return self.registration_opens_at
        return max(self.registration_opens_at, week_bounds_utc(self.starts_at)[0])


class Registration(models.Model):
    """One registered player: registration time (R-26 tie-break), total TP, final place and prize."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    registered_at = models.DateTimeField()
    tp = models.IntegerField(default=0, help_text="total table points (never ranking points)")
    tables_played = models.PositiveIntegerField(default=0)
    place = models.PositiveIntegerField(null=True, blank=True, help_text="final place (R-26)")
    prize = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "account"], name="registration_unique")]
        indexes = [models.Index(fields=["tournament", "-tp", "registered_at", "account"], name="registration_standing")]
        ordering = ["-tp", "registered_at", "account_id"]

    def __str__(self) -> str:
        return f"{self.account_id} in {self.tournament_id}"


class Wave(models.Model):
    """One seating (R-23): its tables play one round each; a single left-over player waits."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="waves")
    number = models.PositiveIntegerField()
    multiplier = models.PositiveSmallIntegerField()
    seated_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True, help_text="when its last table ended")
    tables_open = models.PositiveIntegerField(default=0)
    waiting = models.JSONField(default=list, blank=True, help_text="account ids that wait this wave out")
    # the deal every table plays, secret until the last table ends (empty before R-40)
    code = models.CharField(max_length=20, blank=True, default="")
    salt = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="wave_unique")]
        indexes = [models.Index(fields=["code"], name="wave_open_code", condition=models.Q(ended_at__isnull=True))]

    def __str__(self) -> str:
        return f"wave {self.number} (×{self.multiplier})"


class Table(models.Model):
    """One table of a wave: one round of 2–4 players (R-17), scored by R-24/R-25."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    wave = models.ForeignKey(Wave, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, default="playing", choices=(("playing", "playing"), ("ended", "ended")))
    match_id = models.UUIDField(null=True, blank=True)
    round_id = models.UUIDField(null=True, blank=True, unique=True)
    seated_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        ordering = ["wave", "number"]
        constraints = [models.UniqueConstraint(fields=["wave", "number"], name="table_unique")]
        indexes = [models.Index(fields=["tournament", "status"], name="table_tournament_status")]

    def __str__(self) -> str:
        return f"table {self.number} of wave {self.wave_id}"


class TableSeat(models.Model):
    """A player at a table and, once the round ended, their place, score and TP."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    completed = models.BooleanField(null=True, blank=True)
    tp = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "account"], name="table_seat_unique")]
        indexes = [models.Index(fields=["tournament", "account"], name="table_seat_player")]

    def __str__(self) -> str:
        return f"seat {self.seat} of table {self.table_id}: account {self.account_id}"


class Trophy(models.Model):
    """R-27 the winner's cup of a regular tournament; R-29 one counted Champions copy per win."""

    KINDS = (("cup", "cup"), ("champions", "Champions trophy"))

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="trophy")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=KINDS)
    title = models.CharField(max_length=120)
    awarded_at = models.DateTimeField()

    class Meta:
        ordering = ["-awarded_at"]
        indexes = [models.Index(fields=["account", "kind"], name="trophy_account_kind")]
        verbose_name_plural = "trophies"

    def __str__(self) -> str:
        return self.title


class Pot(models.Model):
    """P-5: an operator's pot competition on one Pool deal."""

    STATUSES = (("open", "open"), ("finished", "finished"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    title = models.CharField(max_length=120)
    code = models.CharField(max_length=20, help_text="the deal (game code MJ1-Lnn-XXXXXXX)")
    salt = models.CharField(max_length=32, blank=True, default="", help_text="R-40: the commitment's salt")
    time_limit_s = models.PositiveIntegerField(default=600, help_text="P-4: each entrant's game time")
    open_entry = models.BooleanField(default=True, help_text="anyone may enter; else only the entry list")
    prize_split = models.JSONField(default=list, help_text="points per place, e.g. [500, 300, 200]")
    counts = models.BooleanField(default=False, help_text="winnings count for rankings (P-5, R-33)")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=STATUSES, default="open")
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    finalized_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]
        indexes = [
            models.Index(fields=["status", "ends_at"], name="pot_status_end"),
            models.Index(fields=["code"], name="pot_open_code", condition=models.Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"pot-{self.id}"


class PotEntrant(models.Model):
    """A listed or entered player of a pot; ``game_id`` once they started their Pool game."""

    pot = models.ForeignKey(Pot, on_delete=models.CASCADE, related_name="entrants")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    game_id = models.UUIDField(null=True, blank=True)
    entered_at = models.DateTimeField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["pot", "place", "account_id"]
        constraints = [models.UniqueConstraint(fields=["pot", "account"], name="pot_entrant_unique")]

    def __str__(self) -> str:
        return f"account {self.account_id} in pot {self.pot_id}"
