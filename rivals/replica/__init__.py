"""The read replica: public reads that tolerate lag are served by a streaming replica of the
primary; everything else — and every read that follows the caller's own write — by the primary.

Off unless ``DATABASE_REPLICA_URL`` is set (config/settings.py): then the ``replica`` alias, this
package's database backend for both aliases, the router and the middleware are installed; unset,
nothing of it runs and every query goes to the primary as before.

Which reads: the GET (and HEAD) handlers of views that take ``ReplicaReads`` (rivals.replica.views)
— rankings pages, public profiles, player search, tournament lists and pages, pot lists and pages,
level leaderboards. Their ORM queries are routed by ``ReplicaRouter``; their raw SQL asks
``for_read()`` for its connection. Authentication, permissions and throttles run before (on the
primary); writes always go to the primary.

When the replica may answer an eligible read (``routing.begin_replica_reads``), all of:

1. **Healthy** (``health.py``): it answered the last sample (a refused connection or any error
   keeps it out for ``DATABASE_REPLICA_RETRY_S``) and it is confirmed to hold the primary's state
   of at most ``DATABASE_REPLICA_MAX_LAG_S`` ago. Sampled at most every ``DATABASE_REPLICA_CHECK_S``
   per process by the request that finds a sample due: the primary's WAL write position
   ``pg_current_wal_lsn()`` with the wall-clock time taken just before it, and the replica's
   ``pg_last_wal_replay_lsn()``. The replica's *horizon* is the time of the newest sample whose
   position it has replayed.
2. **Not after the caller's own write** (``marks.py``): every request that may have written —
   any method but GET/HEAD/OPTIONS, or a safe one that committed on the primary — leaves a mark
   in the shared cache, ``until`` = a time after its writes finished. An authenticated caller's
   eligible read goes to the replica only if the replica's horizon is past the caller's mark.
3. **Not after a write of the same request**: a commit on the primary (the backend's ``_commit``,
   raw SQL included) or an ORM write (``db_for_write``) sends the rest of the request's reads to
   the primary, and a read inside a transaction is the primary's (it must see what the
   transaction wrote and locked): time applied on read — a tournament started, a pot finalized,
   the AMR window rolled — is shown as written. (A raw-SQL write in autocommit, outside any
   transaction, would not be seen: the service has none; write inside ``transaction.atomic``.)
   What such a read decides from the replica is decided again under the row lock on the
   primary (every service that applies time is idempotent): a replica behind can make a read
   try something already done (a no-op); what the read shows is a state of at most the lag
   bound ago with what time decided on it applied.

The consistency argument (read-your-writes). A write's commit returns only once its commit record
is flushed (``synchronous_commit = on``, PostgreSQL's default, which the service never turns off
for requests), so ``pg_current_wal_lsn()`` read after the commit returned is past that record. A
sample taken at time ``t`` therefore covers every transaction that had committed before ``t``; once
the replica has replayed that sample's position, a new snapshot on it sees all of them (a hot
standby makes a transaction visible when it replays its commit record). The caller's mark
``until`` is later than the end of its writes, so "horizon ≥ until" means a sample taken after the
caller's writes finished has been replayed: the replica holds them. Conservative, never stale:
without a mark (anonymous, or no recent write) a read may be up to the lag bound old, which is
what "tolerates lag" means. Marks are coalesced (at most one cache write per account per process
each half of ``MARK_S``; the hot path of intents pays a dictionary look-up, no database statement)
and survive web nodes whose clocks differ by less than ``MARK_S / 2``; a mark outlives its use by
construction (its time to live is ``MARK_S`` + the lag bound: afterwards any usable replica is past
it). Writes made for a player by others (a round ended by the worker) are not the caller's own:
they reach the caller's public reads within the lag bound.

A replica that fails during a request — no answer (a refused or broken connection, a server
shutting down or starting up: then it is marked down) or an error the primary would not give (a
query cancelled by a recovery conflict, a schema not yet replayed) — has the view's handler run
again on the primary: the client gets its answer, never a 5xx for the replica's sake.
"""

from rivals.replica.routing import REPLICA, acted_for, for_read

__all__ = ["REPLICA", "acted_for", "for_read"]
