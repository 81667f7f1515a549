"""Where a query goes: the request's routing state (a context variable set by
``ReplicaMiddleware``), the database router, and the connection raw SQL reads from.

A request starts on the primary. ``begin_replica_reads`` (called by ``ReplicaReads`` once the
caller is known) turns the replica on for the rest of the handler when the replica is healthy and
past the caller's last write; the first write of the request turns it off again for good
(``wrote``). Outside a request (Celery tasks, management commands, the shell) there is no state:
everything is the primary's.
"""

from __future__ import annotations

import contextvars

from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"
SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))


class RequestRouting:
    """One request's routing: ``replica`` — its reads may go to the replica now; ``wrote`` — it
    committed (or began a write) on the primary; ``accounts`` — accounts it wrote for that are
    not ``request.user`` (a sign-in's new token: ``acted_for``)."""

    __slots__ = ("replica", "wrote", "accounts")

    def __init__(self) -> None:
        self.replica = False
        self.wrote = False
        self.accounts: list[int] = []


_routing: contextvars.ContextVar[RequestRouting | None] = contextvars.ContextVar("rivals_replica", default=None)


def read_alias() -> str:
    """The alias a read of this moment goes to."""
    state = _routing.get()
    if state is None or not state.replica:
        return DEFAULT_DB_ALIAS
    if connections[DEFAULT_DB_ALIAS].in_atomic_block:  # a transaction reads what it wrote and locked
        return DEFAULT_DB_ALIAS
    return REPLICA


def for_read():
    """The connection a raw-SQL read uses (``for_read().cursor()``): the replica inside an
    eligible read, else the primary — the ORM's reads are routed the same way by the router."""
    return connections[read_alias()]


def wrote() -> None:
    """The request wrote (or is about to) on the primary: its reads stay there from now on, and
    its caller is marked when it ends. Called by the backend at every commit of the primary, and
    by the router for every ORM write."""
    state = _routing.get()
    if state is not None:
        state.wrote = True
        state.replica = False


def acted_for(account_id: int) -> None:
    """The request wrote for an account that is not its caller (a sign-in: the account is
    ``request.user`` only from its next request on): that account is marked too."""
    state = _routing.get()
    if state is not None:
        state.accounts.append(account_id)


def primary_only() -> None:
    """The rest of this request reads the primary (the replica failed under it)."""
    state = _routing.get()
    if state is not None:
        state.replica = False


def begin_replica_reads(user) -> bool:
    """Let the rest of this request's handler read the replica, if it may (the package's
    docstring: healthy, past the caller's last write, nothing written by this request yet)."""
    state = _routing.get()
    if state is None or state.wrote:
        return False
    from rivals.replica import marks
    from rivals.replica.health import health

    horizon = health().horizon()
    if horizon is None:
        return False
    if getattr(user, "is_authenticated", False) and not marks.replica_has_writes_of(user.pk, horizon):
        return False
    state.replica = True
    return True


def replica_failure(exc: BaseException) -> str | None:
    """How the replica failed, for an error its connection raised (marked by the backend,
    rivals.replica.base): ``"down"`` — no answer from it (refused, connection lost, shutting down
    or starting up: no SQLSTATE, class 08 or 57P); ``"query"`` — it answered this query with an
    error that the primary would not give (a statement cancelled by a recovery conflict, a schema
    it has not replayed yet); None — not the replica's, or bad data the primary refuses alike."""
    from django.db import DatabaseError, DataError, IntegrityError

    if not getattr(exc, "rivals_replica", False) or not isinstance(exc, DatabaseError):
        return None
    if isinstance(exc, DataError | IntegrityError):
        return None
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    return "down" if sqlstate is None or sqlstate.startswith(("08", "57P")) else "query"


class ReplicaRouter:
    """Reads where ``read_alias`` says, writes to the primary (always an alias, never None: Django
    would otherwise send the save of an instance read from the replica back to the replica)."""

    def db_for_read(self, model, **hints):
        return read_alias()

    def db_for_write(self, model, **hints):
        wrote()
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True  # one database, two copies of it

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS  # the replica gets its schema by replication
