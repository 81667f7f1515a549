"""Matches, rounds, queue tickets and duels — projections of their event streams (rebuilt by
``manage.py rebuild_projections``). The players' boards are ``rivals.Game`` rows with ``round_id``."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

MODES = (("quick", "Quick Match"), ("duel", "Duel"), ("arena", "Arena"), ("tournament", "Tournament table"))

# a round lasts at most 5 minutes, and ends after 20 seconds without a removed pair
ROUND_DURATION = timedelta(minutes=5)
ROUND_IDLE = timedelta(seconds=20)

# A round's board's last pair in SQL (a board of a round never pauses: its last pair's instant is
# its start + ``last_pair_ms``) — the same instant as ``board_last_pair_at``; ``g`` names the board
LAST_PAIR_SQL = "g.started_at + g.last_pair_ms * interval '1 millisecond'"

# R-17's deadline in SQL, from the boards' own last pairs — the same instant as ``Round.deadline``
DEADLINE_SQL = (
    "LEAST(matches_round.hard_ends_at, COALESCE(matches_round.cutoff_at, matches_round.hard_ends_at), "
    f"COALESCE((SELECT max({LAST_PAIR_SQL}) FROM rivals_game g "
    f"WHERE g.round_id = matches_round.id), matches_round.starts_at) + interval '{ROUND_IDLE.seconds} seconds')"
)


def board_last_pair_at(game) -> datetime | None:
    """The instant a round's board last removed a pair (by hand or with a joker), or None."""
    if game.last_pair_ms is None:
        return None
    return game.started_at + timedelta(milliseconds=game.last_pair_ms)


class RoundQuerySet(models.QuerySet):
    def with_deadline(self):
        """Each round's current deadline (R-17) as ``deadline_at``, derived from its boards."""
        from django.db.models.expressions import RawSQL

        return self.annotate(deadline_at=RawSQL(DEADLINE_SQL, [], output_field=models.DateTimeField()))

    def due(self, now: datetime):
        """The running rounds whose deadline (R-17) has passed at ``now``: the stored ``ends_at`` (a
        lower bound of the deadline, indexed) first, then the deadline from the boards."""
        return self.with_deadline().filter(status="running", ends_at__lte=now, deadline_at__lte=now)


class Match(models.Model):
    STATUSES = (("running", "running"), ("finished", "finished"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    mode = models.CharField(max_length=12, choices=MODES)
    status = models.CharField(max_length=10, choices=STATUSES, default="running")
    rounds_total = models.PositiveSmallIntegerField(default=1)
    context = models.JSONField(default=dict, blank=True, help_text="opaque to rivals (e.g. the tournament table)")
    code = models.CharField(max_length=20, blank=True, default="", help_text="a fixed deal for every round, if set")
    salt = models.CharField(max_length=32, blank=True, default="", help_text="R-40: the fixed deal's salt")
    standings = models.JSONField(default=list, blank=True)
    prizes = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="stream version")
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "matches_match"
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["mode", "status"], name="match_mode_status"),
            # is a fixed deal still played (a practice game asking for it is refused)
            models.Index(
                fields=["code"], name="match_running_code", condition=models.Q(status="running") & ~models.Q(code="")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} {self.id} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"match-{self.id}"


class MatchPlayer(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="match_seats")
    seat = models.PositiveSmallIntegerField()
    total_score = models.IntegerField(default=0, help_text="sum of the round scores (R-20)")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.IntegerField(null=True, blank=True)

    class Meta:
        db_table = "matches_player"
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_player_seat"),
            models.UniqueConstraint(fields=["match", "account"], name="match_player_account"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.account}"


