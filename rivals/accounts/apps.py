from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: guest sign-in, credentials, profiles (R-36, R-37); its models stay in ``rivals.models``."""

    name = "rivals.accounts"
    label = "accounts"
    verbose_name = "Accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.accounts.projections import account_profile_projection

        projections.register(
            account_profile_projection
        )  # applied live in every append; replayed by rebuild_projections
