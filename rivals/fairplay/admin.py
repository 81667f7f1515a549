"""The fair-play review queue (R-38): open flags first; a flag's page shows the flagged game's
events side by side with the account's refused intents of that time, with links to the board
replay. Reviewing a flag and suspending its account are operator actions: each asks for a note
or a reason on a page of its own, calls the services (events with the operator as actor) and
says, flag by flag, what it did and what it skipped."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import admin
from django.db import transaction
from django.db.models import Case, IntegerField, Value, When
from django.utils.html import format_html, format_html_join

from rivals.admin_actions import (
    NOTE_HELP,
    NoticeForm,
    ObjectActionsMixin,
    Row,
    confirm_then_apply,
    notice_form,
    notice_of,
    permission_check,
)
from rivals.admin_base import PlayerSearchMixin, ReadOnlyAdmin, player_commitments
from rivals.admin_display import account_link, actor_html, clock, pairs_html, url, when
from rivals.fairplay import admin_signals  # noqa: F401  (R-42's windows and pairs, registered there)
from rivals.fairplay.admin_evidence import evidence_html
from rivals.fairplay.admin_evidence import summary as signal_summary
from rivals.fairplay.models import FairPlayFlag
from rivals.fairplay.scoring import SIGNAL_KINDS
from rivals.fairplay.services import account_suspend, fairplay_flag_review
from rivals.games.models import RejectedIntent
from rivals.models import Event

SIDE_BY_SIDE_ROWS = 300
SUSPENSION = (
    "suspended: the player's moves and entries into play are refused, they leave every ranking and leaderboard "
    "and win no prize, trophy or points until the suspension is lifted"
)


class NoteForm(forms.Form):
    reason = forms.CharField(
        max_length=300,
        label="Review note",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=f"why the flag is dismissed or confirmed — {NOTE_HELP}",
    )


class SuspendForm(NoticeForm):
    """A confirmation with a suspension: the review note is the suspension's operator's note too."""

    reason = forms.CharField(
        max_length=300,
        label="Review note (also the suspension's operator's note)",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=NOTE_HELP,
    )


def _label(flag: FairPlayFlag) -> str:
    return f"{flag.get_kind_display()} of {flag.account} (#{flag.account_id}), flagged {when(flag.flagged_at)}"


def _reviewed(flag: FairPlayFlag) -> str | None:
    if flag.status == "open":
        return None
    return f"already reviewed ({flag.status} by {flag.reviewed_by or '?'} at {when(flag.reviewed_at)})"


def _review_rows(decision: str):
    def rows(flag: FairPlayFlag) -> Row:
        return Row(flag, _label(flag), [f"the flag becomes {decision}; the account is not changed"], _reviewed(flag))

    return rows


def _review(decision: str, label: str):
    def action(modeladmin, request, queryset):
        return confirm_then_apply(
            modeladmin,
            request,
            queryset.select_related("account"),
            name=f"review_{decision}",
            title=f"{label} flags",
            explain=f"Each open flag below is closed as {decision}, with your note and you as the reviewer. The "
            "player is not told. Flags already reviewed are skipped.",
            form_class=NoteForm,
            rows=_review_rows(decision),
            apply=lambda f, d, actor: (
                fairplay_flag_review(flag=f, decision=decision, note=d["reason"], actor=actor).status
            ),
            ordering=("flagged_at", "pk"),
        )

    action.__name__ = f"review_{decision}"
    return admin.action(description=f"{label} (with a note)", permissions=["review"])(action)


def _suspend_rows(flag: FairPlayFlag) -> Row:
    account = flag.account
    if account.suspended_at is not None:
        lines = [f"the account is already suspended (since {when(account.suspended_at)}): only the flag is confirmed"]
    else:
        lines = [f"the account will be {SUSPENSION}", *player_commitments(account)]
    return Row(flag, _label(flag), ["the flag becomes confirmed", *lines], _reviewed(flag))


@transaction.atomic
def _confirm_and_suspend(flag: FairPlayFlag, data: dict, actor: str) -> str:
    fairplay_flag_review(flag=flag, decision="confirmed", note=data["reason"], actor=actor)
    flag.account.refresh_from_db(fields=["suspended_at"])
    if flag.account.suspended_at is not None:
        return "confirmed; the account was already suspended"
    account_suspend(
        account=flag.account,
        actor=actor,
        **notice_of({**data, "reason": f"fair play ({flag.get_kind_display()}): {data['reason']}"}),
    )
    return "confirmed; account suspended"


@admin.action(description="Confirm and suspend the flagged accounts", permissions=["review_and_suspend"])
def confirm_and_suspend(modeladmin, request, queryset):
    return confirm_then_apply(
        modeladmin,
        request,
        queryset.select_related("account"),
        name="confirm_and_suspend",
        title="Confirm and suspend",
        form_class=notice_form("fair_play", SuspendForm),
        explain="Each open flag below is confirmed and its player suspended, with your note on both and you as "
        "the actor. The player is told the reason you choose and your message, never your note. Flags already "
        "reviewed are skipped; a player already suspended stays as they are.",
        rows=_suspend_rows,
        apply=_confirm_and_suspend,
        ordering=("flagged_at", "pk"),
        danger=True,
    )


@admin.register(FairPlayFlag)
class FairPlayFlagAdmin(ObjectActionsMixin, PlayerSearchMixin, ReadOnlyAdmin):
    list_display = ("flagged_at", "account_link", "kind", "status", "subject_link", "summary")
    list_filter = ("status", "kind")
    search_fields = ("=subject", "account__username", "account__display_name")
    search_help_text = "a subject (game-…, round-…) or a player's name or id"
    list_select_related = ("account",)
    fields = (
        "account_link",
        "kind",
        "status",
        "flagged_at",
        "subject_link",
        "evidence",
        "details_list",
        "reviewer",
        "reviewed_at",
        "review_note",
        "side_by_side",
    )
    readonly_fields = fields
    object_actions = (
        ("review_dismissed", "Dismiss…"),
        ("review_confirmed", "Confirm…"),
        ("confirm_and_suspend", "Confirm and suspend…"),
    )

    def get_ordering(self, request):
        """The review queue: open first (then the newest), whatever the statuses' spelling."""
        open_first = Case(When(status="open", then=Value(0)), default=Value(1), output_field=IntegerField())
        return [open_first.asc(), "-flagged_at"]

    actions = [_review("dismissed", "Dismiss"), _review("confirmed", "Confirm"), confirm_and_suspend]
    has_review_permission = permission_check("fairplay.change_fairplayflag")

    def has_review_and_suspend_permission(self, request) -> bool:
        return request.user.has_perms(["fairplay.change_fairplayflag", "rivals.suspend_account"])

    def object_action_shown(self, obj, name: str) -> bool:
        return obj.status == "open"

    @admin.display(description="account")
    def account_link(self, obj: FairPlayFlag):
        return account_link(obj.account_id, {obj.account_id: str(obj.account)})

    @admin.display(description="reviewed by")
    def reviewer(self, obj: FairPlayFlag):
        return actor_html(obj.reviewed_by) if obj.reviewed_by else "—"

    @admin.display(description="flagged")
    def subject_link(self, obj: FairPlayFlag):
        if obj.game_id:
            return format_html(
                '<a class="flagged-game" href="{}">board replay of game {}</a>',
                url("admin:games_game_change", obj.game_id),
                obj.game_id,
            )
        if obj.round_id:
            return format_html(
                '<a href="{}">round {}</a>', url("admin:matches_round_change", obj.round_id), obj.round_id
            )
        return obj.subject

    @admin.display(description="details")
    def summary(self, obj: FairPlayFlag) -> str:
        if obj.kind in SIGNAL_KINDS:
            return signal_summary(obj.kind, obj.details)
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in obj.details.items() if not isinstance(v, list))

    @admin.display(description="evidence (R-42)")
    def evidence(self, obj: FairPlayFlag):
        return evidence_html(obj.kind, obj.details)

    @admin.display(description="details")
    def details_list(self, obj: FairPlayFlag):
        if obj.kind in SIGNAL_KINDS:  # the evidence above says it; the raw numbers stay in the event
            return pairs_html({k: v for k, v in obj.details.items() if k in ("why", "partner_id")})
        return pairs_html(obj.details)

    @admin.display(description="the flagged game's events beside the account's refused intents (Romanian time)")
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
            (at, format_html("<b>{}</b> v{}<br>{} ms after the previous pair", t, v, d.get("interval_ms", "–")), "")
            if "interval_ms" in d
            else (at, format_html("<b>{}</b> v{}", t, v), "")
            for at, v, t, d in events
        ]
        rows += [
            (at, "", format_html("<b>{}</b> {}<br>{}", code, target, message)) for at, target, code, message in refused
        ]
        rows.sort(key=lambda r: r[0])
        if not rows:
            return "—"
        body = format_html_join(
            "", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", ((clock(at), a, b) for at, a, b in rows)
        )
        return format_html(
            '<table class="side-by-side"><tr><th>Romanian time</th><th>game events</th><th>refused intents</th></tr>'
            "{}</table>",
            body,
        )


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_flags_figure(account, figures) -> str:
    from rivals.accounts.admin_page import hub_link

    open_flags = FairPlayFlag.objects.filter(account_id=account.pk, status="open").count()
    return hub_link(
        "fairplay_fairplayflag", f"{open_flags} open", None, account__id__exact=account.pk, status__exact="open"
    )


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link

    flags = FairPlayFlag.objects.filter(account_id=account_id).count()
    return [(80, hub_link("fairplay_fairplayflag", "fair-play flags", flags, account__id__exact=account_id))]


def player_flags_section(account_id: int):
    """The player's latest flags, below the links."""
    flags = FairPlayFlag.objects.filter(account_id=account_id).order_by("-flagged_at")[:10]
    flag_rows = format_html_join(
        "",
        '<li><a href="{}">{}</a> · {} · {}{}</li>',
        (
            (
                url("admin:fairplay_fairplayflag_change", f.pk),
                f.get_kind_display(),
                when(f.flagged_at),
                f.status,
                format_html(
                    ' · <a class="flagged-game" href="{}">flagged game</a>', url("admin:games_game_change", f.game_id)
                )
                if f.game_id
                else "",
            )
            for f in flags
        ),
    )
    return format_html("<p><b>Fair-play flags</b></p><ul>{}</ul>", flag_rows) if flags else ""
