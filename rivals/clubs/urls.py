from django.urls import path

from rivals.clubs import api

urlpatterns = [
    path("clubs", api.ClubsView.as_view(), name="clubs"),
    path("clubs/<str:club_id>", api.ClubView.as_view(), name="club"),
    path("clubs/<str:club_id>/join", api.ClubJoinView.as_view(), name="club-join"),
    path("clubs/<str:club_id>/leave", api.ClubLeaveView.as_view(), name="club-leave"),
    path("clubs/<str:club_id>/owner", api.ClubOwnerView.as_view(), name="club-owner"),
]
