from django.conf import settings
from django.urls import include, path

from rivals.api import views_accounts, views_games

urlpatterns = [
    path("auth/guest", views_accounts.GuestSignInView.as_view(), name="auth-guest"),
    path("account", views_accounts.AccountView.as_view(), name="account"),
    path("layouts", views_games.LayoutsView.as_view(), name="layouts"),
    path("games", views_games.GamesView.as_view(), name="games"),
    path("games/<str:game_id>", views_games.GameView.as_view(), name="game"),
    path("games/<str:game_id>/intents", views_games.GameIntentsView.as_view(), name="game-intents"),
    path("games/<str:game_id>/events", views_games.GameEventsView.as_view(), name="game-events"),
    path("levels/<int:number>", views_games.LevelView.as_view(), name="level"),
    path("levels/<int:number>/leaderboard", views_games.LevelLeaderboardView.as_view(), name="level-leaderboard"),
    path("records", views_games.RecordsView.as_view(), name="records"),
    path("", include("rivals.api.urls_daily_bonus")),
]

if settings.RIVALS_BENCH_FLOOR:  # the load benchmark's floor (rivals/api/views_floor.py); never in production
    from rivals.api.views_floor import FloorIntentView

    urlpatterns.append(path("bench/floor", FloorIntentView.as_view(), name="bench-floor"))
