"""The embedded PostgreSQL's URL for child processes, and its lifecycle bookkeeping."""

from __future__ import annotations

import environ
import pytest
from django.db import connection

from config.embedded import database_url


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://postgres:@/test_postgres?host=/srv/app/.data/pg",
        "postgresql://postgres:@/test_postgres?host=/srv/app/.data/pg&port=5433",
        "postgresql://rivals:s%40cret@db.example:6543/rivals",
        "postgresql://postgres@127.0.0.1:5432/test_x",
    ],
)
def test_database_url_round_trips_through_django_environ(url):
    config = environ.Env.db_url_config(url)
    again = environ.Env.db_url_config(database_url(config))
    for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT"):
        assert (again.get(key) or "") == (config.get(key) or ""), key
    assert (again.get("OPTIONS") or {}).get("host") == (config.get("OPTIONS") or {}).get("host")


@pytest.mark.django_db
def test_database_url_of_the_test_connection_reaches_the_test_database():
    import psycopg

    with psycopg.connect(database_url(connection.settings_dict)) as conn:
        assert conn.execute("SELECT current_database()").fetchone()[0] == connection.settings_dict["NAME"]
