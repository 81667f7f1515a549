from django.apps import AppConfig


class SichuanConfig(AppConfig):
    name = "rivals.sichuan"
    label = "sichuan"
    verbose_name = "Sichuan table"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.sichuan.services import sichuan_table_projection

        # applied live in every append to a sichuan stream; reset and replayed by rebuild_projections
        projections.register(sichuan_table_projection)
