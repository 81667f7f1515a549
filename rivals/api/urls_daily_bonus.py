from django.urls import path

from rivals.api import views_daily_bonus

urlpatterns = [
    path("daily-bonus/claim", views_daily_bonus.DailyBonusClaimView.as_view(), name="daily-bonus-claim"),
    path("daily-bonus/double", views_daily_bonus.DailyBonusDoubleView.as_view(), name="daily-bonus-double"),
]
