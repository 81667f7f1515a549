from django.contrib import admin
from django.urls import include, path
from drf_spectacular.renderers import OpenApiJsonRenderer2
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularJSONAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from config.views import favicon, landing
from rivals.api.views_health import healthz

urlpatterns = [
    path("", landing, name="landing"),
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
