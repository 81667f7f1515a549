from django.apps import AppConfig


class SichuanConfig(AppConfig):
    name = "rivals.sichuan"
    label = "sichuan"
    verbose_name = "Sichuan table"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import admin_page
        from rivals.sichuan.admin import player_links

        admin_page.register_player_links(player_links)  # the player page: its tables

        from rivals import admin_display

        admin_display.register_pages(
            records={"table_id": "admin:sichuan_sichuantable_change"}, streams=("sichuan-",)
        )  # what the admin links (rivals.admin_display)

        from rivals import event_types, projections
        from rivals.sichuan import events
        from rivals.sichuan.services import sichuan_table_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.SICHUAN_EVENTS, module=events)
        # applied live in every append to a sichuan stream; reset and replayed by rebuild_projections
        projections.register(sichuan_table_projection)

        from rivals.api import error_details
        from rivals.sichuan.serializers import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold

        from rivals.sichuan import export

        export.register()  # its part of a player's export (rivals.accounts.export)
