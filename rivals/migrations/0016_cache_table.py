"""Issue 31: the shared cache of an installation without ``CACHE_URL`` (``rivals.cache``): the
table Django's ``createcachetable`` makes, made UNLOGGED (rate-limit counters and mail budgets:
no WAL, no flush at commit; emptied if PostgreSQL crashes). Made here rather than by
``createcachetable`` so that every ``migrate`` — ``make run``, a deployment, the tests' database —
has it before the first request counts in it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rivals", "0015_closed_accounts_unlink_devices"),
    ]

    operations = [
        migrations.RunSQL(
            [
                """CREATE UNLOGGED TABLE IF NOT EXISTS rivals_cache (
                    cache_key varchar(255) NOT NULL PRIMARY KEY,
                    value text NOT NULL,
                    expires timestamp with time zone NOT NULL
                )""",
                "CREATE INDEX IF NOT EXISTS rivals_cache_expires ON rivals_cache (expires)",
            ],
            reverse_sql="DROP TABLE IF EXISTS rivals_cache",
        ),
    ]
