from django.urls import path

from rivals.accounts import api

urlpatterns = [
    path("auth/guest", api.GuestSignInView.as_view(), name="auth-guest"),
    path("auth/login", api.LoginView.as_view(), name="auth-login"),
    path("auth/logout", api.LogoutView.as_view(), name="auth-logout"),
    path("auth/password-reset", api.PasswordResetView.as_view(), name="auth-password-reset"),
    path(
        "auth/password-reset/confirm",
        api.PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
    path("account", api.AccountView.as_view(), name="account"),
    path("account/export", api.AccountExportView.as_view(), name="account-export"),
    path("account/credentials", api.CredentialsView.as_view(), name="account-credentials"),
    path("account/verify", api.VerifyView.as_view(), name="account-verify"),
    path("account/password", api.PasswordChangeView.as_view(), name="account-password"),
    path("players", api.PlayerSearchView.as_view(), name="players"),
    path("players/<str:player_id>", api.PlayerView.as_view(), name="player"),
]
