from django.apps import AppConfig


class PurchasesConfig(AppConfig):
    name = "rivals.purchases"
    label = "purchases"
    verbose_name = "Joker purchases"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import admin_page
        from rivals.purchases.admin import player_links

        admin_page.register_player_links(player_links)  # the player page: its purchases

        from rivals import event_types, projections
        from rivals.purchases import events
        from rivals.purchases.projections import purchases_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.PURCHASE_EVENTS, module=events)
        projections.register(purchases_projection)  # applied live in the account stream's appends

        from rivals.api import error_details
        from rivals.purchases.serializers import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold
