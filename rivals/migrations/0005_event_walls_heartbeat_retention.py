"""Events: pgtrigger's protection honoured ``SET pgtrigger.ignore`` — any role that could write
could switch it off for its own transaction. It is replaced by plain triggers with no escape a
session can set. (Test teardown flushes with ``session_replication_role = replica``, which only a
superuser may set; see tests/conftest.py.) Also: the heartbeat leaves the event log for its own
row, and the retention jobs get their indexes."""

import pgtrigger.migrations
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rivals", "0004_game_round"),
    ]

    operations = [
        migrations.RunSQL(
            sql="""
            CREATE FUNCTION rivals_event_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'rivals_event is append-only: % is refused', TG_OP
                    USING ERRCODE = 'insufficient_privilege',
                          HINT = 'events are never changed: append a compensating event';
            END $$;
            CREATE TRIGGER rivals_event_no_update_delete BEFORE UPDATE OR DELETE ON rivals_event
                FOR EACH ROW EXECUTE FUNCTION rivals_event_refuse_change();
            CREATE TRIGGER rivals_event_no_truncate BEFORE TRUNCATE ON rivals_event
                FOR EACH STATEMENT EXECUTE FUNCTION rivals_event_refuse_change();
            """,
            reverse_sql="""
            DROP TRIGGER rivals_event_no_truncate ON rivals_event;
            DROP TRIGGER rivals_event_no_update_delete ON rivals_event;
            DROP FUNCTION rivals_event_refuse_change();
            """,
        ),
        migrations.CreateModel(
            name="Heartbeat",
            fields=[
                ("source", models.CharField(max_length=40, primary_key=True, serialize=False)),
                ("beat_at", models.DateTimeField()),
                ("host", models.CharField(max_length=200)),
                ("pid", models.IntegerField()),
                ("beats", models.BigIntegerField(default=1)),
            ],
            options={
                "db_table": "rivals_heartbeat",
            },
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name="event",
            name="protect_event_update_delete",
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name="event",
            name="protect_event_truncate",
        ),
        migrations.AddIndex(
            model_name="idempotencyrecord",
            index=models.Index(fields=["created_at"], name="idempotency_created_at"),
        ),
        migrations.AddIndex(
            model_name="rejectedintent",
            index=models.Index(fields=["at"], name="rejected_at"),
        ),
    ]
