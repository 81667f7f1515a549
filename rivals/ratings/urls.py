from django.urls import path

from rivals.ratings import api

urlpatterns = [
    path("ratings", api.RatingBoardView.as_view(), name="ratings"),
    path("ratings/<str:account_id>", api.RatingView.as_view(), name="rating"),
]
