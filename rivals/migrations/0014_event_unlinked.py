"""Issue 31: an event without a link (``chain`` NULL) is legitimate only in the history that
migration 0008 sealed. The ``log-anchor`` job looks for the others every run; this partial index
holds only the unlinked events — none is appended since 0008, so appends never write it — and
makes that look-up cost the sealed history's size, not the log's (``rivals.eventanchor``). Made
on the partitioned table, so each partition, present and future, gets its own."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("rivals", "0013_game_salt")]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX rivals_event_unlinked ON rivals_event (stream_id, version) WHERE chain IS NULL",
            "DROP INDEX rivals_event_unlinked",
        ),
    ]
