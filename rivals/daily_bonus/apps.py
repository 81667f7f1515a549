from django.apps import AppConfig


class DailyBonusConfig(AppConfig):
    """The daily bonus (R-30…R-32)."""

    name = "rivals.daily_bonus"
    label = "daily_bonus"
    verbose_name = "Daily bonus"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import selectors
        from rivals.daily_bonus.services import daily_bonus_status

        # the own profile's daily bonus: today's claim, the streak (R-30…R-32)
        selectors.register_profile_extension(lambda account: {"daily_bonus": daily_bonus_status(account=account)})

        from rivals import admin_display

        admin_display.register_pages(streams=("daily-bonus-",))  # what the admin links (rivals.admin_display)
        from django.db.models import Q

        from rivals.admin_base import register_player_streams

        register_player_streams(lambda ids: Q(stream_id__in=[f"daily-bonus-{a}" for a in ids]))  # a player's

        from rivals import event_types, projections
        from rivals.daily_bonus import events
        from rivals.daily_bonus.projections import daily_bonus_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.DAILY_BONUS_EVENTS, module=events)
        projections.register(daily_bonus_projection)  # applied live in every append; replayed by rebuild_projections

        from rivals.api import error_details
        from rivals.daily_bonus.api import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold
