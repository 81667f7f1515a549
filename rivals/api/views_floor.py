"""The benchmark floor (``tests/perf/load.py``): the least any game intent must do, as a bare DRF
endpoint served by the same gunicorn, middleware, authentication, parser, throttles and database
as the real ones — parse a small body, one token read, one locked read, one INSERT, one UPDATE,
commit. The load benchmark interleaves runs of it with the real intents and reports their ratio,
which holds from one machine to another where absolute figures do not.

Routed only when ``RIVALS_BENCH_FLOOR=1`` (off by default; settings refuse it in production).
Its two tables are created on first use, outside the application's models: they belong to the
benchmark, not to the game, and never exist in a database that did not serve the floor.
"""

from __future__ import annotations

from django.db import connection, transaction
from drf_spectacular.utils import extend_schema
from psycopg.types.json import Jsonb
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.errors import Conflict, Invalid

TABLES = (
    "CREATE TABLE IF NOT EXISTS bench_floor_head (account_id bigint PRIMARY KEY, seq integer NOT NULL); "
    "CREATE TABLE IF NOT EXISTS bench_floor_event (position bigserial PRIMARY KEY, account_id bigint NOT NULL, "
    "seq integer NOT NULL, data jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(), "
    "UNIQUE (account_id, seq))"
)
_ready = False


def floor_tables_create() -> None:
    """Idempotent; a lock makes concurrent first calls of several workers wait for each other."""
    global _ready
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(hashtext('bench_floor'))")
        cur.execute(TABLES)
    _ready = True


class FloorIntentView(APIView):
    """``POST /api/v1/bench/floor {"seq", ...}`` → ``{"accepted": true, "seq"}`` (409 on a stale seq).

    Decision: no rate limit — the floor is the issue's list (body, token read, locked read,
    INSERT, UPDATE, commit) and nothing more; what the real intents spend on their rate limit
    counts against them."""

    throttle_classes: list = []

    @extend_schema(exclude=True)
    def post(self, request):
        body = request.data
        seq = body.get("seq") if isinstance(body, dict) else None
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise Invalid("seq must be an integer")
        if not _ready:
            floor_tables_create()
        account = request.user.pk
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("SELECT seq FROM bench_floor_head WHERE account_id = %s FOR UPDATE", [account])
            row = cur.fetchone()
            if row is None:  # the account's first call: its head row (once per account)
                cur.execute("INSERT INTO bench_floor_head VALUES (%s, 0) ON CONFLICT DO NOTHING", [account])
                cur.execute("SELECT seq FROM bench_floor_head WHERE account_id = %s FOR UPDATE", [account])
                row = cur.fetchone()
            if seq != row[0]:
                raise Conflict(f"stale seq {seq}", details={"seq": row[0]})
            cur.execute(
                "INSERT INTO bench_floor_event (account_id, seq, data) VALUES (%s, %s, %s)",
                [account, seq + 1, Jsonb(body)],
            )
            cur.execute("UPDATE bench_floor_head SET seq = %s WHERE account_id = %s", [seq + 1, account])
        return Response({"accepted": True, "seq": seq + 1})
