from django.apps import AppConfig


def _deals_held(codes: frozenset[str]) -> set[str]:
    """R-40: the deals of a running tournament's wave with a table still playing, and of pots not
    yet closed."""
    from tournaments.models import Pot, Wave

    held = set(
        Wave.objects.filter(code__in=codes, ended_at__isnull=True, tournament__status="running").values_list(
            "code", flat=True
        )
    )
    if codes - held:
        held |= set(Pot.objects.filter(code__in=codes - held, status="open").values_list("code", flat=True))
    return held


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import admin_display

        admin_display.register_pages(
            records={
                "tournament_id": "admin:tournaments_tournament_change",
                "pot_id": "admin:tournaments_pot_change",
                "schedule_id": "admin:tournaments_recurringschedule_change",
            },
            streams=("tournament-", "pot-", "schedule-", "reminder-"),
            actors={"schedule": ("recurring schedule", "admin:tournaments_recurringschedule_change")},
        )

        from rivals import event_types
        from rivals.accounts import selectors
        from rivals.deals.selectors import register_holder
        from rivals.matches.signals import round_ended
        from tournaments import (
            events,
            projections,  # noqa: F401  registers the tournament and pot projections
        )
        from tournaments.selectors import trophies_profile_extension

        event_types.register(
            feature="tournaments",
            types=events.TOURNAMENT_EVENTS | events.POT_EVENTS | events.SCHEDULE_EVENTS | events.REMINDER_EVENTS,
            module=events,
            schema_versions=events.SCHEMA_VERSIONS,
        )
        register_holder("tournaments", _deals_held)  # a wave's deal until its last table, a pot's until it closes
        # trophies on the account profile (rivals never imports tournaments)
        selectors.register_profile_extension(trophies_profile_extension)
        selectors.register_public_profile_extension(trophies_profile_extension)  # trophies are public
        # a table's TP in the transaction of its round's RoundEnded
        from tournaments.services.tables import on_round_ended

        round_ended.connect(on_round_ended, dispatch_uid="tournaments.table_points")
        # a past board is final once no tournament or pot that may still pay into it is open
        from rivals.points.selectors import register_pending_awards
        from tournaments.selectors import awards_pending

        register_pending_awards(awards_pending)

        from rivals.api import error_details
        from tournaments.serializers import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold

        from tournaments import export

        export.register()  # its part of a player's export (rivals.accounts.export)

        from rivals import notices as registry
        from rivals import notification_types
        from tournaments import notices

        notification_types.register(feature=self.label, shapes=notices.SHAPES)  # the data of its notifications
        registry.register(
            feature=self.label, told=notices.TOLD, facts=notices.FACTS
        )  # who hears of its events (rivals.notices)

        from rivals.live import topics
        from tournaments.topics import tournament_view

        topics.register_view("tournament", tournament_view)  # what its live topic shows
