from django.urls import path

from rivals.daily_bonus import api

urlpatterns = [
    path("daily-bonus/claim", api.DailyBonusClaimView.as_view(), name="daily-bonus-claim"),
    path("daily-bonus/double", api.DailyBonusDoubleView.as_view(), name="daily-bonus-double"),
]
