"""Issue 33: the rooms own their models — games' (Game, Level, LevelBest, RejectedIntent),
points' (PointsLedgerEntry), daily bonus's (DailyBonusClaim) and accounts' (OutboundEmail) leave
the platform's state for their rooms' (each room's ``0001_initial``). Their tables stay as they
are (``db_table``): nothing happens in the database."""

from django.db import migrations

MOVED = ("Level", "Game", "LevelBest", "RejectedIntent", "PointsLedgerEntry", "DailyBonusClaim", "OutboundEmail")


class Migration(migrations.Migration):
    dependencies = [
        ("rivals", "0017_operator_roles"),
        ("games", "0001_initial"),
        ("points", "0001_initial"),
        ("daily_bonus", "0001_initial"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
            database_operations=[],
        ),
    ]
