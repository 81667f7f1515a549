from django.apps import AppConfig


class RivalsConfig(AppConfig):
    name = "rivals"
    verbose_name = "Rivals"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import jobs  # noqa: F401  records each task's last run (admin: periodic tasks)
