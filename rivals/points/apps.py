from django.apps import AppConfig


class PointsConfig(AppConfig):
    """The points ledger: every award a ``PointsAwarded``, exactly once per key (R-33)."""

    name = "rivals.points"
    label = "points"
    verbose_name = "Points ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import admin_page
        from rivals.points.admin import player_links

        admin_page.register_player_links(player_links)  # the player page: its ledger

        from rivals import admin_display

        admin_display.register_pages(streams=("points-",))  # what the admin links (rivals.admin_display)
        from django.db.models import Q

        from rivals.admin_base import register_player_streams

        register_player_streams(lambda ids: Q(stream_id__in=[f"points-{a}" for a in ids]))  # a player's

        from rivals import event_types, projections
        from rivals.points import events
        from rivals.points.projections import points_ledger_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.POINTS_EVENTS, module=events)
        projections.register(points_ledger_projection)  # applied live in every append; replayed by rebuild_projections

        from rivals.points import export

        export.register()  # its part of a player's export (rivals.accounts.export)

        from rivals import notices as registry
        from rivals import notification_types
        from rivals.points import notices

        notification_types.register(feature=self.label, shapes=notices.SHAPES)  # the data of its notifications
        registry.register(feature=self.label, told=notices.TOLD)  # who hears of its events (rivals.notices)
