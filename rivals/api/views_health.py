"""``/healthz``: database and broker reachability, for load balancers and operators."""

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


def healthz(request):
    checks = {"database": _database(), "broker": _broker()}
    ok = all(v == "ok" for v in checks.values())
    return JsonResponse({"status": "ok" if ok else "degraded", **checks}, status=200 if ok else 503)
