"""The points room's models, moved out of the platform (``rivals``, issue 33): their tables stay
where they are (pinned by ``db_table``), so the move is the state's alone — no table is
created, no row moves. The content types follow the models (their permissions and admin log
entries stay attached)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from rivals.migration_content_types import move_content_types

MODELS = ("pointsledgerentry",)


def _content_types_follow(apps, schema_editor):
    move_content_types(apps, "rivals", "points", MODELS)


def _content_types_return(apps, schema_editor):
    move_content_types(apps, "points", "rivals", MODELS)


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
                    name="PointsLedgerEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("event_position", models.BigIntegerField(unique=True)),
                        ("amount", models.IntegerField()),
                        ("source", models.CharField(max_length=40)),
                        ("counts", models.BooleanField(help_text="counts for AMR / weekly / daily (R-33)")),
                        ("award_key", models.CharField(max_length=200, unique=True)),
                        ("awarded_at", models.DateTimeField(db_index=True)),
                        ("ref", models.JSONField(blank=True, default=dict)),
                        (
                            "account",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="points",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "points ledger entry",
                        "verbose_name_plural": "points ledger",
                        "db_table": "rivals_points_ledger",
                        "ordering": ["-awarded_at", "-event_position"],
                        "indexes": [models.Index(fields=["account", "awarded_at"], name="ledger_account_time")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_types_follow, _content_types_return),
    ]
