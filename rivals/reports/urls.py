from django.urls import path

from rivals.reports import api

urlpatterns = [
    path("reports", api.ReportsView.as_view(), name="reports"),
]
