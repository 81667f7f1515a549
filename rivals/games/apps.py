from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Solo games (single player levels, classic, pool practice) and the one intent runner that
    every competitive board shares, with the fair-play record of the intents it refuses."""

    name = "rivals.games"
    label = "games"
    verbose_name = "Solo games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import admin_page
        from rivals.games.admin_records import player_last_move, player_links

        admin_page.register_player_links(player_links)  # the player page: games, refused intents
        admin_page.register_last_seen(player_last_move)

        from rivals import admin_display

        admin_display.register_pages(
            records={"game_id": "admin:games_game_change"}, streams=("game-",)
        )  # what the admin links (rivals.admin_display)

        from rivals import event_types, projections
        from rivals.games import events
        from rivals.games.projections import game_projection, level_leaderboard_projection

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(
            feature=self.label, types=events.GAME_EVENTS, module=events, schema_versions=events.SCHEMA_VERSIONS
        )
        # applied live in every append; reset and replayed by rebuild_projections
        projections.register(game_projection)
        projections.register(level_leaderboard_projection)

        from rivals.api import error_details
        from rivals.games.serializers import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold

        from rivals import intents
        from rivals.games.services.rejections import rejected_intent_record

        intents.register_rejection_recorder(rejected_intent_record)  # refused intents, kept

        from rivals.games import export

        export.register()  # its part of a player's export (rivals.accounts.export)
