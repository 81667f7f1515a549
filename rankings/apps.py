from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"
    default_auto_field = "django.db.models.BigAutoField"
