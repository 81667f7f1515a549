"""The read replica's settings (rivals/replica), installed by config/settings.py when
``DATABASE_REPLICA_URL`` is set: the ``replica`` alias, this project's backend on both aliases
(Django's PostgreSQL backend that reports the primary's commits and marks the replica's errors),
the routing middleware; returns ``DATABASE_ROUTERS``."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured


def install(env, url: str, databases: dict, middleware: list[str], *, production: bool) -> list[str]:
    if production and not env.str("CACHE_URL", default=""):
        # the callers' marks (rivals/replica/marks.py) must be seen by every web process
        raise ImproperlyConfigured("DATABASE_REPLICA_URL needs CACHE_URL: a cache every web process shares (Redis)")
    primary = databases["default"]
    replica = databases["replica"] = env.db_url_config(url)
    options = replica.setdefault("OPTIONS", {})
    options.setdefault("prepare_threshold", primary["OPTIONS"]["prepare_threshold"])
    options.setdefault("connect_timeout", 2)  # a replica host that is gone costs a read 2 s, once per retry delay
    replica["CONN_MAX_AGE"] = primary["CONN_MAX_AGE"]
    replica["CONN_HEALTH_CHECKS"] = True
    replica["TEST"] = {"MIRROR": "default"}  # no test database of its own
    primary["ENGINE"] = replica["ENGINE"] = "rivals.replica"
    middleware.insert(
        middleware.index("rivals.context.RequestContextMiddleware") + 1, "rivals.replica.middleware.ReplicaMiddleware"
    )
    return ["rivals.replica.routing.ReplicaRouter"]
