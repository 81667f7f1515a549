from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.urls import include, path, re_path
from drf_spectacular.renderers import OpenApiJsonRenderer2
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularJSONAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from config.views import favicon, landing
from rivals.api.views_health import healthz

# issue 33 moved these models out of the platform (``rivals``) into their rooms: an operator's
# bookmark of an old admin address is sent on to the new one, the object and the list's filters kept
MOVED_ADMIN_PAGES = {
    "game": "games",
    "level": "games",
    "levelbest": "games",
    "rejectedintent": "games",
    "pointsledgerentry": "points",
    "dailybonusclaim": "daily_bonus",
    "outboundemail": "accounts",
}


def moved_admin_page(request, model: str, rest: str):
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(
        f"/admin/{MOVED_ADMIN_PAGES[model]}/{model}/{rest}" + (f"?{query}" if query else "")
    )


urlpatterns = [
    path("", landing, name="landing"),
    re_path(rf"^admin/rivals/(?P<model>{'|'.join(MOVED_ADMIN_PAGES)})/(?P<rest>.*)$", moved_admin_page),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("play/", include("rivals.play.urls")),  # the reference client (issue 37)
    path("favicon.ico", favicon, name="favicon"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    # the same schema as application/json: a browser shows it instead of downloading it
    path(
        "api/schema.json", SpectacularJSONAPIView.as_view(renderer_classes=[OpenApiJsonRenderer2]), name="schema-json"
    ),
    path("api/v1/", include("rivals.api.urls")),
    path("api/v1/", include("rivals.accounts.urls")),
    path("api/v1/", include("rivals.daily_bonus.urls")),
    path("api/v1/", include("rivals.clubs.urls")),
    path("api/v1/", include("rivals.reports.urls")),
    path("api/v1/", include("rivals.purchases.urls")),
    path("api/v1/", include("rivals.games.urls")),
    path("api/v1/", include("rivals.sichuan.urls")),
    path("api/v1/", include("rivals.matches.urls")),
    path("api/v1/", include("rivals.ratings.urls")),
    path("api/v1/", include("rivals.live.urls")),
    path("api/v1/", include("rankings.urls")),
    path("api/v1/", include("tournaments.urls")),
]

handler404 = "rivals.api.views_errors.not_found"
handler500 = "rivals.api.views_errors.server_error"
