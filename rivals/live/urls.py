from django.urls import path

from rivals.live import api

urlpatterns = [
    path("live/ticket", api.LiveTicketView.as_view(), name="live-ticket"),
    path("notifications", api.NotificationsView.as_view(), name="notifications"),
]
