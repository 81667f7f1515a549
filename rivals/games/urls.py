from django.urls import path

from rivals.games import api

urlpatterns = [
    path("layouts", api.LayoutsView.as_view(), name="layouts"),
    path("games", api.GamesView.as_view(), name="games"),
    path("games/<str:game_id>", api.GameView.as_view(), name="game"),
    path("games/<str:game_id>/intents", api.GameIntentsView.as_view(), name="game-intents"),
    path("games/<str:game_id>/events", api.GameEventsView.as_view(), name="game-events"),
    path("levels/<int:number>", api.LevelView.as_view(), name="level"),
    path("levels/<int:number>/leaderboard", api.LevelLeaderboardView.as_view(), name="level-leaderboard"),
    path("records", api.RecordsView.as_view(), name="records"),
]
