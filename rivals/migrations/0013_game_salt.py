"""R-40: a competition's board keeps its deal's salt (GameStarted v2)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rivals", "0012_game_fillfactor"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="salt",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
    ]
