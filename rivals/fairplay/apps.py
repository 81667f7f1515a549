from django.apps import AppConfig


class FairPlayConfig(AppConfig):
    name = "rivals.fairplay"
    label = "fairplay"
    verbose_name = "Fair play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.fairplay.projections import flags_projection

        projections.register(flags_projection)
