from django.urls import path

from rivals.api import views_accounts

urlpatterns = [
    path("auth/guest", views_accounts.GuestSignInView.as_view(), name="auth-guest"),
    path("account", views_accounts.AccountView.as_view(), name="account"),
]
