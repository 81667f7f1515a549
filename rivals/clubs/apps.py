from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "rivals.clubs"
    label = "clubs"
    verbose_name = "Clubs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.clubs.projections import clubs_projection

        # applied live in every append to a club stream; reset and replayed by rebuild_projections
        projections.register(clubs_projection)
