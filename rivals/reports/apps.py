from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "rivals.reports"
    label = "reports"
    verbose_name = "Fair play: player reports"  # beside "Fair play" in the admin's index (sorted by name)
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import admin_page
        from rivals.reports.admin import player_links

        admin_page.register_player_links(player_links)  # the player page: reports about the player

        from rivals import admin_display

        admin_display.register_pages(
            records={"report_id": "admin:reports_report_change"}, streams=("report-",)
        )  # what the admin links (rivals.admin_display)

        from rivals import event_types, projections
        from rivals.admin_base import register_player_streams
        from rivals.reports import events
        from rivals.reports.admin import report_streams
        from rivals.reports.projections import reports_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.REPORT_EVENTS, module=events)
        projections.register(reports_projection)
        register_player_streams(report_streams)  # the admin's events of a player: their reports

        from rivals.api import error_details
        from rivals.reports.serializers import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold

        from rivals.reports import export

        export.register()  # its part of a player's export (rivals.accounts.export)
