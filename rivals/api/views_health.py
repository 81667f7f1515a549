"""``/healthz``: database and broker reachability, for load balancers, and the job pipeline's
health, for monitoring (issue 40: an answer that tells the truth).

- **503**, ``"status": "down"`` (and ``Retry-After``), when the database or the broker does not
  answer: this process cannot serve — a load balancer takes it out of rotation.
- **200**, ``"status": "degraded"``, when it can serve but a part behind it is not well —
  ``"degraded"`` names which: ``heartbeat`` (the pipeline beat → broker → worker → database has
  not beaten for three intervals, or never), ``jobs`` (a periodic job is late beyond its interval,
  paused by an operator, or its last run failed: ``"jobs"`` names them). Decision: not a 503 — a
  load balancer would take healthy web processes out of service for a stopped worker; monitoring
  alerts on ``status``.
- **200**, ``"status": "ok"`` otherwise.
"""

from django.db import connection
from django.http import JsonResponse


def _database() -> str:
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # a health check reports, it does not raise
        return f"error: {exc.__class__.__name__}"


def _broker() -> str:
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return "ok"
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"


def _heartbeat(database: str) -> dict:
    from rivals.system import heartbeat_status

    if database != "ok":
        return {"status": "unknown"}
    try:
        return heartbeat_status()
    except Exception as exc:
        return {"status": f"error: {exc.__class__.__name__}"}


def _jobs(database: str) -> dict:
    from rivals.system import jobs_status

    if database != "ok":
        return {"status": "unknown"}
    try:
        jobs = jobs_status()
    except Exception as exc:
        return {"status": f"error: {exc.__class__.__name__}"}
    return {"status": "ok" if not any(jobs.values()) else "degraded", **jobs}


def healthz(request):
    checks = {"database": _database(), "broker": _broker()}
    up = all(v == "ok" for v in checks.values())
    parts = {"heartbeat": _heartbeat(checks["database"]), "jobs": _jobs(checks["database"])}
    degraded = [name for name, part in parts.items() if part["status"] != "ok"]
    status = "down" if not up else "degraded" if degraded else "ok"
    body = {"status": status, **checks, **parts, "degraded": degraded if up else []}
    return JsonResponse(body, status=200 if up else 503, headers=None if up else {"Retry-After": "5"})
