"""The single exception handler: every error body is ``{"error": {"code", "message", "details"}}``.

Beyond DRF's own exceptions and the domain errors it maps:
- a lost or refused database connection (``OperationalError`` / ``InterfaceError``: the server is
  down, restarting, or refuses connections) is 503 ``unavailable`` with ``Retry-After`` — the
  request changed nothing (its transaction died with the connection) and may be sent again;
- a lock conflict that the service's own retries did not cure (a deadlock, a serialization
  failure, a lock timeout: ``rivals.concurrency``) is 409 ``conflict`` with ``Retry-After: 1`` —
  another transaction got there first; it is never taken for an outage;
- a ``DataError`` (a value PostgreSQL refuses: out of range, too long, unstorable text) can only
  come from client data that slipped past validation: 400 ``invalid``, logged as a warning so the
  missing validation gets written.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from rivals.errors import DomainError

log = logging.getLogger(__name__)

_CODES = {
    exceptions.ParseError: "invalid",
    exceptions.ValidationError: "invalid",
    exceptions.UnsupportedMediaType: "invalid",
    exceptions.NotAcceptable: "invalid",
    exceptions.NotAuthenticated: "unauthenticated",
    exceptions.AuthenticationFailed: "unauthenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.Throttled: "throttled",
}


RETRY_AFTER_S = 5  # what a client waits before sending a request again after a 503


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(code: str, message: str, http_status: int, details: dict | None = None, headers=None) -> Response:
    return Response(error_body(code, message, details), status=http_status, headers=headers)


def database_unavailable(exc) -> bool:
    """True for connection-level database errors (the server is down, restarting, refusing) —
    not for a lock conflict between transactions (``rivals.concurrency``)."""
    import psycopg

    from rivals.concurrency import lock_conflict

    outage = isinstance(exc, (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError))
    return outage and not lock_conflict(exc)


def unavailable() -> tuple[dict, dict]:
    """Body and headers of the 503 answer to a database outage."""
    return (
        error_body(
            "unavailable", "the service is briefly unavailable; retry shortly", {"retry_after_s": RETRY_AFTER_S}
        ),
        {"Retry-After": str(RETRY_AFTER_S)},
    )


def field_errors(detail, prefix: str = "") -> dict[str, list[str]]:
    """A DRF validation error's detail as ``invalid``'s details say (``rivals.api.error_details``):
    each refused field — a nested one by its path, ``tiles.1`` — with its messages."""
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            out.update(field_errors(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(detail, list) and any(isinstance(item, dict | list) for item in detail):
        out = {}
        for i, item in enumerate(detail):
            if item:
                out.update(field_errors(item, f"{prefix}.{i}" if prefix else str(i)))
        return out
    messages = detail if isinstance(detail, list) else [detail]
    return {prefix or "non_field_errors": [str(m) for m in messages]}


def _message(detail) -> str:
    if isinstance(detail, list) and detail:
        return _message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        return f"{key}: {_message(value)}"
    return str(detail)


def api_exception_handler(exc, context):
    from rivals.concurrency import lock_conflict

    if lock_conflict(exc):
        log.warning("lock conflict not cured by retries: %s", exc)
        return error_response(
            "conflict",
            "a concurrent change got there first; send the request again",
            status.HTTP_409_CONFLICT,
            {"retry_after_s": 1},
            headers={"Retry-After": "1"},
        )
    if database_unavailable(exc):
        log.warning("database unavailable: %s", exc)
        body, headers = unavailable()
        return Response(body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers=headers)
    if isinstance(exc, DataError):
        log.warning("client data refused by the database (validation missing?)", exc_info=exc)
        return error_response("invalid", "a value is out of range or not storable", status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DomainError):
        retry = exc.details.get("retry_after_s") if exc.status_code == 429 else None
        headers = {"Retry-After": str(retry)} if retry is not None else None
        return error_response(exc.code, exc.message, exc.status_code, exc.details, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        return error_response("invalid", "request body too large", status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, SuspiciousOperation):
        return error_response("invalid", str(exc) or "bad request", status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=exc.messages)
    if isinstance(exc, exceptions.APIException):
        code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "invalid")
        headers = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))
        details = field_errors(exc.detail) if isinstance(exc, exceptions.ValidationError) else {}
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            details = {"retry_after_s": int(exc.wait)}
        status_code = exc.status_code
        if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
            status_code = status.HTTP_401_UNAUTHORIZED
        return error_response(code, _message(exc.detail), status_code, details, headers=headers)
    return None  # a real server error: let Django log it and answer 500
