"""Solo games (single player levels, classic, pool practice), levels and their leaderboards.

``Game``, ``LevelBest`` are projections of game events (rebuilt from the log); ``Level`` is a
cache of the engine's deterministic level generator; ``RejectedIntent`` is the fair-play record
of refused intents (R-38) — they change no game, so they are not game events.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Level(models.Model):
    """R-1/R-2: level n → fixed game code. Precomputed by a batch job, else generated on demand."""

    number = models.PositiveIntegerField(primary_key=True)
    code = models.CharField(max_length=20)
    layout = models.CharField(max_length=3)
    hard = models.BooleanField()
    difficulty = models.FloatField()
    generated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "rivals_level"
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Level {self.number} ({self.code})"


class Game(models.Model):
    MODES = (
        ("single", "single player"),
        ("classic", "classic"),
        ("pool_practice", "pool practice"),
        # a player's board in a competitive round (rivals.matches): one Game per player and round
        ("quick", "quick match round"),
        ("duel", "duel round"),
        ("arena", "arena round"),
        ("tournament", "tournament round"),
    )
    STATUSES = (("playing", "playing"), ("paused", "paused"), ("won", "won"), ("stuck", "stuck"), ("ended", "ended"))

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games")
    mode = models.CharField(max_length=20, choices=MODES)
    ruleset = models.CharField(max_length=10)
    level = models.PositiveIntegerField(null=True, blank=True)
    code = models.CharField(max_length=20)
    # a competition's board keeps its deal's salt (the code is shown once the competition is over)
    salt = models.CharField(max_length=32, blank=True, default="")
    layout = models.CharField(max_length=3)
    status = models.CharField(max_length=10, choices=STATUSES, default="playing")
    version = models.PositiveIntegerField(default=0, help_text="stream version")
    seq = models.PositiveIntegerField(default=0, help_text="accepted intents")
    score = models.IntegerField(default=0)
    initial_faces = models.JSONField()
    faces = models.JSONField(help_text="face per position (after shuffles); removed tiles keep theirs")
    present = models.CharField(max_length=40, help_text="hex bitset of tiles on the board")
    removed = models.JSONField(default=list, help_text="undo stack: [a, b, points, kind]")
    # clock (server time; play time excludes pauses — T-12)
    started_at = models.DateTimeField()
    running_since = models.DateTimeField(null=True, blank=True)
    elapsed_before_ms = models.BigIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    completion_ms = models.BigIntegerField(null=True, blank=True)
    time_limit_ms = models.BigIntegerField(null=True, blank=True)
    # R-14 speed record state (play time in ms)
    last_pair_ms = models.BigIntegerField(null=True, blank=True)
    record_ms = models.BigIntegerField(null=True, blank=True)
    jokers_used = models.PositiveSmallIntegerField(default=0)
    hints_used = models.PositiveSmallIntegerField(default=0)
    undos_used = models.PositiveSmallIntegerField(default=0)
    shuffles_used = models.PositiveSmallIntegerField(default=0)
    # the competitive round this board belongs to (rivals.matches.Round), else None
    round_id = models.UUIDField(null=True, blank=True)
    # a cache, not a projection: the server's winning plan from the current position (T-9/T-10)
    plan = models.JSONField(null=True, blank=True)

    class Meta:
        db_table = "rivals_game"
        indexes = [
            models.Index(fields=["account", "status"], name="game_account_status"),
            models.Index(fields=["status", "time_limit_ms"], name="game_status_limit"),
        ]
        constraints = [
            # one board per player and round (rivals.matches)
            models.UniqueConstraint(
                fields=["round_id", "account"], condition=models.Q(round_id__isnull=False), name="game_round_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.mode} {self.code} ({self.status})"

    @property
    def stream_id(self) -> str:
        return f"game-{self.id}"

    @property
    def present_mask(self) -> int:
        return int(self.present, 16)


class LevelBest(models.Model):
    """R-4: each account's best completion time on a level (projection of ``GameWon``)."""

    level = models.PositiveIntegerField()
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="level_bests")
    best_ms = models.BigIntegerField()
    achieved_at = models.DateTimeField()
    completions = models.PositiveIntegerField(default=1)

    class Meta:
        db_table = "rivals_level_best"
        constraints = [models.UniqueConstraint(fields=["level", "account"], name="level_best_unique")]
        indexes = [models.Index(fields=["level", "best_ms", "achieved_at"], name="level_best_rank")]

    def __str__(self) -> str:
        return f"level {self.level}: account {self.account_id} in {self.best_ms / 1000:.1f} s"


class RejectedIntent(models.Model):
    """R-38: every refused intent, for fair-play review. Never changes a game."""

    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="rejected_intents"
    )
    target = models.CharField(max_length=80, help_text="game id / round id as sent")
    intent = models.JSONField(null=True)
    code = models.CharField(max_length=40)
    message = models.CharField(max_length=300)
    at = models.DateTimeField(auto_now_add=True)
    request_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        db_table = "rivals_rejected_intent"
        ordering = ["-at"]
        indexes = [
            models.Index(fields=["account", "at"], name="rejected_account_at"),
            models.Index(fields=["at"], name="rejected_at"),
        ]  # retention job

    def __str__(self) -> str:
        return f"{self.code} on {self.target}"
