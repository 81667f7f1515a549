"""The database backend of both aliases when a replica is configured (``ENGINE: "rivals.replica"``):
Django's PostgreSQL backend with two additions, neither a statement of its own.

- The primary's connection reports each commit to the request's routing (``routing.wrote``): a
  request that committed reads the primary from then on and marks its caller. A context variable
  read per commit, nothing per statement.
- The replica's connection marks the errors it raises (``rivals_replica``), connecting included,
  so that ``ReplicaReads`` can tell a replica that failed from a primary that did.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS
from django.db.backends.postgresql import base as postgresql
from django.db.utils import DatabaseErrorWrapper
from django.utils.functional import cached_property

from rivals.replica import routing


class ReplicaErrors(DatabaseErrorWrapper):
    def __exit__(self, exc_type, exc_value, traceback):
        try:
            return super().__exit__(exc_type, exc_value, traceback)
        except Exception as error:  # Django's error made from the driver's: marked, raised on
            error.rivals_replica = True
            raise


class DatabaseWrapper(postgresql.DatabaseWrapper):
    @cached_property
    def wrap_database_errors(self):
        return ReplicaErrors(self) if self.alias == routing.REPLICA else DatabaseErrorWrapper(self)

    def _commit(self):
        if self.alias == DEFAULT_DB_ALIAS:
            routing.wrote()  # before: a commit whose answer is lost may have happened
        return super()._commit()
