"""Request-scoped metadata that the event store copies into every event's ``metadata``.

Only server-made values (issue 19): the request id is generated here for every request (a
client's ``X-Request-ID`` is logged, bounded and sanitised, and never stored in an event), and the
idempotency key is set by ``rivals.api.idempotency`` — as a keyed fingerprint, and only while an
idempotent operation runs with one.
"""

from __future__ import annotations

import contextvars
import logging
import re
import uuid

log = logging.getLogger("rivals.requests")

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
idempotency_key: contextvars.ContextVar[str | None] = contextvars.ContextVar("idempotency_key", default=None)

CLIENT_REQUEST_ID_MAX = 64
_NOT_ID = re.compile(r"[^A-Za-z0-9._:-]")


def client_request_id(value: str) -> str:
    """A client's ``X-Request-ID`` as it may appear in a log line: at most 64 characters of
    ``[A-Za-z0-9._:-]`` (anything else becomes ``_``)."""
    return _NOT_ID.sub("_", value[:CLIENT_REQUEST_ID_MAX])


class RequestContextMiddleware:
    """Gives every request a server-made id, answers it in ``X-Request-ID`` and logs the client's
    own id beside it (debug level) so the two can be matched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        rid = uuid.uuid4().hex
        client_rid = request.headers.get("X-Request-ID")
        if client_rid:
            log.debug("request %s: client request id %s", rid, client_request_id(client_rid))
        token = request_id.set(rid)
        key_token = idempotency_key.set(None)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
            idempotency_key.reset(key_token)
        response["X-Request-ID"] = rid
        return response
