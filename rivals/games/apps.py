from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Solo games (single player levels, classic, pool practice) and the one intent runner that
    every competitive board shares. Its models stay in ``rivals.models`` (app label ``rivals``)."""

    name = "rivals.games"
    label = "games"
    verbose_name = "Solo games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.games.projections import game_projection, level_leaderboard_projection

        # applied live in every append; reset and replayed by rebuild_projections
        projections.register(game_projection)
        projections.register(level_leaderboard_projection)
