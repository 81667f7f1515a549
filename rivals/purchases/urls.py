from django.urls import path

from rivals.purchases import api

urlpatterns = [
    path("purchases", api.PurchasesView.as_view(), name="purchases"),
]
