from django.apps import AppConfig


class SichuanConfig(AppConfig):
    name = "rivals.sichuan"
    label = "sichuan"
    verbose_name = "Sichuan table"
    default_auto_field = "django.db.models.BigAutoField"
