"""Issue 19: a club's ``name_key`` becomes its name's skeleton (``rivals.names.name_skeleton``:
NFKC, case folding, default-ignorables removed, Unicode TR39 confusables). Existing clubs are
re-keyed in founding order; an open club whose skeleton an earlier open club already has keeps
its name, its key suffixed with ``#<id>`` (as ``rivals.clubs.projections.club_key`` does in a
rebuild)."""

from django.db import migrations, models


def _rekey(apps, schema_editor):
    from rivals.names import name_skeleton

    Club = apps.get_model("clubs", "Club")
    taken: set[str] = set()
    clubs = list(Club.objects.order_by("created_at", "id"))
    for club in clubs:  # first out of the way of the unique index, then the new keys
        Club.objects.filter(pk=club.pk).update(name_key=f"~rekey~{club.pk}")
    for club in clubs:
        key = name_skeleton(club.name)
        if club.status == "open":
            if key in taken:
                key = f"{key}#{club.pk}"
            taken.add(key)
        Club.objects.filter(pk=club.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial")]

    operations = [
        migrations.AlterField(
            model_name="club",
            name="name_key",
            field=models.CharField(help_text="the name's skeleton: unique among open clubs", max_length=160),
        ),
        migrations.RunPython(_rekey, migrations.RunPython.noop),
    ]
