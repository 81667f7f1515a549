from django.apps import AppConfig


class PlayConfig(AppConfig):
    """The reference client (issue 37): a page and its static files; no models, no events."""

    name = "rivals.play"
    label = "play"
    verbose_name = "Reference client"
