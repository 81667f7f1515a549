"""The cache every process of an installation shares (``settings.CACHES``): rate-limit counters
(R-38, ``rivals.api.throttling``), mail budgets (``rivals.accounts.emails``), replica marks.

``CACHE_URL`` names it — production: Redis (``redis://host:6379/1``). Without it (``make run``, a
single host), the UNLOGGED table ``rivals_cache`` of the service's own database
(``rivals.cache.PostgresCache``, migration 0016): never a per-process memory cache, under which
each of ``make run``'s web workers kept counters of its own and the stated limits (docs/security.md) held per
worker (issue 31). ``MAX_ENTRIES`` is so high that Django's cull — which, past it, deletes a third
of the *live* keys too — never runs; expired rows are pruned by ``window_hit``.
"""

from __future__ import annotations

TABLE = "rivals_cache"


def install(env) -> dict:
    if env.str("CACHE_URL", default=""):
        return {"default": env.cache_url("CACHE_URL")}
    return {"default": {"BACKEND": "rivals.cache.PostgresCache", "LOCATION": TABLE, "OPTIONS": {"MAX_ENTRIES": 10**9}}}
