"""One active beat (issue 26, "Topology"): django-celery-beat's ``DatabaseScheduler`` behind a
leader lock.

A beat leads while it holds a session advisory lock of PostgreSQL on a direct connection of its
own (rivals/direct.py: never through a pooler in transaction mode, where a session lock would
stay on whichever server connection took it). A second beat — started by mistake, or a standby
kept ready on another host — finds the lock taken and waits: it reads no schedule, writes no
row and sends nothing, and tries the lock again every ``STANDBY_POLL_S``. When the leader's
process or host dies its connection closes, the server releases the lock, and the standby takes
over from the schedule's rows as the leader left them (``last_run_at``).

Every periodic job is idempotent besides (the guide: exactly-once from the database), so even
the moment two beats could both send — a leader whose connection broke sending until its next
tick finds out — doubles at most a no-op.
"""

from __future__ import annotations

import logging
import time

from django_celery_beat.schedulers import DatabaseScheduler

log = logging.getLogger("config.beat")

LOCK = (0x42454154, 1)  # ("BEAT", 1)
STANDBY_POLL_S = 2.0


class LeaderScheduler(DatabaseScheduler):
    def __init__(self, *args, **kwargs):
        self.leading = False
        self.sent = 0  # tasks sent by this beat (counted in apply_async)
        self.lock_conn = None
        self.standby_since = None
        super().__init__(*args, **kwargs)

    # --- the lock -------------------------------------------------------------------------

    def _try_lead(self) -> bool:
        """Take the leader's lock if it is free (a new direct connection when the last one broke)."""
        import psycopg

        from rivals import direct

        try:
            if self.lock_conn is None or self.lock_conn.closed or self.lock_conn.broken:
                self.lock_conn = direct.connect(application_name="rivals-beat", connect_timeout=5)
            got = self.lock_conn.execute("SELECT pg_try_advisory_lock(%s, %s)", list(LOCK)).fetchone()[0]
        except psycopg.Error:
            log.warning("beat: the database is unreachable; not leading", exc_info=True)
            self._drop_connection()
            return False
        if got:
            log.warning("beat: leading (session advisory lock %s on a direct connection)", LOCK)
        elif self.standby_since is None:
            self.standby_since = time.monotonic()
            log.warning("beat: standby — another beat leads (advisory lock %s); sending nothing", LOCK)
        return got

    def _still_leading(self) -> bool:
        """The lock lives as long as its connection: a round trip proves both."""
        import psycopg

        try:
            self.lock_conn.execute("SELECT 1")
            return True
        except (psycopg.Error, AttributeError):
            log.warning("beat: lost the leader's connection; standby until the lock is free again")
            self._drop_connection()
            return False

    def _drop_connection(self) -> None:
        if self.lock_conn is not None:
            try:
                self.lock_conn.close()
            except Exception:  # already broken
                pass
        self.lock_conn = None

    def _become_leader(self) -> None:
        """Read the schedule afresh (the last leader's runs are in its rows) and set it up."""
        self.leading, self.standby_since = True, None
        self._initial_read, self._schedule, self._heap = True, None, None
        super().setup_schedule()

    # --- the scheduler ----------------------------------------------------------------------

    def setup_schedule(self):
        if self._try_lead():
            self._become_leader()

    def tick(self, *args, **kwargs):
        if self.leading and not self._still_leading():
            self.leading = False
        if not self.leading:
            if not self._try_lead():
                return STANDBY_POLL_S
            self._become_leader()
        return super().tick(*args, **kwargs)

    def apply_async(self, entry, producer=None, advance=True, **kwargs):
        result = super().apply_async(entry, producer=producer, advance=advance, **kwargs)
        self.sent += 1
        self._record_sent(entry)
        return result

    def _record_sent(self, entry) -> None:
        """The job's row says when beat sent it now, not at the next sync (every 3 minutes): the
        jobs page's "last sent" is true (issue 40). A plain UPDATE of one column: no change
        signal, the schedule is not read again."""
        from django.db import Error, close_old_connections
        from django.utils import timezone
        from django_celery_beat.models import PeriodicTask

        try:
            PeriodicTask.objects.filter(name=entry.name).update(last_run_at=timezone.now())
        except Error:  # the sync writes it later; a record must never stop the sending
            log.warning("beat: could not record the send of %s", entry.name, exc_info=True)
            close_old_connections()  # a connection broken by a database restart is replaced next time

    def sync(self):
        if self.leading:  # a standby has nothing of its own to write
            super().sync()

    def close(self):
        """Called by beat's service at its stop (and again at exit): the count once, the lock freed."""
        if getattr(self, "_closed", False):
            return
        try:
            super().close()
        finally:
            log.warning("beat: stopping; sent %d tasks (%s)", self.sent, "leader" if self.leading else "standby")
            self._drop_connection()
            self.leading, self._closed = False, True