class Round(models.Model):
    STATUSES = (("running", "running"), ("ended", "ended"))
    REASONS = (
        ("completed", "a player completed the board"),
        ("time_limit", "5 minutes"),
        ("idle", "20 seconds without a pair"),
        ("cutoff", "the tournament's end time"),
        ("all_stuck", "every player stuck"),
        ("operator", "ended by an operator"),
    )

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    index = models.PositiveSmallIntegerField(default=1)
    mode = models.CharField(max_length=12, choices=MODES)
    status = models.CharField(max_length=10, choices=STATUSES, default="running")
    players = models.JSONField(default=list, help_text="account ids in seat order")
    code = models.CharField(max_length=20, help_text="the deal every player plays (own copy)")
    salt = models.CharField(max_length=32, blank=True, default="", help_text="R-40: the commitment's salt")
    layout = models.CharField(max_length=3)
    starts_at = models.DateTimeField()
    hard_ends_at = models.DateTimeField(help_text="start + 5 minutes (R-17)")
    cutoff_at = models.DateTimeField(null=True, blank=True, help_text="the tournament's end time (R-17)")
    ends_at = models.DateTimeField(
        help_text="the clock's first possible end (R-17: start + 20 s, 5 minutes, the cutoff); the pairs move "
        "the deadline on the boards, never on this row (Round.clock_from)"
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=12, choices=REASONS, blank=True, default="")
    result = models.JSONField(null=True, blank=True, help_text="the RoundEnded data (R-18)")
    version = models.PositiveIntegerField(default=0, help_text="stream version")

    objects = RoundQuerySet.as_manager()

    # Not stored (issue 35): the last pair any player removed, from the boards (``clock_from``).
    # A pair writes its own board only — the players of a round share no row on a pair — so the
    # stored ``ends_at`` is the deadline before any pair, a lower bound of the current one.
    last_pair_at: datetime | None = None

    class Meta:
        db_table = "matches_round"
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="round_match_index")]
        indexes = [
            # the sweeper's query (running rounds whose deadline has passed) reads the running rounds
            # and filters their deadline (derived from the boards: ``RoundQuerySet.with_deadline``)
            models.Index(fields=["starts_at"], name="round_running", condition=models.Q(status="running")),
            # is a deal still played (neither column changes on a pair: its UPDATE stays HOT)
            models.Index(fields=["code"], name="round_running_code", condition=models.Q(status="running")),
        ]

    def __str__(self) -> str:
        return f"round {self.index} of {self.match_id} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"round-{self.id}"

    def deadline(self) -> tuple[datetime, str]:
        """R-17: the earliest of start + 5 min, last pair (or start) + 20 s, the cutoff — and why."""
        candidates = [(self.hard_ends_at, "time_limit"), ((self.last_pair_at or self.starts_at) + ROUND_IDLE, "idle")]
        if self.cutoff_at is not None:
            candidates.insert(0, (self.cutoff_at, "cutoff"))
        return min(candidates, key=lambda c: c[0])  # on equal instants the first listed names it

    def clock_from(self, boards, *, also: datetime | None = None) -> Round:
        """The round's clock from its boards (R-17): ``last_pair_at`` (the latest pair of any
        player; ``also``: the latest of boards not given, read as an instant) and, while it runs,
        ``ends_at`` — the current deadline — in memory, never saved."""
        pairs = [t for t in (*map(board_last_pair_at, boards), also) if t is not None]
        self.last_pair_at = max(pairs) if pairs else None
        if self.status == "running":
            self.ends_at = self.deadline()[0]
        return self

    def shown_status(self, now: datetime | None = None) -> str:
        """``scheduled`` before the start (an arena's next round during its break), then the row's."""
        if self.status == "running" and (now or timezone.now()) < self.starts_at:
            return "scheduled"
        return self.status


class _Expiring(models.Model):
    """An open request with a deadline (a queue ticket, a duel challenge): the time-window fields
    its projection keeps, and its stream's version."""

    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


class QueueTicket(_Expiring):
    STATUSES = (("waiting", "waiting"), ("matched", "matched"), ("left", "left"), ("expired", "expired"))
    QUEUE_MODES = (("quick", "Quick Match"), ("arena", "Arena"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="queue_tickets")
    mode = models.CharField(max_length=8, choices=QUEUE_MODES)
    status = models.CharField(max_length=8, choices=STATUSES, default="waiting")
    match = models.ForeignKey(Match, on_delete=models.PROTECT, null=True, blank=True, related_name="tickets")

    # not a column: the round its match plays now, when the code that matched it knows it (the
    # join whose pairing pass made the match) — the answer needs not read it again
    current_round_id: uuid.UUID | None = None

    class Meta:
        db_table = "matches_queue_ticket"
        ordering = ["-created_at"]
        constraints = [
            # one waiting ticket per account (the service also serialises joins per account)
            models.UniqueConstraint(
                fields=["account"], condition=models.Q(status="waiting"), name="queue_one_waiting_ticket"
            ),
        ]
        indexes = [
            models.Index(
                fields=["mode", "created_at"], name="queue_waiting_fifo", condition=models.Q(status="waiting")
            ),
            # a join reads the account's latest tickets (its live one): newest first through this index,
            # stopping at the few it needs — not every ticket the account ever had (they stay matched)
            models.Index(fields=["account", "created_at"], name="queue_account_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.mode} ticket of {self.account_id} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"queue-{self.id}"


class Duel(_Expiring):
    STATUSES = (
        ("pending", "pending"),
        ("accepted", "accepted"),
        ("declined", "declined"),
        ("cancelled", "cancelled"),
        ("expired", "expired"),
    )

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="duels_sent")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="duels_received")
    status = models.CharField(max_length=10, choices=STATUSES, default="pending")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, null=True, blank=True, related_name="duel")

    class Meta:
        db_table = "matches_duel"
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["challenger", "created_at"], name="duel_challenger"),
            models.Index(fields=["opponent", "created_at"], name="duel_opponent"),
            models.Index(fields=["expires_at"], name="duel_pending_expiry", condition=models.Q(status="pending")),
        ]

    def __str__(self) -> str:
        return f"duel {self.challenger_id} → {self.opponent_id} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"duel-{self.id}"
