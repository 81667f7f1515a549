from django.apps import AppConfig


def _on_account_restricted(sender, *, account_id: int, reason: str, now, **kwargs) -> None:
    """R-38: a suspension or closure ends the account's waiting tickets and pending duels."""
    from rivals.matches.services import duels_end, queue_tickets_end

    queue_tickets_end(account_id=account_id, reason=reason, now=now)
    duels_end(account_id=account_id, reason=reason, now=now)


def _deals_held(codes: frozenset[str]) -> set[str]:
    """R-40: the deals a running round plays, or a running match deals to every round."""
    from rivals.matches.models import Match, Round

    held = set(Round.objects.filter(status="running", code__in=codes).values_list("code", flat=True))
    if codes - held:
        held |= set(
            Match.objects.filter(status="running", code__in=codes - held)
            .exclude(code="")
            .values_list("code", flat=True)
        )
    return held


class MatchesConfig(AppConfig):
    name = "rivals.matches"
    label = "matches"
    verbose_name = "Competitive play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rivals.accounts import admin_page
        from rivals.matches.admin import player_links

        admin_page.register_player_links(player_links)  # the player page: its rounds

        from rivals import admin_display

        admin_display.register_pages(
            records={
                "round_id": "admin:matches_round_change",
                "match_id": "admin:matches_match_change",
                "duel_id": "admin:matches_duel_change",
                "ticket_id": "admin:matches_queueticket_change",
            },
            streams=("round-", "match-", "queue-", "duel-"),
        )

        from rivals import event_types, projections
        from rivals.deals.selectors import register_holder
        from rivals.matches import events
        from rivals.matches.projections import matches_projection
        from rivals.signals import account_restricted

        # its event vocabulary: one typed constructor per type (rivals.event_types)
        event_types.register(
            feature=self.label, types=events.MATCH_EVENTS, module=events, schema_versions=events.SCHEMA_VERSIONS
        )
        # applied live in every append; reset and replayed by rebuild_projections
        projections.register(matches_projection)
        register_holder("matches", _deals_held)  # a running round's or match's deal stays secret
        account_restricted.connect(_on_account_restricted, dispatch_uid="matches.commitments_end")
        # a past board is final once no round that may still pay into its period is running
        from rivals.matches.selectors import awards_pending
        from rivals.points.selectors import register_pending_awards

        register_pending_awards(awards_pending)

        from rivals.api import error_details
        from rivals.matches.serializers import ERROR_DETAILS

        error_details.register(feature=self.label, shapes=ERROR_DETAILS)  # what its refusals' details hold

        from rivals.matches import export

        export.register()  # its part of a player's export (rivals.accounts.export)

        from rivals import notices as registry
        from rivals import notification_types
        from rivals.matches import notices

        notification_types.register(feature=self.label, shapes=notices.SHAPES)  # the data of its notifications
        registry.register(
            feature=self.label, told=notices.TOLD, facts=notices.FACTS
        )  # who hears of its events (rivals.notices)
