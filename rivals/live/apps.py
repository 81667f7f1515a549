from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "rivals.live"
    label = "live"
    verbose_name = "Live updates"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:

        from rivals import projections
        from rivals.live.projections import notifications_projection

        # applied live in the append's transaction; reset and replayed by rebuild_projections
        projections.register(notifications_projection)

        from rivals.live import export

        export.register()  # its part of a player's export (rivals.accounts.export)
