from django.apps import AppConfig


class PointsConfig(AppConfig):
    """The points ledger: every award a ``PointsAwarded``, exactly once per key (R-33)."""

    name = "rivals.points"
    label = "points"
    verbose_name = "Points ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import projections
        from rivals.points.projections import points_ledger_projection

        projections.register(points_ledger_projection)  # applied live in every append; replayed by rebuild_projections
