from django.apps import AppConfig


class DealsConfig(AppConfig):
    """R-40: secret competitive deals with a public commitment. No models of its own: the
    competitions that hold a deal (rounds and matches, tournament waves, pots) keep its code and
    salt on their own rows and register here who still holds a code secret."""

    name = "rivals.deals"
    label = "deals"
    verbose_name = "Secret deals"
