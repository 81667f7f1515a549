"""R-39, finding players: ``Account.search_name`` (the display name as it is searched:
``rivals.names.search_key``), filled for existing accounts, and the three partial indexes of the
search (``rivals.accounts.selectors.player_search``) over the listed players only (not staff,
not suspended, not closed: ``selectors.LISTED``, the same predicate):

* ``account_search_prefix`` (search_name, id): names that start with the query, in name order;
* ``account_search_grams``: GIN over every 2- and 3-character piece of the name
  (``rivals_name_grams``) — the candidates of a rare query; its statistics (the pieces' shares,
  which the search reads to choose its plan) keep up to 10,000 pieces — gathered at once (ANALYZE:
  a new index has none, and the search would take every query for a rare one until autovacuum
  analyzes the table);
* ``account_search_shuffle`` (hashint8(id), id) INCLUDE (search_name): the other names in a fixed
  shuffled order, read in order until enough match — a common query stops early, whatever the
  names' alphabet or the accounts' age.

No extension: the embedded PostgreSQL of development and tests has no ``pg_trgm``.
"""

from django.db import migrations, models

LISTED = "NOT is_staff AND suspended_at IS NULL AND closed_at IS NULL"

FUNCTION = r"""
CREATE FUNCTION rivals_name_grams(name text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT g), '{}') FROM (
        SELECT substr(name, i, 2) AS g FROM generate_series(1, char_length(name) - 1) AS i
        UNION ALL SELECT substr(name, i, 3) FROM generate_series(1, char_length(name) - 2) AS i
    ) AS pieces
$$;
"""

INDEXES = f"""
CREATE INDEX account_search_prefix ON rivals_account (search_name, id) WHERE {LISTED};
CREATE INDEX account_search_grams ON rivals_account USING gin (rivals_name_grams(search_name)) WHERE {LISTED};
ALTER INDEX account_search_grams ALTER COLUMN 1 SET STATISTICS 1000;
CREATE INDEX account_search_shuffle ON rivals_account ((hashint8(id)), id) INCLUDE (search_name) WHERE {LISTED};
ANALYZE rivals_account;
"""

DROP = """
DROP INDEX account_search_shuffle;
DROP INDEX account_search_grams;
DROP INDEX account_search_prefix;
"""

CHUNK = 10_000


def _fill(apps, schema_editor):
    from rivals.names import search_key

    Account = apps.get_model("rivals", "Account")
    rows = Account.objects.order_by("pk").values_list("pk", "display_name")
    last = 0
    with schema_editor.connection.cursor() as cur:
        while True:
            chunk = list(rows.filter(pk__gt=last)[:CHUNK])
            if not chunk:
                return
            cur.execute(
                "UPDATE rivals_account a SET search_name = v.s FROM unnest(%s::bigint[], %s::text[]) AS v(id, s) "
                "WHERE a.id = v.id",
                [[pk for pk, _ in chunk], [search_key(name) for _, name in chunk]],
            )
            last = chunk[-1][0]


class Migration(migrations.Migration):
    dependencies = [("rivals", "0009_event_chain_fold")]

    operations = [
        migrations.AddField(
            model_name="account",
            name="search_name",
            field=models.TextField(blank=True, db_collation="C", default=""),
        ),
        migrations.RunPython(_fill, migrations.RunPython.noop),
        migrations.RunSQL(FUNCTION, "DROP FUNCTION rivals_name_grams(text);"),
        migrations.RunSQL(INDEXES, DROP),
    ]
