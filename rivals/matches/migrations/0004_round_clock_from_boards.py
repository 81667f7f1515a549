"""Issue 35: a pair writes its own board only. The round's idle deadline (R-17) is derived from its
boards' last pairs, so ``last_pair_at`` goes, and ``ends_at`` keeps the deadline before any pair
(the earliest of start + 20 s, 5 minutes, the cutoff) — what the projection now writes, so the rows
of existing rounds are set to it (``rebuild_projections --verify`` compares them)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("matches", "0003_deal_salt")]

    operations = [
        migrations.RemoveField(model_name="round", name="last_pair_at"),
        migrations.AlterField(
            model_name="round",
            name="ends_at",
            field=models.DateTimeField(
                help_text="the clock's first possible end (R-17: start + 20 s, 5 minutes, the cutoff); the pairs "
                "move the deadline on the boards, never on this row (Round.clock_from)"
            ),
        ),
        migrations.RunSQL(
            "UPDATE matches_round SET ends_at = LEAST(hard_ends_at, COALESCE(cutoff_at, hard_ends_at), "
            "starts_at + interval '20 seconds')",
            migrations.RunSQL.noop,
        ),
    ]
