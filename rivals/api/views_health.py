"""``/healthz``: database and broker reachability, for load balancers and operators.

The answer is 200 when the database and the broker answer, else 503. It also shows the last
heartbeat of the job pipeline (beat → broker → worker → database, once a minute): ``ok``,
``stale`` (three beats missed) or ``none``. Decision: a stale heartbeat does not turn the answer
into a 503 — a load balancer would take healthy web processes out of service for a stopped
worker; operators alert on ``heartbeat.status`` instead.
"""

from django.db import connection
from django.http import JsonResponse


def _database() -> str:
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # noqa: BLE001 - a health check reports, it does not raise
        return f"error: {exc.__class__.__name__}"


def _broker() -> str:
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return "ok"
    except Exception as exc:  # noqa: BLE001
        return f"error: {exc.__class__.__name__}"


def _heartbeat(database: str) -> dict:
    from rivals.system import heartbeat_status

    if database != "ok":
        return {"status": "unknown"}
    try:
        return heartbeat_status()
    except Exception as exc:  # noqa: BLE001
        return {"status": f"error: {exc.__class__.__name__}"}


def healthz(request):
    checks = {"database": _database(), "broker": _broker()}
    ok = all(v == "ok" for v in checks.values())
    body = {"status": "ok" if ok else "degraded", **checks, "heartbeat": _heartbeat(checks["database"])}
    return JsonResponse(body, status=200 if ok else 503, headers=None if ok else {"Retry-After": "5"})
