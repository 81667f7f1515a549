from django.apps import AppConfig


class DailyBonusConfig(AppConfig):
    """The daily bonus (R-30…R-32)."""

    name = "rivals.daily_bonus"
    label = "daily_bonus"
    verbose_name = "Daily bonus"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import event_types, projections
        from rivals.daily_bonus import events
        from rivals.daily_bonus.projections import daily_bonus_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.DAILY_BONUS_EVENTS, module=events)
        projections.register(daily_bonus_projection)  # applied live in every append; replayed by rebuild_projections

        from rivals.api import error_details
        from rivals.daily_bonus.api import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold
