"""``ReplicaReads``: the mixin of the views whose GET reads tolerate lag (rivals.replica).

    class RankingView(ReplicaReads, APIView): ...

Authentication, permissions and throttles run first, on the primary (a token just issued is
there); then the handler's reads may go to the replica (``routing.begin_replica_reads``). If the
replica fails under the handler (``routing.replica_failure``: down — then it is left out for the
retry delay — or refusing one query), the handler runs again with every read on the primary: an
eligible GET only reads, and what it applies on read (time's decisions) is idempotent — and once
it wrote, its reads were on the primary already.
"""

from __future__ import annotations

import logging

from rivals.replica import routing

log = logging.getLogger("rivals.replica")


class ReplicaReads:
    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if request.method in ("GET", "HEAD"):
            routing.begin_replica_reads(request.user)

    def handle_exception(self, exc):
        failure = routing.replica_failure(exc)
        if failure:
            from rivals.replica.health import health

            request = self.request
            why = " ".join(str(exc).split()) or type(exc).__name__
            log.warning(
                "the replica failed during %s %s (%s): read again from the primary", request.method, request.path, why
            )
            if failure == "down":
                health().failed(exc)
            routing.primary_only()
            try:
                return getattr(self, request.method.lower())(request, *self.args, **self.kwargs)
            except Exception as again:  # answered as any error of the view
                exc = again
        return super().handle_exception(exc)
