from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import selectors
        from tournaments import projections  # noqa: F401  registers the tournament and pot projections
        from tournaments.selectors import trophies_profile_extension

        # trophies on the account profile (rivals never imports tournaments)
        selectors.register_profile_extension(trophies_profile_extension)
