"""``/play/``: the reference client's one page. Everything after it is static files
(``rivals/play/static/play/``) and the public API; the page itself reads nothing of the database,
so it loads as fast as a static file.

Its Content-Security-Policy says what the client is: scripts, styles and images from this origin
only, requests to this origin and its live socket (``RIVALS_LIVE_URL`` when the socket is served
elsewhere) — nothing from another host, and no inline script that an injected text could run
next to the guest's token."""

from urllib.parse import urlsplit

from django.conf import settings
from django.shortcuts import render
from django.views.decorators.http import require_GET


def content_security_policy(request) -> str:
    live = settings.RIVALS.get("LIVE_URL") or ""
    sockets = f"{urlsplit(live).scheme}://{urlsplit(live).netloc}" if live else ""
    scheme = "wss" if request.is_secure() else "ws"
    connect = f"'self' {scheme}://{request.get_host()} {sockets}".strip()
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


@require_GET
def play(request):
    response = render(request, "play/index.html")
    response["Content-Security-Policy"] = content_security_policy(request)
    return response
