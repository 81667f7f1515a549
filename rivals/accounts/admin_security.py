"""The admin's sign-in: throttled and audited (issue 19).

- Throttled: sign-in attempts (POSTs to ``/admin/login/``) per client address
  (``THROTTLE_ADMIN_LOGIN_IP``) and per username and client address
  (``THROTTLE_ADMIN_LOGIN_USER``), fixed windows in the shared cache like the API's
  (``rivals.api.throttling``, ``client_ip`` honours ``RIVALS_TRUSTED_PROXIES`` only); beyond, 429
  with ``Retry-After`` and no password checked.
- Audited: a sign-in to the admin is ``AdminSignedIn`` on the operator's account stream, a wrong
  password for an existing account ``AdminSignInFailed`` (no password, no address in either); an
  unknown username and a throttled attempt are logged (``rivals.security``) with a keyed
  fingerprint of the username, never the username itself.
"""

from __future__ import annotations

import functools
import logging
import time

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.http import HttpResponse

from rivals.api.throttling import client_ip, window_hit
from rivals.secrets import fingerprint

log = logging.getLogger("rivals.security")
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _rate(rate: str) -> tuple[int, int]:
    count, period = rate.split("/")
    return int(count), _PERIODS[period[0]]


def _over(bucket: str, rate: str) -> float | None:
    """Count one attempt; the seconds to wait when over the rate, else None."""
    allowed, seconds = _rate(rate)
    window = int(time.time() // seconds)
    if window_hit(f"{bucket}:{window}", seconds + 1) <= allowed:
        return None
    return (window + 1) * seconds - time.time()


def admin_login_allowed(request) -> float | None:
    """None when this sign-in attempt may go on, else the seconds to wait."""
    ip = client_ip(request)
    user = fingerprint(str(request.POST.get("username", "")).strip().lower(), purpose="admin-username")
    waits = [
        _over(f"admin-login-ip:{ip}", settings.THROTTLE_ADMIN_LOGIN_IP),
        _over(f"admin-login-user:{user}:{ip}", settings.THROTTLE_ADMIN_LOGIN_USER),
    ]
    waits = [w for w in waits if w is not None]
    if not waits:
        return None
    log.warning("admin sign-in throttled (username fingerprint %s)", user[:12])
    return max(waits)


def _throttled(login_view):
    @functools.wraps(login_view)
    def view(request, extra_context=None):
        if request.method == "POST":
            wait = admin_login_allowed(request)
            if wait is not None:
                seconds = max(1, int(wait) + 1)
                return HttpResponse(
                    f"Too many sign-in attempts: try again in {seconds} seconds.\n",
                    status=429,
                    content_type="text/plain; charset=utf-8",
                    headers={"Retry-After": str(seconds)},
                )
        return login_view(request, extra_context)

    return view


def _from_admin(request) -> bool:
    return request is not None and request.path.startswith("/admin/")


def _signed_in(sender, request, user, **kwargs):
    if not _from_admin(request):
        return
    from rivals.accounts.events import admin_signed_in
    from rivals.accounts.services import account_event

    account_event(user, admin_signed_in(account_id=user.pk))


def _failed(sender, credentials, request=None, **kwargs):
    if not _from_admin(request):
        return
    from rivals.accounts.events import admin_sign_in_failed
    from rivals.accounts.services import account_event
    from rivals.models import Account

    username = str(credentials.get("username", ""))
    account = Account.objects.filter(username=username).first()
    if account is None:
        log.warning(
            "admin sign-in failed for an unknown username (fingerprint %s)",
            fingerprint(username.strip().lower(), purpose="admin-username")[:12],
        )
        return
    account_event(account, admin_sign_in_failed(account_id=account.pk), actor="anonymous")


def install() -> None:
    """Wrap the admin site's sign-in view and connect the audit (once, from ``rivals.admin``)."""
    if not getattr(admin.site.login, "_rivals_throttled", False):
        admin.site.login = _throttled(admin.site.login)
        admin.site.login._rivals_throttled = True
    user_logged_in.connect(_signed_in, dispatch_uid="rivals.accounts.admin_security.signed_in")
    user_login_failed.connect(_failed, dispatch_uid="rivals.accounts.admin_security.failed")
