"""Issue 40: the notifications of what an operator did to an account no longer carry the operator's
note (a suspension's or a lift's ``reason``, a joker grant's ``note``): they say a reason code and
the message written for the player. Notifications are a projection of the log: the rows made
before are made again from their events by the projection's own mapping (``notices``), as
``rebuild_projections`` would make them — so ``--verify`` holds without a rebuild."""

import json
from types import SimpleNamespace

from django.db import migrations

TYPES = ("jokers_changed", "display_name_reset", "account_suspended", "account_suspension_lifted")
BATCH = 2000


def notes_removed(apps, schema_editor):
    from rivals.notices import notices

    Notification = apps.get_model("live", "Notification")
    rows = Notification.objects.filter(type__in=TYPES).order_by("position")
    last = 0
    while True:
        batch = list(rows.filter(position__gt=last)[:BATCH])
        if not batch:
            return
        last = batch[-1].position
        with schema_editor.connection.cursor() as cur:
            cur.execute(
                "SELECT position, type, stream_id, data FROM rivals_event WHERE position = ANY(%s)",
                [sorted({n.position for n in batch})],
            )
            events = {
                p: SimpleNamespace(position=p, type=t, stream_id=s, data=d if isinstance(d, dict) else json.loads(d))
                for p, t, s, d in cur.fetchall()
            }
        for note in batch:
            event = events.get(note.position)
            if event is None:
                continue
            made = {(a, kind): data for a, kind, data in notices(event, None)}
            data = made.get((note.account_id, note.type))
            if data is not None and data != note.data:
                note.data = data
                note.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [("live", "0001_initial"), ("rivals", "0017_operator_roles")]

    operations = [migrations.RunPython(notes_removed, migrations.RunPython.noop)]
