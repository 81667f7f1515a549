"""The landing page at ``/``: what this is and where to go (the admin's "View site" links here);
the favicon browsers ask for on every page (issue 40: not a 404 and its log line each time)."""

from django.http import HttpResponse
from django.shortcuts import render

# a mahjong tile: ivory face, a red circle (SVG: every browser the admin supports draws it)
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect x="5" y="2" width="22" height="28" rx="4" fill="#f7f1e1" stroke="#2f5d50" stroke-width="2"/>'
    '<circle cx="16" cy="16" r="6" fill="none" stroke="#b3261e" stroke-width="3"/></svg>'
)


def landing(request):
    return render(request, "landing.html")


def favicon(request):
    return HttpResponse(FAVICON, content_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})
