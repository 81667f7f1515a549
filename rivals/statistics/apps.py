from django.apps import AppConfig


class StatisticsConfig(AppConfig):
    name = "rivals.statistics"
    label = "statistics"
    verbose_name = "Player statistics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.accounts import selectors
        from rivals.statistics.projections import statistics_projection
        from rivals.statistics.selectors import stats_profile_extension

        # applied live in the appends of the events it counts; rebuilt and verified by rebuild_projections
        projections.register(statistics_projection)
        # GET /api/v1/players/{id}: "stats" (R-37, T-10)
        selectors.register_public_profile_extension(stats_profile_extension)
        from rivals.accounts.serializers import register_public_profile_field
        from rivals.statistics.serializers import PlayerStatsOut

        register_public_profile_field("stats", PlayerStatsOut(help_text="T-10, R-37: the player's play in numbers"))
