"""An append of many events to one stream computes its head's chain with one call of
``rivals_event_chain`` (a loop over the events' digests) instead of one nested
``rivals_event_link`` per event: past a few hundred events the nested expression exceeded
PostgreSQL's ``max_stack_depth`` while being planned (a tournament's registrations appended at
once). Same links, same chain (``rivals.eventchain``)."""

from django.db import migrations

FUNCTION = r"""
CREATE FUNCTION rivals_event_chain(previous bytea, version0 int, digests bytea[], ki bytea, ko bytea)
RETURNS bytea LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    h bytea := previous;
BEGIN
    FOR i IN 1 .. coalesce(array_length(digests, 1), 0) LOOP
        -- rivals_event_link(h, version0 + i, digests[i], ki, ko)
        h := sha256(ko || sha256(ki || h || int4send(version0 + i) || digests[i]));
    END LOOP;
    RETURN h;
END
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("rivals", "0008_event_chain")]

    operations = [
        migrations.RunSQL(FUNCTION, "DROP FUNCTION rivals_event_chain(bytea, int, bytea[], bytea, bytea);"),
    ]
