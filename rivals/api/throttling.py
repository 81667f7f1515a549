"""Fixed-window rate limits (R-38: the server rate-limits clients).

DRF's stock throttles keep a sliding log of every request time per client in the cache and
rewrite it on each request: at thousands of requests a minute that list costs more CPU than the
game intent itself. A fixed window counts hits in one key per client and window, and allows at
most twice the rate across a window edge, which is fine for abuse control.

On Redis (production: ``CACHE_URL``) a hit is one round trip — ``INCR`` and ``EXPIRE`` in one
pipeline — where Django's cache API would take three (``SET NX``, then ``incr``'s ``EXISTS`` and
``INCRBY``) and build a client object for each: on the hot path of every intent (measured by
tests/perf/load.py). Other caches (the per-process default) use ``add`` + ``incr``.
"""

from __future__ import annotations

import time

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import SimpleRateThrottle


def window_hit(bucket: str, ttl: int) -> int:
    """Count one hit in ``bucket`` (expiring ``ttl`` s after the last hit); the new count."""
    backend = caches["default"]  # one instance per thread
    if isinstance(backend, RedisCache):
        key = backend.make_and_validate_key(bucket)
        client = getattr(backend, "_window_client", None)
        if client is None:
            client = backend._window_client = backend._cache.get_client(key, write=True)
        pipe = client.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, ttl)
        return pipe.execute()[0]
    cache.add(bucket, 0, timeout=ttl)
    try:
        return cache.incr(bucket)
    except ValueError:  # expired between add and incr
        cache.set(bucket, 1, timeout=ttl)
        return 1


class FixedWindowThrottle(SimpleRateThrottle):
    def allow_request(self, request, view):
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        window = int(time.time() // self.duration)
        count = window_hit(f"{key}:{window}", int(self.duration) + 1)
        self._wait = (window + 1) * self.duration - time.time()
        return count <= self.num_requests

    def wait(self):
        return max(0.0, getattr(self, "_wait", 0.0))


class AnonThrottle(FixedWindowThrottle):
    scope = "anon"

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserThrottle(FixedWindowThrottle):
    scope = "user"

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            ident = request.user.pk
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LoginIpThrottle(FixedWindowThrottle):
    """R-36: sign-in and credential requests per client IP."""

    scope = "login_ip"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class _PerEmailThrottle(FixedWindowThrottle):
    """Per email address named in the body — registered or not, so the limit reveals nothing.
    The address is hashed: cache keys never hold it."""

    def get_cache_key(self, request, view):
        import hashlib

        data = request.data if isinstance(request.data, dict) else {}
        email = data.get("email")
        if not isinstance(email, str) or not email.strip():
            return None
        ident = hashlib.sha256(email.strip().lower().encode("utf-8", "replace")).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LoginAccountThrottle(_PerEmailThrottle):
    """R-36: password attempts per account (its email)."""

    scope = "login_account"


class EmailSendThrottle(_PerEmailThrottle):
    """Emails the API sends to one address (verification, reset): no mail bombing."""

    scope = "email_send"
