"""The daily_bonus room's models, moved out of the platform (``rivals``, issue 33): their tables stay
where they are (pinned by ``db_table``), so the move is the state's alone — no table is
created, no row moves. The content types follow the models (their permissions and admin log
entries stay attached)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from rivals.migration_content_types import move_content_types

MODELS = ("dailybonusclaim",)


def _content_types_follow(apps, schema_editor):
    move_content_types(apps, "rivals", "daily_bonus", MODELS)


def _content_types_return(apps, schema_editor):
    move_content_types(apps, "daily_bonus", "rivals", MODELS)


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
                    name="DailyBonusClaim",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("day", models.DateField(help_text="Romanian calendar day (Europe/Bucharest)")),
                        ("streak", models.PositiveIntegerField()),
                        ("points", models.PositiveIntegerField()),
                        ("jokers", models.PositiveSmallIntegerField(default=0)),
                        ("doubled", models.BooleanField(default=False)),
                        ("claimed_at", models.DateTimeField()),
                        (
                            "account",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="daily_bonus_claims",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rivals_daily_bonus_claim",
                        "ordering": ["-day"],
                        "constraints": [
                            models.UniqueConstraint(fields=("account", "day"), name="daily_bonus_once_per_day")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_types_follow, _content_types_return),
    ]
