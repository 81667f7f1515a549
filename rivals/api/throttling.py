"""Fixed-window rate limits (R-38: the server rate-limits clients).

DRF's stock throttles keep a sliding log of every request time per client in the cache and
rewrite it on each request: at thousands of requests a minute that list costs more CPU than the
game intent itself. A fixed window costs one cache ``add`` + ``incr`` and allows at most twice
the rate across a window edge, which is fine for abuse control.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle


class FixedWindowThrottle(SimpleRateThrottle):
    def allow_request(self, request, view):
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        window = int(time.time() // self.duration)
        bucket = f"{key}:{window}"
        cache.add(bucket, 0, timeout=int(self.duration) + 1)
        try:
            count = cache.incr(bucket)
        except ValueError:  # expired between add and incr
            cache.set(bucket, 1, timeout=int(self.duration) + 1)
            count = 1
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
