from django.apps import AppConfig


def _on_intent_accepted(sender, *, account, events, **kwargs) -> None:
    from rivals.fairplay.services import fairplay_intent_accepted

    fairplay_intent_accepted(account=account, events=events)


def _on_intent_refused(sender, *, account, exc, **kwargs) -> None:
    from rivals.fairplay.services import fairplay_intent_refused

    fairplay_intent_refused(account=account, exc=exc)


class FairPlayConfig(AppConfig):
    name = "rivals.fairplay"
    label = "fairplay"
    verbose_name = "Fair play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.fairplay import admin_account

        admin_account.register()  # the player page's suspend and lift
        from rivals.accounts import admin_page
        from rivals.fairplay.admin import player_flags_figure, player_flags_section, player_links

        # the player page: its open flags among the key figures, its flags linked and listed
        admin_page.register_player_figure("fair-play flags", player_flags_figure, order=90)
        admin_page.register_player_links(player_links)
        admin_page.register_player_section(player_flags_section)

        from rivals import admin_display

        admin_display.register_pages(  # what the admin links (rivals.admin_display)
            records={"flag_id": "admin:fairplay_fairplayflag_change"},
            streams=("fairplay-",),  # a rated result's signals (fairplay-match:<id>)
        )

        from rivals import event_types, projections
        from rivals.fairplay import events
        from rivals.fairplay.projections import flags_projection
        from rivals.fairplay.signals_projection import signals_projection
        from rivals.signals import intent_accepted, intent_refused

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(
            feature=self.label, types=events.FAIRPLAY_EVENTS, module=events, schema_versions=events.SCHEMA_VERSIONS
        )
        projections.register(flags_projection)
        projections.register(signals_projection)  # R-42's windows, baselines, boards and pairs
        intent_accepted.connect(_on_intent_accepted, dispatch_uid="fairplay.intent_accepted")
        intent_refused.connect(_on_intent_refused, dispatch_uid="fairplay.intent_refused")

        from rivals import notices as registry
        from rivals import notification_types
        from rivals.fairplay import notices

        notification_types.register(feature=self.label, shapes=notices.SHAPES)  # the data of its notifications
        registry.register(feature=self.label, told=notices.TOLD)  # who hears of its events (rivals.notices)
