"""Issue 26: migration 0011 moves a log written before it into the partitions (positions kept,
the sequence carried on, the streams appending on). ``manage.py migrate`` runs as an operator
runs it, on a database of the test's own on the suite's server."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(180)


def _month_partition(moment: datetime) -> str:
    return f"rivals_event_{moment.astimezone(UTC):%Y_%m}"


@pytest.fixture
def scratch(django_db_blocker):
    """(psycopg connection parameters, DATABASE_URL) of a database made for the test."""
    with django_db_blocker.unblock():
        settings = dict(connection.settings_dict)
    socket = settings["OPTIONS"].get("host")
    params = {"host": socket or settings["HOST"], "port": settings["PORT"], "user": settings["USER"]}
    params = {k: v for k, v in params.items() if v} | {"password": settings["PASSWORD"] or None}
    name = f"rivals_migration_{os.getpid()}"
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    auth = quote(settings["USER"]) + (":" + quote(settings["PASSWORD"]) if settings["PASSWORD"] else "")
    where = f"{settings['HOST'] or ''}" + (f":{settings['PORT']}" if settings["PORT"] else "")
    url = f"postgres://{auth}@{where}/{name}" + (f"?host={quote(socket)}" if socket else "")
    try:
        yield {**params, "dbname": name}, url
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _migrate(url: str, *target: str) -> None:
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0", *target],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=150,
    )


def test_the_migration_moves_an_existing_log_into_partitions(scratch):
    params, url = scratch
    _migrate(url, "rivals", "0010_account_search")
    now = datetime.now(UTC)
    with psycopg.connect(**params) as db:
        db.execute(
            "INSERT INTO rivals_stream (id, type, version, created_at, updated_at) VALUES ('old-1', 'test', 3, %s, %s)",
            [now, now],
        )
        for version, moment in [
            (1, datetime(2025, 1, 15, tzinfo=UTC)),
            (2, datetime(2025, 3, 1, tzinfo=UTC)),
            (3, now),
        ]:
            db.execute(
                "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, metadata, "
                "recorded_at) VALUES ('old-1', 'test', %s, 'Tested', 1, '{}', '{}', %s)",
                [version, moment],
            )
        positions = db.execute("SELECT array_agg(position ORDER BY version) FROM rivals_event").fetchone()[0]
    _migrate(url)
    with psycopg.connect(**params) as db:
        moved, partitions = db.execute(
            "SELECT array_agg(position ORDER BY version), array_agg(tableoid::regclass::text ORDER BY version) "
            "FROM rivals_event"
        ).fetchone()
        assert moved == positions
        assert partitions == ["rivals_event_2025_01", "rivals_event_2025_03", _month_partition(now)]
        count = db.execute("SELECT count(*) FROM pg_inherits WHERE inhparent = 'rivals_event'::regclass").fetchone()[0]
        months = (now.year - 2025) * 12 + now.month  # 2025-01 … this month
        assert count == months + 3 + 2  # three months ahead, before and after
        appended = db.execute(
            "WITH head AS (UPDATE rivals_stream SET base_version = version, version = version + 1, "
            "claimed_by = pg_current_xact_id() WHERE id = 'old-1' RETURNING version) "
            "INSERT INTO rivals_event (stream_id, stream_type, version, type, schema_version, data, metadata, "
            "recorded_at) SELECT 'old-1', 'test', head.version, 'Tested', 1, '{}', '{}', %s FROM head "
            "RETURNING position, version",
            [now],
        ).fetchone()
        assert appended == (positions[-1] + 1, 4)
