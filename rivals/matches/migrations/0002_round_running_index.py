"""Issue 25: the round sweeper's index no longer holds ``ends_at``.

``round_running_deadline`` indexed ``ends_at`` of the running rounds — but R-17's deadline moves
with every pair, so every pair's UPDATE of its round changed an indexed column: never a HOT update,
always a new entry in each of the table's four indexes. ``round_running`` holds the running rounds
by ``starts_at``, which never moves: the sweeper (``rounds_end_due``: running rounds whose deadline
has passed) reads the running rounds through it — however many rounds have ended — and filters
their deadline; a pair's UPDATE of its round is HOT again.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0001_initial"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="round",
            index=models.Index(condition=models.Q(("status", "running")), fields=["starts_at"], name="round_running"),
        ),
        migrations.RemoveIndex(
            model_name="round",
            name="round_running_deadline",
        ),
    ]
