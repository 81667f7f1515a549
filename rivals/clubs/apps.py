from django.apps import AppConfig


def _on_account_restricted(sender, *, account_id: int, reason: str, actor: str, **kwargs) -> None:
    """A closed account leaves its club (a suspended one stays a member: it adds nothing to the sums)."""
    if reason != "account_closed":
        return
    from rivals.clubs.services import club_leave_on_close
    from rivals.models import Account

    club_leave_on_close(account=Account.objects.get(pk=account_id), actor=actor)


class ClubsConfig(AppConfig):
    name = "rivals.clubs"
    label = "clubs"
    verbose_name = "Clubs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import admin_page
        from rivals.clubs.admin import player_club_figure, player_links

        admin_page.register_player_figure("club", player_club_figure, order=60)  # the player page: its club
        admin_page.register_player_links(player_links)

        from rivals import admin_display

        admin_display.register_pages(
            records={"club_id": "admin:clubs_club_change"},
            streams=("club-",),
            values={"club:": "admin:clubs_club_change"},
        )  # what the admin links (rivals.admin_display)

        from rivals import event_types, projections
        from rivals.clubs import events
        from rivals.clubs.projections import clubs_projection
        from rivals.signals import account_restricted

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(
            feature=self.label, types=events.CLUB_EVENTS, module=events, schema_versions=events.SCHEMA_VERSIONS
        )
        # applied live in every append to a club stream; reset and replayed by rebuild_projections
        projections.register(clubs_projection)
        account_restricted.connect(_on_account_restricted, dispatch_uid="clubs.leave_on_close")

        from rivals.api import error_details
        from rivals.clubs.serializers import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold

        from rivals.accounts import selectors
        from rivals.clubs.selectors import club_profile_extension

        selectors.register_profile_extension(club_profile_extension)  # the own profile's club
        selectors.register_public_profile_extension(club_profile_extension)  # a player's club is public

        from rivals.clubs import export

        export.register()  # its part of a player's export (rivals.accounts.export)

        from rivals import notices as registry
        from rivals import notification_types
        from rivals.clubs import notices

        notification_types.register(feature=self.label, shapes=notices.SHAPES)  # the data of its notifications
        registry.register(feature=self.label, told=notices.TOLD)  # who hears of its events (rivals.notices)
