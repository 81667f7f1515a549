"""Fixed-window rate limits (R-38: the server rate-limits clients).

DRF's stock throttles keep a sliding log of every request time per client in the cache and
rewrite it on each request: at thousands of requests a minute that list costs more CPU than the
game intent itself. A fixed window counts hits in one key per client and window, and allows at
most twice the rate across a window edge, which is fine for abuse control.

On Redis (production: ``CACHE_URL``) a hit is one round trip and one command — a small Lua script
(``INCR``, and ``EXPIRE`` on the window's first hit), sent by its SHA-1 once loaded — where Django's
cache API would take three (``SET NX``, then ``incr``'s ``EXISTS`` and ``INCRBY``) and build a
client object for each, and a pipeline of ``INCR`` + ``EXPIRE`` costs the client twice the work:
on the hot path of every intent (measured by tests/perf/load.py). Without ``CACHE_URL`` the cache
is a table of the service's database (``rivals.cache``): a hit is one atomic upsert there, shared
by every process (issue 31). Other caches use ``add`` + ``incr``.

Keys an attacker cannot forge or use against someone else (issue 19):
- the client's address is ``client_ip``: the connection's, or — only when that is one of the
  trusted proxies (``RIVALS_TRUSTED_PROXIES``) — the right-most address of ``X-Forwarded-For``
  that is not a trusted proxy. With no trusted proxy the header is ignored.
- per account, sign-ins and emails are limited per *account and address*: a stranger's wrong
  passwords or reset requests never use up the owner's (the owner signs in, and asks for a reset,
  from another address than the stranger's). Each address is limited on its own as well.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from functools import cache as memoized

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import SimpleRateThrottle

from rivals.text import mailbox


@memoized
def _trusted(proxies: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def _address(value: str):
    try:
        return ipaddress.ip_address(value.strip())
    except ValueError:
        return None


def client_ip(request) -> str:
    """The client's address as far as this service can trust it (module docstring)."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    networks = _trusted(tuple(settings.RIVALS_TRUSTED_PROXIES))
    if not networks:
        return remote

    def trusted(addr) -> bool:
        return addr is not None and any(addr in net for net in networks)

    if not trusted(_address(remote)):
        return remote
    client = remote
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        addr = _address(hop)
        if addr is None:  # garbage from beyond the proxies: the last trusted hop answers for it
            return client
        client = str(addr)
        if not trusted(addr):
            return client
    return client


# atomic on the server: a window's key always gets its expiry, however the client fails
_HIT = "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return n"


def window_hit(bucket: str, ttl: int) -> int:
    """Count one hit in ``bucket`` (expiring ``ttl`` s after its first hit: the window is fixed,
    its key outlives it by a second); the new count."""
    backend = caches["default"]  # one instance per thread
    if isinstance(backend, RedisCache):
        key = backend.make_and_validate_key(bucket)
        script = getattr(backend, "_window_script", None)
        if script is None:  # redis-py's Script: EVALSHA, loading the script again after a NOSCRIPT
            client = backend._cache.get_client(key, write=True)
            script = backend._window_script = client.register_script(_HIT)
        return script(keys=[key], args=[ttl])
    if hasattr(backend, "window_hit"):  # the database's (no CACHE_URL): one atomic statement
        return backend.window_hit(bucket, ttl)
    cache.add(bucket, 0, timeout=ttl)
    try:
        return cache.incr(bucket)
    except ValueError:  # expired between add and incr
        cache.set(bucket, 1, timeout=ttl)
        return 1


class FixedWindowThrottle(SimpleRateThrottle):
    def get_ident(self, request):
        return client_ip(request)

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


class _PerEmailAndIpThrottle(FixedWindowThrottle):
    """Per email address named in the body *and* client address — registered or not, so the
    limit reveals nothing, and a stranger's requests do not count against the owner's address.
    The address is hashed: cache keys never hold it."""

    def get_cache_key(self, request, view):
        data = request.data if isinstance(request.data, dict) else {}
        email = data.get("email")
        if not isinstance(email, str) or not email.strip():
            return None
        ident = hashlib.sha256(self.address_key(email).encode("utf-8", "replace")).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": f"{ident}:{self.get_ident(request)}"}

    def address_key(self, email: str) -> str:
        return email.strip().lower()


class LoginAccountThrottle(_PerEmailAndIpThrottle):
    """R-36: password attempts per account (its email) and client address: a stranger's wrong
    passwords never lock the owner out."""

    scope = "login_account"


class EmailSendThrottle(_PerEmailAndIpThrottle):
    """Requests that send an email (verification, reset), per *mailbox* and client address: the
    tags of one mailbox (``name+tag@``) are one. The mailbox itself receives at most so many
    emails of each kind, whoever asks (``rivals.accounts.emails``: its budgets): no mail bombing, and no
    answer that differs."""

    scope = "email_send"

    def address_key(self, email: str) -> str:
        return mailbox(email)
