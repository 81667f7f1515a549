from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "rivals.ratings"
    label = "ratings"
    verbose_name = "Skill ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals import admin_display

        admin_display.register_pages(streams=("rating-",))  # what the admin links (rivals.admin_display)
        from rivals.accounts import admin_page
        from rivals.ratings.admin import player_links, player_rating_figure

        admin_page.register_player_figure("rating (R-41)", player_rating_figure, order=30)  # the player page
        admin_page.register_player_links(player_links)

        from rivals import event_types, projections
        from rivals.accounts import selectors
        from rivals.admin_base import register_player_streams
        from rivals.ratings import events
        from rivals.ratings.admin import rating_streams
        from rivals.ratings.projections import ratings_projection
        from rivals.ratings.selectors import rating_profile_extension

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(feature=self.label, types=events.RATING_EVENTS, module=events)
        # applied live in the appends of its events; rebuilt and verified by rebuild_projections
        projections.register(ratings_projection)
        # GET /api/v1/players/{id} and the admin's player page: "rating"
        selectors.register_public_profile_extension(rating_profile_extension)
        from rivals.accounts.serializers import register_public_profile_field
        from rivals.ratings.serializers import RatingOut

        register_public_profile_field("rating", RatingOut(help_text="R-41: the skill rating (an addition)"))
        register_player_streams(rating_streams)  # the admin's events of a player: its rated results
        from rivals import notices as registry
        from rivals import notification_types
        from rivals.ratings import export, notices

        notification_types.register(feature=self.label, shapes=notices.SHAPES)  # the data of its notifications
        registry.register(feature=self.label, told=notices.TOLD)  # who hears of a rated result (rivals.notices)
        export.register()  # its part of a player's export (rivals.accounts.export)
