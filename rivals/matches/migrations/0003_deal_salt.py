"""R-40: a competition's deal has a salt (its commitment is SHA-256 of "<code>:<salt>"), and the
practice check asks whether a running round or match still plays a code: two small partial
indexes, built without blocking the rounds' writes (``CONCURRENTLY``, outside a transaction).
Neither indexed column changes on a pair, so a pair's UPDATE of its round stays HOT."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("matches", "0002_round_running_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="salt",
            field=models.CharField(blank=True, default="", help_text="R-40: the fixed deal's salt", max_length=32),
        ),
        migrations.AddField(
            model_name="round",
            name="salt",
            field=models.CharField(blank=True, default="", help_text="R-40: the commitment's salt", max_length=32),
        ),
        AddIndexConcurrently(
            model_name="match",
            index=models.Index(
                condition=models.Q(("status", "running"), models.Q(("code", ""), _negated=True)),
                fields=["code"],
                name="match_running_code",
            ),
        ),
        AddIndexConcurrently(
            model_name="round",
            index=models.Index(condition=models.Q(("status", "running")), fields=["code"], name="round_running_code"),
        ),
    ]
