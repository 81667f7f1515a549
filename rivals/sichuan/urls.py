from django.urls import path

from rivals.sichuan import api

urlpatterns = [
    path("sichuan", api.TablesView.as_view(), name="sichuan-tables"),
    path("sichuan/<str:table_id>", api.TableView.as_view(), name="sichuan-table"),
    path("sichuan/<str:table_id>/intents", api.TableIntentsView.as_view(), name="sichuan-table-intents"),
    path("sichuan/<str:table_id>/events", api.TableEventsView.as_view(), name="sichuan-table-events"),
]
