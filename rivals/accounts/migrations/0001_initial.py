"""The accounts room's models, moved out of the platform (``rivals``, issue 33): their tables stay
where they are (pinned by ``db_table``), so the move is the state's alone — no table is
created, no row moves. The content types follow the models (their permissions and admin log
entries stay attached)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from rivals.migration_content_types import move_content_types

MODELS = ("outboundemail",)


def _content_types_follow(apps, schema_editor):
    move_content_types(apps, "rivals", "accounts", MODELS)


def _content_types_return(apps, schema_editor):
    move_content_types(apps, "accounts", "rivals", MODELS)


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
                    name="OutboundEmail",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("verification", "verify an email address"),
                                    ("already_registered", "address already registered"),
                                    ("password_reset", "password reset"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("to", models.EmailField(max_length=254)),
                        (
                            "status",
                            models.CharField(
                                choices=[("pending", "pending"), ("failed", "failed")], default="pending", max_length=10
                            ),
                        ),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("last_error", models.CharField(blank=True, default="", max_length=300)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("next_attempt_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "account",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rivals_outbound_email",
                        "indexes": [models.Index(fields=["status", "next_attempt_at"], name="outbound_email_due")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_types_follow, _content_types_return),
    ]
