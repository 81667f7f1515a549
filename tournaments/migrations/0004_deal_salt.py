"""R-40: a wave's deal is fixed when it is seated (code and salt), a pot's salt when it is created;
partial indexes answer whether an open wave or pot still plays a code (the practice check)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_schedule_retired"),
    ]

    operations = [
        migrations.AddField(
            model_name="pot",
            name="salt",
            field=models.CharField(blank=True, default="", help_text="R-40: the commitment's salt", max_length=32),
        ),
        migrations.AddField(
            model_name="wave",
            name="code",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddField(
            model_name="wave",
            name="salt",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddIndex(
            model_name="pot",
            index=models.Index(condition=models.Q(("status", "open")), fields=["code"], name="pot_open_code"),
        ),
        migrations.AddIndex(
            model_name="wave",
            index=models.Index(condition=models.Q(("ended_at__isnull", True)), fields=["code"], name="wave_open_code"),
        ),
    ]
