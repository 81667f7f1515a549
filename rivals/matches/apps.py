from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "rivals.matches"
    label = "matches"
    verbose_name = "Competitive play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.matches.projections import matches_projection

        # applied live in every append; reset and replayed by rebuild_projections
        projections.register(matches_projection)
