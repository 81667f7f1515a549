"""The games room's models, moved out of the platform (``rivals``, issue 33): their tables stay
where they are (pinned by ``db_table``), so the move is the state's alone — no table is
created, no row moves. The content types follow the models (their permissions and admin log
entries stay attached)."""

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from rivals.migration_content_types import move_content_types

MODELS = (
    "level",
    "game",
    "levelbest",
    "rejectedintent",
)


def _content_types_follow(apps, schema_editor):
    move_content_types(apps, "rivals", "games", MODELS)


def _content_types_return(apps, schema_editor):
    move_content_types(apps, "games", "rivals", MODELS)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("rivals", "0017_operator_roles"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Level",
                    fields=[
                        ("number", models.PositiveIntegerField(primary_key=True, serialize=False)),
                        ("code", models.CharField(max_length=20)),
                        ("layout", models.CharField(max_length=3)),
                        ("hard", models.BooleanField()),
                        ("difficulty", models.FloatField()),
                        ("generated_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "rivals_level",
                        "ordering": ["number"],
                    },
                ),
                migrations.CreateModel(
                    name="Game",
                    fields=[
                        ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        (
                            "mode",
                            models.CharField(
                                choices=[
                                    ("single", "single player"),
                                    ("classic", "classic"),
                                    ("pool_practice", "pool practice"),
                                    ("quick", "quick match round"),
                                    ("duel", "duel round"),
                                    ("arena", "arena round"),
                                    ("tournament", "tournament round"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("ruleset", models.CharField(max_length=10)),
                        ("level", models.PositiveIntegerField(blank=True, null=True)),
                        ("code", models.CharField(max_length=20)),
                        ("salt", models.CharField(blank=True, default="", max_length=32)),
                        ("layout", models.CharField(max_length=3)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("playing", "playing"),
                                    ("paused", "paused"),
                                    ("won", "won"),
                                    ("stuck", "stuck"),
                                    ("ended", "ended"),
                                ],
                                default="playing",
                                max_length=10,
                            ),
                        ),
                        ("version", models.PositiveIntegerField(default=0, help_text="stream version")),
                        ("seq", models.PositiveIntegerField(default=0, help_text="accepted intents")),
                        ("score", models.IntegerField(default=0)),
                        ("initial_faces", models.JSONField()),
                        (
                            "faces",
                            models.JSONField(help_text="face per position (after shuffles); removed tiles keep theirs"),
                        ),
                        ("present", models.CharField(help_text="hex bitset of tiles on the board", max_length=40)),
                        ("removed", models.JSONField(default=list, help_text="undo stack: [a, b, points, kind]")),
                        ("started_at", models.DateTimeField()),
                        ("running_since", models.DateTimeField(blank=True, null=True)),
                        ("elapsed_before_ms", models.BigIntegerField(default=0)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("completion_ms", models.BigIntegerField(blank=True, null=True)),
                        ("time_limit_ms", models.BigIntegerField(blank=True, null=True)),
                        ("last_pair_ms", models.BigIntegerField(blank=True, null=True)),
                        ("record_ms", models.BigIntegerField(blank=True, null=True)),
                        ("jokers_used", models.PositiveSmallIntegerField(default=0)),
                        ("hints_used", models.PositiveSmallIntegerField(default=0)),
                        ("undos_used", models.PositiveSmallIntegerField(default=0)),
                        ("shuffles_used", models.PositiveSmallIntegerField(default=0)),
                        ("round_id", models.UUIDField(blank=True, null=True)),
                        ("plan", models.JSONField(blank=True, null=True)),
                        (
                            "account",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="games",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rivals_game",
                        "indexes": [
                            models.Index(fields=["account", "status"], name="game_account_status"),
                            models.Index(fields=["status", "time_limit_ms"], name="game_status_limit"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("round_id__isnull", False)),
                                fields=("round_id", "account"),
                                name="game_round_player",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="LevelBest",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("level", models.PositiveIntegerField()),
                        ("best_ms", models.BigIntegerField()),
                        ("achieved_at", models.DateTimeField()),
                        ("completions", models.PositiveIntegerField(default=1)),
                        (
                            "account",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="level_bests",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rivals_level_best",
                        "indexes": [models.Index(fields=["level", "best_ms", "achieved_at"], name="level_best_rank")],
                        "constraints": [models.UniqueConstraint(fields=("level", "account"), name="level_best_unique")],
                    },
                ),
                migrations.CreateModel(
                    name="RejectedIntent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("target", models.CharField(help_text="game id / round id as sent", max_length=80)),
                        ("intent", models.JSONField(null=True)),
                        ("code", models.CharField(max_length=40)),
                        ("message", models.CharField(max_length=300)),
                        ("at", models.DateTimeField(auto_now_add=True)),
                        ("request_id", models.CharField(blank=True, default="", max_length=64)),
                        (
                            "account",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rejected_intents",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rivals_rejected_intent",
                        "ordering": ["-at"],
                        "indexes": [
                            models.Index(fields=["account", "at"], name="rejected_account_at"),
                            models.Index(fields=["at"], name="rejected_at"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_types_follow, _content_types_return),
    ]
