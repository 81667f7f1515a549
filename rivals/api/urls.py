"""The API's own routes (the feature packages have theirs, included by ``config.urls``): only the load
benchmark's floor, and only when ``RIVALS_BENCH_FLOOR`` is set (never in production)."""

from django.conf import settings
from django.urls import path

urlpatterns = []

if settings.RIVALS_BENCH_FLOOR:  # the load benchmark's floor (rivals/api/views_floor.py)
    from rivals.api.views_floor import FloorIntentView

    urlpatterns.append(path("bench/floor", FloorIntentView.as_view(), name="bench-floor"))
