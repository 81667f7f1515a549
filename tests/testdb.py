"""The test run's databases: one migrated template, a clone of it per pytest-xdist worker.

Migrating the schema (every app's migrations, the log's partitions and triggers) takes several
seconds; a worker's database is instead copied from a template on the same server
(``CREATE DATABASE … TEMPLATE``, a file copy of an empty schema, well under a second). The
template is named after a digest of every installed app's migration files, so it is built once
and kept across runs — on the embedded server in ``.data/pg`` as on ``DATABASE_URL``'s — and built
again only when a migration changes (older templates are dropped then). Building and cloning
happen under a PostgreSQL advisory lock on the maintenance database, so workers that start
together build it once. Each worker's clone is dropped at the end of its session; a clone left
by a killed run is replaced by the next one of the same name.

As Zulip does (``zerver/lib/test_fixtures.py``) and Django's own ``--parallel`` runner.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connections

TEMPLATE_PREFIX = "rivals_tmpl_"
LOCK = (0x72697661, 0x746D706C)  # "riva", "tmpl": the advisory lock that serialises building and cloning


def migrations_digest() -> str:
    """A digest of every installed app's migration files (name and content), and of the
    PostgreSQL-specific settings the migrations read."""
    digest = hashlib.sha256()
    for app in sorted(apps.get_app_configs(), key=lambda a: a.label):
        folder = Path(app.path) / "migrations"
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.py")):
            digest.update(f"{app.label}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _admin_params() -> dict:
    """psycopg parameters of the server's maintenance database, from the configured connection."""
    s = settings.DATABASES["default"]
    params = {
        "host": (s.get("OPTIONS") or {}).get("host") or s.get("HOST") or None,
        "port": s.get("PORT") or None,
        "user": s.get("USER") or None,
        "password": s.get("PASSWORD") or None,
        "dbname": "postgres",
    }
    return {k: v for k, v in params.items() if v is not None}


@contextmanager
def _admin() -> Iterator[psycopg.Connection]:
    with psycopg.connect(autocommit=True, **_admin_params()) as conn:
        conn.execute("SELECT pg_advisory_lock(%s, %s)", LOCK)
        try:
            yield conn
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s, %s)", LOCK)


def _exists(conn: psycopg.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def _use(name: str) -> None:
    """Point Django's connection (and the settings child processes read) at database ``name``."""
    for alias in connections:
        connections[alias].close()
        connections[alias].settings_dict["NAME"] = name
        settings.DATABASES[alias]["NAME"] = name


def _build_template(conn: psycopg.Connection, name: str) -> None:
    """Migrate a fresh database and rename it to ``name`` (never seen half-built)."""
    building = name + "_building"
    conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{building}"')
    original = settings.DATABASES["default"]["NAME"]
    _use(building)
    try:
        call_command("migrate", verbosity=0, interactive=False, run_syncdb=True)
    finally:
        _use(original)
    conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    # a template is never connected to; older templates (another digest) are dropped
    conn.execute(f'ALTER DATABASE "{name}" IS_TEMPLATE true')
    for (stale,) in conn.execute(
        "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s", [TEMPLATE_PREFIX + "%", name]
    ).fetchall():
        conn.execute(f'ALTER DATABASE "{stale}" IS_TEMPLATE false')
        conn.execute(f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')


def worker_name(worker: str) -> str:
    base = settings.DATABASES["default"]["NAME"] or "rivals"
    return f"test_{base}_{worker}"[:63]


def clone_for_worker(worker: str) -> str:
    """The worker's own database, cloned from the template (built first when missing); Django's
    connection is pointed at it. Returns its name."""
    template = TEMPLATE_PREFIX + migrations_digest()
    name = worker_name(worker)
    with _admin() as conn:
        if not _exists(conn, template):
            _build_template(conn, template)
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    _use(name)
    return name


def drop(name: str) -> None:
    for alias in connections:
        connections[alias].close()
    with psycopg.connect(autocommit=True, **_admin_params()) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def worker_id() -> str:
    """pytest-xdist's worker id (``gw0``, ``gw1`` …), ``main`` without xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")
