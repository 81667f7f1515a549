from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "demo"
    verbose_name = "Demo world"
    default_auto_field = "django.db.models.BigAutoField"
