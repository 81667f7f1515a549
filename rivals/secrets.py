"""How secrets are kept at rest: never in the clear (issue 19).

- API tokens and guest device ids are bearer secrets that the server only compares: the database
  keeps their SHA-256 (``secret_digest``), as Django keeps a password's hash. A token is 160
  random bits and a device id must carry at least as much (docs/security.md), so a fast hash is
  the right one — a slow password hash would cost every request its CPU for nothing.
- Values a client chose that may be personal or guessable (an ``Idempotency-Key``, a request's
  body) are kept, where they must be compared, as a keyed fingerprint (``fingerprint``: HMAC-SHA256
  under a key derived from ``SECRET_KEY``), so that a leaked table does not give them back even
  by guessing.
"""

from __future__ import annotations

import hashlib

from django.utils.crypto import salted_hmac


def secret_digest(value: str) -> str:
    """The SHA-256 (hex) under which a token or a device id is stored and looked up."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def token_ref(key: str) -> str:
    """How events and the admin name a token: the first 12 hex digits of its stored digest."""
    return secret_digest(key)[:12]


def fingerprint(value: str | bytes, *, purpose: str) -> str:
    """A keyed fingerprint (32 hex digits) of a client's value, for one ``purpose``."""
    data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
    return salted_hmac(f"rivals.fingerprint.{purpose}", data, algorithm="sha256").hexdigest()[:32]
