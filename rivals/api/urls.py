from django.conf import settings
from django.urls import include, path

from rivals.api import views_accounts

urlpatterns = [
    path("auth/guest", views_accounts.GuestSignInView.as_view(), name="auth-guest"),
    path("auth/login", views_accounts.LoginView.as_view(), name="auth-login"),
    path("auth/logout", views_accounts.LogoutView.as_view(), name="auth-logout"),
    path("auth/password-reset", views_accounts.PasswordResetView.as_view(), name="auth-password-reset"),
    path(
        "auth/password-reset/confirm",
        views_accounts.PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
    path("account", views_accounts.AccountView.as_view(), name="account"),
    path("account/credentials", views_accounts.CredentialsView.as_view(), name="account-credentials"),
    path("account/verify", views_accounts.VerifyView.as_view(), name="account-verify"),
    path("account/password", views_accounts.PasswordChangeView.as_view(), name="account-password"),
    path("players/<str:player_id>", views_accounts.PlayerView.as_view(), name="player"),
    path("", include("rivals.api.urls_daily_bonus")),
    path("", include("rivals.clubs.urls")),
]

if settings.RIVALS_BENCH_FLOOR:  # the load benchmark's floor (rivals/api/views_floor.py); never in production
    from rivals.api.views_floor import FloorIntentView

    urlpatterns.append(path("bench/floor", FloorIntentView.as_view(), name="bench-floor"))
