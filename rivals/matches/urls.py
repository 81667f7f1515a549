from django.urls import path

from rivals.matches import api

urlpatterns = [
    path("queue", api.QueueView.as_view(), name="queue"),
    path("queue/<str:ticket_id>", api.QueueTicketView.as_view(), name="queue-ticket"),
    path("duels", api.DuelsView.as_view(), name="duels"),
    path("duels/<str:duel_id>", api.DuelView.as_view(), name="duel"),
    path("duels/<str:duel_id>/accept", api.DuelAcceptView.as_view(), name="duel-accept"),
    path("duels/<str:duel_id>/decline", api.DuelDeclineView.as_view(), name="duel-decline"),
    path("matches", api.MatchesView.as_view(), name="matches"),
    path("matches/<str:match_id>", api.MatchView.as_view(), name="match"),
    path("rounds/<str:round_id>", api.RoundView.as_view(), name="round"),
    path("rounds/<str:round_id>/intents", api.RoundIntentsView.as_view(), name="round-intents"),
    path("rounds/<str:round_id>/events", api.RoundEventsView.as_view(), name="round-events"),
]
