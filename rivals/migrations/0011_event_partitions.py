"""Issue 26, the event log at scale: ``rivals_event`` becomes a table partitioned by time —
PostgreSQL declarative partitioning by range of ``recorded_at``, one partition per UTC month
(``rivals_event_2026_12``), plus ``rivals_event_before`` (everything older than the first month)
and ``rivals_event_after`` (everything past the last month created), so an append never fails
for want of a partition. ``rivals_event_partitions_ensure(upto)`` creates the months up to
``upto`` out of ``rivals_event_after`` (a daily job keeps three months ahead:
``rivals.tasks.event_partitions_ensure``).

What the log promised still holds on every partition:

* **append-only**: the row triggers refusing UPDATE and DELETE are declared on the partitioned
  table (PostgreSQL clones them onto every partition, present and future); TRUNCATE is refused
  on the table and on each partition (statement triggers are not cloned: each partition gets
  its own when it is made);
* **one event per (stream, version)**: a unique index cannot span partitions unless it holds the
  partition key, so the guarantee is kept in two parts. Within a partition, a unique index on
  ``(stream_id, version)`` (made with each partition). Across partitions, every event must be
  appended through its stream head: the head claim (``rivals.eventstore``) records the range of
  versions it handed out (``base_version`` < v ≤ ``version``) and the transaction that claimed it
  (``claimed_by``); the insert trigger ``rivals_event_claimed`` refuses an event outside the range
  its own transaction claimed. Claims are serialised by the head row's lock, so two transactions
  never hold overlapping ranges: a second event with a version already used is refused wherever
  its ``recorded_at`` would place it (tests/platform/test_event_partitions.py). One PK lookup per
  event, on the head row the append has just written;
* positions: the identity sequence carries on where the table's left off (the live relay reads
  its last value).

The table is rebuilt and its rows copied (a partitioned table cannot be made from a plain one in
place): on a large log, run this migration in a maintenance window.
"""

from datetime import UTC, timedelta

from django.db import migrations, models
from django.utils import timezone

MONTHS_AHEAD = 3

FUNCTIONS = r"""
CREATE FUNCTION rivals_event_partition_make(name text, lo timestamptz, hi timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE grantee_name name;
BEGIN
    EXECUTE format('CREATE TABLE %I PARTITION OF rivals_event FOR VALUES FROM (%s) TO (%s)', name,
                   CASE WHEN lo IS NULL THEN 'MINVALUE' ELSE quote_literal(lo) END,
                   CASE WHEN hi IS NULL THEN 'MAXVALUE' ELSE quote_literal(hi) END);
    EXECUTE format('CREATE UNIQUE INDEX %I ON %I (stream_id, version)', name || '_stream_version', name);
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT '
                   'EXECUTE FUNCTION rivals_event_refuse_change()', name || '_no_truncate', name);
    -- nobody writes a partition directly (the application inserts through rivals_event, where its
    -- grants are): default privileges may have granted more
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM PUBLIC', name);
    FOR grantee_name IN
        SELECT DISTINCT grantee FROM information_schema.role_table_grants
        WHERE table_schema = current_schema() AND table_name = name AND grantee <> current_user
          AND privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %I', name, grantee_name);
    END LOOP;
END $$;

-- The monthly partitions up to the month holding ``upto``, carved out of rivals_event_after
-- (detached, the months made, attached again past them, in one transaction). Returns how many
-- months it made. Rows already in rivals_event_after (recorded in the future) stay there: no
-- month is made over them. SECURITY DEFINER: the application role may call it, not do DDL.
CREATE FUNCTION rivals_event_partitions_ensure(upto timestamptz) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT SET lock_timeout = '5s' AS $$
DECLARE
    last_end timestamptz;
    stop_at timestamptz := date_trunc('month', upto AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 month';
    future timestamptz;
    made integer := 0;
BEGIN
    SELECT max(to_date(substr(c.relname, 14), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC') + interval '1 month'
      INTO last_end
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'rivals_event'::regclass AND c.relname ~ '^rivals_event_[0-9]{4}_[0-9]{2}$';
    SELECT min(recorded_at) INTO future FROM rivals_event_after;
    IF future IS NOT NULL THEN
        stop_at := least(stop_at, date_trunc('month', future AT TIME ZONE 'UTC') AT TIME ZONE 'UTC');
    END IF;
    IF last_end IS NULL OR last_end >= stop_at THEN
        RETURN 0;
    END IF;
    ALTER TABLE rivals_event DETACH PARTITION rivals_event_after;
    WHILE last_end < stop_at LOOP
        PERFORM rivals_event_partition_make(
            'rivals_event_' || to_char(last_end AT TIME ZONE 'UTC', 'YYYY_MM'), last_end, last_end + interval '1 month');
        last_end := last_end + interval '1 month';
        made := made + 1;
    END LOOP;
    EXECUTE format('ALTER TABLE rivals_event ATTACH PARTITION rivals_event_after FOR VALUES FROM (%L) TO (MAXVALUE)',
                   last_end);
    RETURN made;
END $$;

-- Across partitions, one event per (stream, version): an event must lie in the range of versions
-- its own transaction claimed at the stream head (rivals.eventstore's head claim).
CREATE FUNCTION rivals_event_claimed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE head record;
BEGIN
    SELECT version, base_version, claimed_by INTO head FROM rivals_stream WHERE id = NEW.stream_id;
    IF NOT FOUND OR head.claimed_by IS DISTINCT FROM pg_current_xact_id()
       OR NEW.version <= head.base_version OR NEW.version > head.version THEN
        RAISE EXCEPTION 'event %@% was not claimed at its stream head', NEW.stream_id, NEW.version
            USING ERRCODE = 'unique_violation',
                  HINT = 'events are appended through rivals.eventstore: one event per stream and version';
    END IF;
    RETURN NEW;
END $$;
"""

