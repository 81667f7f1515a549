from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments", api.TournamentsView.as_view(), name="tournaments"),
    path("tournaments/<str:tournament_id>", api.TournamentView.as_view(), name="tournament"),
    path("tournaments/<str:tournament_id>/register", api.RegisterView.as_view(), name="tournament-register"),
    path("pots", api.PotsView.as_view(), name="pots"),
    path("pots/<str:pot_id>", api.PotView.as_view(), name="pot"),
    path("pots/<str:pot_id>/enter", api.PotEnterView.as_view(), name="pot-enter"),
]
