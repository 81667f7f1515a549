"""Grant the application's database role what it needs — and nothing that could rewrite events.

Production runs two roles (deploy/README.md): the migration role owns the tables and runs
``migrate``; the application role (web, worker, beat) logs in with ordinary privileges. Run this
as the migration role after every ``migrate`` (idempotent):

    python manage.py db_roles --app-role rivals_app

The application role gets SELECT/INSERT/UPDATE/DELETE on every table and USAGE on sequences —
present ones, and (default privileges) the ones later migrations create — except that on the
event log it has SELECT and INSERT only: no UPDATE, DELETE or TRUNCATE. It must not own the event
table nor be a superuser (the command refuses), so neither ``ALTER TABLE … DISABLE TRIGGER`` nor
``session_replication_role`` is open to it; the append-only triggers stand behind that too.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from psycopg import sql

EVENT_TABLE = "rivals_event"


class Command(BaseCommand):
    help = "Grant the application role its privileges (events: SELECT and INSERT only). Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("--app-role", required=True, help="the role web, worker and beat log in as")

    @transaction.atomic
    def handle(self, *args, app_role: str, **options):
        with connection.cursor() as cur:
            cur.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [app_role])
            row = cur.fetchone()
            if row is None:
                raise CommandError(f"role {app_role!r} does not exist (CREATE ROLE … LOGIN PASSWORD … first)")
            if row[0]:
                raise CommandError(f"role {app_role!r} is a superuser: it could switch any protection off")
            cur.execute("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = %s::regclass", [EVENT_TABLE])
            if cur.fetchone()[0] == app_role:
                raise CommandError(f"role {app_role!r} owns {EVENT_TABLE}: run migrations as another role")
            role = sql.Identifier(app_role)
            statements = [
                "GRANT USAGE ON SCHEMA public TO {role}",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
                "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
                "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {role}",
                "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {role}",
                "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {events} FROM {role}",
                "REVOKE UPDATE, DELETE, TRUNCATE ON {events} FROM PUBLIC",
            ]
            for statement in statements:
                composed = sql.SQL(statement).format(role=role, events=sql.Identifier(EVENT_TABLE))
                cur.execute(composed.as_string(connection.connection))
            # the log's partitions (migration 0011): nobody writes them directly — the application
            # inserts through the partitioned table, whose grants are above (the monthly job makes
            # new partitions without these privileges: rivals_event_partition_make)
            cur.execute(
                "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                "WHERE i.inhparent = %s::regclass",
                [EVENT_TABLE],
            )
            for (partition,) in cur.fetchall():
                revoke = sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE ON {part} FROM {role}")
                cur.execute(revoke.format(part=sql.Identifier(partition), role=role).as_string(connection.connection))
        self.stdout.write(f"{app_role}: tables read/write, {EVENT_TABLE} SELECT and INSERT only")
