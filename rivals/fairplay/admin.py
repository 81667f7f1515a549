"""The fair-play review queue (R-38): open flags first; a flag's page shows the flagged game's
events side by side with the account's refused intents of that time, with links to the board
replay. Reviewing a flag and suspending its account are operator actions (events)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from rivals.admin_base import PlayerSearchMixin, ReadOnlyAdmin
from rivals.errors import DomainError
from rivals.fairplay.models import FairPlayFlag
from rivals.fairplay.services import account_suspend, fairplay_flag_review
from rivals.models import Event, RejectedIntent

SIDE_BY_SIDE_ROWS = 300


def _review(decision: str, label: str):
    def action(modeladmin, request, queryset):
        done = 0
        for flag in queryset.filter(status="open").order_by("pk"):
            fairplay_flag_review(
                flag=flag, decision=decision, note=f"{label} in the admin", actor=f"operator:{request.user.pk}"
            )
            done += 1
        modeladmin.message_user(request, f"{done} flag(s) {decision}", messages.SUCCESS)

    action.__name__ = f"review_{decision}"
    return admin.action(description=f"{label} (FairPlayFlagReviewed)")(action)


@admin.action(description="Confirm and suspend the flagged accounts (AccountSuspended)")
def confirm_and_suspend(modeladmin, request, queryset):
    actor = f"operator:{request.user.pk}"
    for flag in queryset.filter(status="open").order_by("pk"):
        fairplay_flag_review(flag=flag, decision="confirmed", note="confirmed; account suspended", actor=actor)
        try:
            account_suspend(account=flag.account, reason=f"fair play: {flag.get_kind_display()}", actor=actor)
        except DomainError as exc:
            modeladmin.message_user(request, f"{flag.account}: {exc.message}", messages.WARNING)
    modeladmin.message_user(request, "flags confirmed, accounts suspended", messages.SUCCESS)


@admin.register(FairPlayFlag)
class FairPlayFlagAdmin(PlayerSearchMixin, ReadOnlyAdmin):
    list_display = ("flagged_at", "account_link", "kind", "status", "subject_link", "summary")
    list_filter = ("status", "kind")
    search_fields = ("=subject", "account__username", "account__display_name")
    search_help_text = "a subject (game-…, round-…) or a player's name or id"
    list_select_related = ("account",)
    ordering = ("status", "-flagged_at")  # the open flags first: the review queue
    fields = (
        "account_link",
        "kind",
        "status",
        "flagged_at",
        "subject_link",
        "details",
        "reviewed_by",
        "reviewed_at",
        "review_note",
        "side_by_side",
    )
    readonly_fields = fields

    def get_actions(self, request):
        actions = {}
        for fn in (_review("dismissed", "Dismiss"), _review("confirmed", "Confirm"), confirm_and_suspend):
            actions[fn.__name__] = (fn, fn.__name__, fn.short_description)
        return actions

    @admin.display(description="account")
    def account_link(self, obj: FairPlayFlag):
        return format_html(
            '<a href="{}">{} (#{})</a>',
            reverse("admin:rivals_account_change", args=[obj.account_id]),
            obj.account,
            obj.account_id,
        )

    @admin.display(description="flagged")
    def subject_link(self, obj: FairPlayFlag):
        if obj.game_id:
            return format_html(
                '<a class="flagged-game" href="{}">board replay of game {}</a>',
                reverse("admin:rivals_game_change", args=[obj.game_id]),
                obj.game_id,
            )
        if obj.round_id:
            return format_html(
                '<a href="{}">round {}</a>', reverse("admin:matches_round_change", args=[obj.round_id]), obj.round_id
            )
        return obj.subject

    @admin.display(description="details")
    def summary(self, obj: FairPlayFlag) -> str:
        return ", ".join(f"{k}={v}" for k, v in obj.details.items() if not isinstance(v, list))

    @admin.display(description="the flagged game's events beside the account's refused intents")
    def side_by_side(self, obj: FairPlayFlag):
        """One time-ordered table: the board's events in one column, the account's refused intents
        (of the game's time span, or around the flag) in the other."""
        events = (
            list(
                Event.objects.filter(stream_id=f"game-{obj.game_id}")
                .order_by("version")
                .values_list("recorded_at", "version", "type", "data")[:SIDE_BY_SIDE_ROWS]
            )
            if obj.game_id
            else []
        )
        start = events[0][0] if events else obj.flagged_at - timedelta(minutes=10)
        end = events[-1][0] if events else obj.flagged_at
        refused = list(
            RejectedIntent.objects.filter(
                account_id=obj.account_id, at__gte=start - timedelta(seconds=5), at__lte=end + timedelta(seconds=5)
            )
            .order_by("at")
            .values_list("at", "target", "code", "message")[:SIDE_BY_SIDE_ROWS]
        )
        rows = [
            (at, format_html("<b>{}</b> v{}<br><code>interval {} ms</code>", t, v, d.get("interval_ms", "–")), "")
            for at, v, t, d in events
        ]
        rows += [
            (at, "", format_html("<b>{}</b> {}<br><code>{}</code>", code, target, message))
            for at, target, code, message in refused
        ]
        rows.sort(key=lambda r: r[0])
        if not rows:
            return "—"
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            ((at.strftime("%H:%M:%S.%f")[:-3], a, b) for at, a, b in rows),
        )
        return format_html(
            '<table class="side-by-side"><tr><th>time</th><th>game events</th><th>refused intents</th></tr>{}</table>',
            body,
        )
