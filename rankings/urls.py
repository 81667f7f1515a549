from django.urls import re_path

from rankings import views

BOARD = r"(?P<board>amr|weekly|daily)"

urlpatterns = [
    re_path(rf"^rankings/{BOARD}$", views.RankingView.as_view(), name="ranking"),
    re_path(rf"^rankings/{BOARD}/me$", views.RankingMeView.as_view(), name="ranking-me"),
]