TABLE = r"""
ALTER TABLE rivals_stream ADD COLUMN base_version integer NOT NULL DEFAULT 0, ADD COLUMN claimed_by xid8,
    ADD COLUMN first_at timestamptz;
UPDATE rivals_stream s SET base_version = s.version, first_at = f.first_at
  FROM (SELECT stream_id, min(recorded_at) AS first_at FROM rivals_event GROUP BY stream_id) AS f
 WHERE f.stream_id = s.id;
UPDATE rivals_stream SET base_version = version WHERE first_at IS NULL;

ALTER TABLE rivals_event RENAME TO rivals_event_unpartitioned;
ALTER SEQUENCE rivals_event_position_seq RENAME TO rivals_event_unpartitioned_position_seq;
ALTER INDEX rivals_event_pkey RENAME TO rivals_event_unpartitioned_pkey;
ALTER INDEX event_stream_version_unique RENAME TO rivals_event_unpartitioned_stream_version;
ALTER INDEX event_type_position RENAME TO rivals_event_unpartitioned_type_position;
ALTER INDEX event_stype_position RENAME TO rivals_event_unpartitioned_stype_position;

CREATE TABLE rivals_event (
    position bigint GENERATED BY DEFAULT AS IDENTITY,
    stream_id varchar(120) NOT NULL,
    stream_type varchar(40) NOT NULL,
    version integer NOT NULL CONSTRAINT rivals_event_version_check CHECK (version >= 0),
    type varchar(60) NOT NULL,
    schema_version smallint NOT NULL CONSTRAINT rivals_event_schema_version_check CHECK (schema_version >= 0),
    data jsonb NOT NULL,
    metadata jsonb NOT NULL,
    recorded_at timestamptz NOT NULL,
    chain bytea,
    PRIMARY KEY (position, recorded_at)
) PARTITION BY RANGE (recorded_at);
CREATE INDEX event_type_position ON rivals_event (type, position);
CREATE INDEX event_stype_position ON rivals_event (stream_type, position);
CREATE TRIGGER rivals_event_no_update_delete BEFORE UPDATE OR DELETE ON rivals_event
    FOR EACH ROW EXECUTE FUNCTION rivals_event_refuse_change();
CREATE TRIGGER rivals_event_no_truncate BEFORE TRUNCATE ON rivals_event
    FOR EACH STATEMENT EXECUTE FUNCTION rivals_event_refuse_change();
"""

COPY = r"""
INSERT INTO rivals_event (position, stream_id, stream_type, version, type, schema_version, data, metadata,
                          recorded_at, chain)
SELECT position, stream_id, stream_type, version, type, schema_version, data, metadata, recorded_at, chain
  FROM rivals_event_unpartitioned ORDER BY position;
SELECT setval(pg_get_serial_sequence('rivals_event', 'position'), drawn, true)
  FROM (SELECT greatest((SELECT max(position) FROM rivals_event_unpartitioned),
                        (SELECT last_value FROM rivals_event_unpartitioned_position_seq WHERE is_called)) AS drawn) AS s
 WHERE drawn IS NOT NULL;
DROP TABLE rivals_event_unpartitioned;
CREATE TRIGGER rivals_event_claimed BEFORE INSERT ON rivals_event
    FOR EACH ROW EXECUTE FUNCTION rivals_event_claimed();
"""


def partitions(apps, schema_editor):
    """``before`` up to the first month of the log (the oldest event's, else this one), the months
    up to three ahead of now (the Python clock), ``after`` past them; then the rows."""
    now = timezone.now()
    with schema_editor.connection.cursor() as cur:
        cur.execute("SELECT min(recorded_at) FROM rivals_event_unpartitioned")
        oldest = cur.fetchone()[0] or now
        first = oldest.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        cur.execute("SELECT rivals_event_partition_make('rivals_event_before', NULL, %s)", [first])
        cur.execute(
            f"SELECT rivals_event_partition_make('rivals_event_{first:%Y_%m}', %s, %s)",
            [first, (first + timedelta(days=32)).replace(day=1)],
        )
        cur.execute(
            "SELECT rivals_event_partition_make('rivals_event_after', %s, NULL)",
            [(first + timedelta(days=32)).replace(day=1)],
        )
        cur.execute("SELECT rivals_event_partitions_ensure(%s)", [now + timedelta(days=31 * MONTHS_AHEAD)])
        cur.execute(COPY)


class Migration(migrations.Migration):
    dependencies = [
        ("rivals", "0010_account_search"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(FUNCTIONS + TABLE)],
            state_operations=[
                migrations.AddField(
                    model_name="stream", name="first_at", field=models.DateTimeField(editable=False, null=True)
                )
            ],
        ),
        migrations.RunPython(partitions, migrations.RunPython.noop),
    ]
