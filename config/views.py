"""The landing page at ``/``: what this is and where to go (the admin's "View site" links here)."""

from django.shortcuts import render


def landing(request):
    return render(request, "landing.html")
