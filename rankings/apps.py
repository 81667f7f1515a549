from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rankings.projections import rankings_projection
        from rivals import projections, selectors

        projections.register(rankings_projection)  # applied live in every PointsAwarded append
        selectors.register_profile_extension(profile_extension)


def profile_extension(account) -> dict:
    """``GET /api/v1/account``: ``points`` {amr, weekly, daily} (API.md)."""
    from rankings.selectors import account_points

    return {"points": account_points(account_id=account.pk)}
