from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rankings.projections import rankings_projection
        from rivals import projections
        from rivals.accounts import selectors

        projections.register(rankings_projection)  # applied live in every PointsAwarded append
        from rankings.views import ERROR_DETAILS
        from rivals.api import error_details

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold
        selectors.register_profile_extension(profile_extension)
        selectors.register_public_profile_extension(public_profile_extension)
        selectors.register_points_totals(points_totals)


def profile_extension(account) -> dict:
    """``GET /api/v1/account``: ``points`` {amr, weekly, daily} (API.md)."""
    from rankings.selectors import account_points

    return {"points": account_points(account_id=account.pk)}


def public_profile_extension(account) -> dict:
    """``GET /api/v1/players/{id}``: ``points`` and ``places`` on the three boards (R-37)."""
    from rankings.selectors import public_places

    return public_places(account_id=account.pk)


def points_totals(account_ids: list[int]) -> dict:
    from rankings.selectors import points_of_accounts

    return points_of_accounts(account_ids)
