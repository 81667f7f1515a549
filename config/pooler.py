"""A pooler in front of PostgreSQL (deploy/topology/pgbouncer.ini; README "Topology"), installed
by config/settings.py.

``DATABASE_POOLER=transaction``: ``DATABASE_URL`` is PgBouncer in ``pool_mode = transaction``,
which lends a server connection for one transaction at a time. Then:

- **Prepared statements**: PgBouncer before 1.21 (Debian 12 ships 1.18) does not carry
  protocol-level prepared statements from one server connection to the next, so psycopg must never
  prepare (``prepare_threshold = None``; the hot path's server-side binding stays: an unnamed
  statement lives for one round trip). With PgBouncer ≥ 1.21 and ``max_prepared_statements`` set,
  ``DATABASE_POOLER_PREPARED=1`` keeps ``DATABASE_PREPARE_THRESHOLD``.
- **Server-side cursors** (``QuerySet.iterator()`` outside a transaction) are off
  (``DISABLE_SERVER_SIDE_CURSORS``): a cursor declared in one transaction is gone in the next.
- **What needs a session** goes to ``DATABASE_DIRECT_URL`` (required then: the server itself, or
  a pool of PgBouncer's in session mode) through rivals/direct.py: session advisory locks (the
  live relay's, beat's leader lock, the rebuild's), ``LISTEN`` (the PostgreSQL channel layer), and
  the live room's prepared, generically planned reads. Migrations and ``rebuild_projections`` are
  run with ``DATABASE_URL`` set to the direct URL (deploy/README.md).
- Parameters PgBouncer tracks per client (``TimeZone``, ``application_name``, ``DateStyle``,
  ``client_encoding``) may be set by Django on connect as usual.

Without a pooler, ``DATABASE_DIRECT_URL`` is optional (the default alias's own parameters).
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

MODES = ("", "session", "transaction")


def install(env, databases: dict) -> tuple[str, str]:
    """Adjusts ``databases["default"]`` for the pooler; returns (DATABASE_POOLER, DATABASE_DIRECT_URL)."""
    mode = env.str("DATABASE_POOLER", default="").strip().lower()
    direct = env.str("DATABASE_DIRECT_URL", default="")
    if mode not in MODES:
        raise ImproperlyConfigured(f"DATABASE_POOLER must be one of {', '.join(repr(m) for m in MODES)}: {mode!r}")
    if mode != "transaction":
        return mode, direct
    if not direct:
        raise ImproperlyConfigured(
            "DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL: session advisory locks and LISTEN "
            "must not go through the pooler (config/pooler.py)"
        )
    default = databases["default"]
    default["DISABLE_SERVER_SIDE_CURSORS"] = True
    if not env.bool("DATABASE_POOLER_PREPARED", default=False):
        default["OPTIONS"]["prepare_threshold"] = None
    return mode, direct
