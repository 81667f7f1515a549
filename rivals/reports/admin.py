"""Players' reports in the admin (R-39): the operators' review queue, open reports first, beside
the fair-play flags. A report's page shows its subject's current name and the name's history,
the other reports on it, and — for a player — their fair-play flags (a report of cheating is
reviewed there: the flagged games, the refused intents, suspension). Operator actions ask for a
reason on a page of their own and call the services: each appends events with the operator as
actor (``ReportReviewed``; ``DisplayNameReset`` on the player's stream; ``ClubRenamed``). They
are Support's (``reports.change_report``, issue 40); a name reset and a club rename tell the
player a reason code and a message written for them, never the operator's note."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Case, IntegerField, Q, Value, When
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode

from rivals import personal
from rivals.accounts.events import ACCOUNT_CREATED, DISPLAY_NAME_CHANGED, DISPLAY_NAME_RESET
from rivals.accounts.services import neutral_name
from rivals.admin_actions import (
    NoticeForm,
    ObjectActionsMixin,
    ReasonForm,
    Row,
    confirm_then_apply,
    notice_form,
    notice_of,
    permission_check,
)
from rivals.admin_base import PlayerSearchMixin
from rivals.admin_display import actor_html, when
from rivals.clubs.events import CLUB_FOUNDED, CLUB_RENAMED
from rivals.models import Event
from rivals.reports.models import Report
from rivals.reports.selectors import reports_upheld_by_renaming
from rivals.reports.services import report_club_rename, report_name_reset, report_review

HISTORY_ROWS = 50


def report_streams(account_ids: list[int]) -> Q:
    """The report events a player filed or is the subject of (the admin's events of a player)."""
    q = Q()
    for a in account_ids:
        q |= Q(stream_type="report") & (Q(data__reporter_id=a) | Q(data__subject=f"player:{a}"))
    return q


class RenameForm(NoticeForm):
    name = forms.CharField(max_length=32, label="the club's new name")
    field_order = ("name", "reason_code", "message", "reason")


def _label(report: Report, subject_name: str) -> str:
    return f"{report.get_reason_display()} report on {report.subject} (“{subject_name}”), filed {when(report.filed_at)}"


def _reviewed(report: Report) -> str | None:
    if report.status == "open":
        return None
    return f"already reviewed ({report.status} by {report.reviewed_by or '?'} at {when(report.reviewed_at)})"


def _reasoned(modeladmin, request, queryset, *, name, title, explain, form_class, apply, consequence):
    """A confirmation page with a reason (and what else the action needs), then the service call
    per open report; each report chosen is reported: done, or skipped and why."""

    def rows(report: Report) -> Row:
        return Row(report, _label(report, modeladmin.subject_name(report)), [consequence(report)], _reviewed(report))

    return confirm_then_apply(
        modeladmin,
        request,
        queryset.select_related("subject_player", "subject_club"),
        name=name,
        title=title,
        explain=explain,
        form_class=form_class,
        rows=rows,
        apply=apply,
        ordering=("filed_at", "pk"),
    )


def _upheld(report: Report) -> str:
    """How many open reports the rename upholds — only those (issue 40: not every open one)."""
    upheld = reports_upheld_by_renaming(report).count()
    others = Report.objects.filter(subject=report.subject, status="open").count() - upheld
    left = f"; {others} other open report(s) on it (not about the name) stay open" if others else ""
    return f"{upheld} open report(s) about the name are upheld{left}"


@admin.action(description="Dismiss", permissions=["review"])
def dismiss(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="dismiss",
        title="Dismiss reports",
        explain="Nothing is done about the subjects; the reports are closed as dismissed, with your note.",
        form_class=ReasonForm,
        apply=lambda r, d, actor: report_review(report=r, decision="dismissed", note=d["reason"], actor=actor).status,
        consequence=lambda r: "the report is dismissed; its subject is not changed",
    )


@admin.action(
    description="Uphold without changing a name (e.g. cheating dealt with in fair play)", permissions=["review"]
)
def uphold(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="uphold",
        title="Uphold reports",
        explain="The report was right; what was done happened elsewhere (a fair-play suspension …). The "
        "reports are closed as upheld, with your note.",
        form_class=ReasonForm,
        apply=lambda r, d, actor: report_review(report=r, decision="upheld", note=d["reason"], actor=actor).status,
        consequence=lambda r: "the report is upheld; its subject is not changed here",
    )


def _reset_consequence(report: Report) -> str:
    if not report.subject_player_id:
        return "a club: its name is changed with “Rename the club”, not here"
    player = report.subject_player
    return (
        f"{player.display_name} (#{player.pk}) is renamed “{neutral_name(player.pk)}” and told; the name cannot be "
        f"chosen again for 7 days; {_upheld(report)}"
    )


@admin.action(description="Reset the player's display name (the player is told)", permissions=["review"])
def reset_display_name(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="reset_display_name",
        title="Reset display names",
        explain="Each reported player's name becomes the neutral 'Player <id>'; they are told the reason you "
        "choose and your message (never your note), and cannot choose the reset name again for 7 days. Every "
        "open report about the name is upheld.",
        form_class=notice_form("abusive_name"),
        apply=lambda r, d, actor: f"renamed “{report_name_reset(report=r, actor=actor, **notice_of(d)).display_name}”",
        consequence=_reset_consequence,
    )


def _rename_consequence(report: Report) -> str:
    if not report.subject_club_id:
        return "a player: their name is reset with “Reset the player's display name”, not here"
    return f"the club “{report.subject_club.name}” takes the new name and its owner is told; {_upheld(report)}"


@admin.action(description="Rename the club (its owner is told)", permissions=["review"])
def rename_club(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="rename_club",
        title="Rename clubs",
        explain="The reported club takes the new name (checked as a founder's: free among open clubs); its owner "
        "is told the reason you choose and your message (never your note). Every open report about its name is "
        "upheld. Choose one report per club.",
        form_class=notice_form("abusive_name", RenameForm),
        apply=lambda r, d, actor: (
            f"renamed “{report_club_rename(report=r, name=d['name'], actor=actor, **notice_of(d)).name}”"
        ),
        consequence=_rename_consequence,
    )


def _told(data: dict) -> str:
    """What the player was told of a reset or rename (issue 40; earlier ones: nothing but the fact)."""
    if not data.get("reason_code"):
        return "the player was told of the change only"
    message = f", “{data['message']}”" if data.get("message") else ""
    return f"the player was told: {data['reason_code']}{message}"


def _name_history(report: Report):
    """The subject's names, oldest first: a player's chosen names (unsealed) and resets; a club's
    founding name and renames."""
    if report.subject_player_id:
        account_id = report.subject_player_id
        events = Event.objects.filter(
            stream_id=f"account-{account_id}", type__in=(ACCOUNT_CREATED, DISPLAY_NAME_CHANGED, DISPLAY_NAME_RESET)
        )
    else:
        events = Event.objects.filter(stream_id=f"club-{report.subject_club_id}", type__in=(CLUB_FOUNDED, CLUB_RENAMED))
    rows = []
    for e in events.order_by("-version")[:HISTORY_ROWS]:
        d = e.data
        if e.type == DISPLAY_NAME_RESET:
            before = personal.unseal(d, account_id=d["account_id"], field="previous_name") or personal.ERASED_NAME
            name = d["display_name"]
            how = format_html(
                "reset by {} (was {}) — operator's note: {}; {}",
                actor_html(e.metadata.get("actor")),
                repr(before),
                d["reason"],
                _told(d),
            )
        elif e.type in (ACCOUNT_CREATED, DISPLAY_NAME_CHANGED):
            name = personal.unseal(d, account_id=d["account_id"], field="display_name") or personal.ERASED_NAME
            how = "chosen by the player" if e.type == DISPLAY_NAME_CHANGED else "at sign-up"
        else:
            name = d["name"]
            how = (
                "founded"
                if e.type == CLUB_FOUNDED
                else format_html(
                    "renamed by {} — operator's note: {}; {}",
                    actor_html(e.metadata.get("actor")),
                    d["reason"],
                    _told(d),
                )
            )
        rows.append((when(e.recorded_at), name, how))
    return rows[::-1]


@admin.register(Report)
class ReportAdmin(ObjectActionsMixin, PlayerSearchMixin, admin.ModelAdmin):
    list_display = ("filed_at", "reason", "status", "subject_link", "subject_name", "reporter_link", "open_on_subject")
    list_filter = ("status", "reason", "action")
    search_fields = ("=subject", "reporter__display_name")
    search_help_text = "a subject (player:12, club:…) or a reporter's name or id"
    list_select_related = ("reporter", "subject_player", "subject_club")
    player_field = "subject_player_id"
    fields = (
        "subject_link",
        "subject_name",
        "reason",
        "note",
        "status",
        "action",
        "filed_at",
        "reporter_link",
        "reviewer",
        "reviewed_at",
        "review_note",
        "name_history",
        "fair_play",
        "other_reports",
    )
    readonly_fields = fields
    object_actions = (
        ("dismiss", "Dismiss…"),
        ("uphold", "Uphold…"),
        ("reset_display_name", "Reset the display name…"),
        ("rename_club", "Rename the club…"),
    )

    def object_action_shown(self, obj, name: str) -> bool:
        if obj.status != "open":
            return False
        if name == "reset_display_name":
            return bool(obj.subject_player_id)
        return name != "rename_club" or bool(obj.subject_club_id)

    @admin.display(description="reviewed by")
    def reviewer(self, obj: Report):
        return actor_html(obj.reviewed_by) if obj.reviewed_by else "—"

    def get_ordering(self, request):
        """The review queue: open first (then the newest), whatever the statuses' spelling."""
        open_first = Case(When(status="open", then=Value(0)), default=Value(1), output_field=IntegerField())
        return [open_first.asc(), "-filed_at"]

    actions = [dismiss, uphold, reset_display_name, rename_club]
    has_review_permission = permission_check("reports.change_report")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="subject")
    def subject_link(self, obj: Report):
        if obj.subject_player_id:
            return format_html(
                '<a href="{}">player #{}</a>',
                reverse("admin:rivals_account_change", args=[obj.subject_player_id]),
                obj.subject_player_id,
            )
        return format_html(
            '<a href="{}">club {}</a>',
            reverse("admin:clubs_club_change", args=[obj.subject_club_id]),
            obj.subject_club_id,
        )

    @admin.display(description="current name")
    def subject_name(self, obj: Report) -> str:
        return obj.subject_player.display_name if obj.subject_player_id else obj.subject_club.name

    @admin.display(description="reporter")
    def reporter_link(self, obj: Report):
        return format_html(
            '<a href="{}">{} (#{})</a>',
            reverse("admin:rivals_account_change", args=[obj.reporter_id]),
            obj.reporter,
            obj.reporter_id,
        )

    @admin.display(description="open on the subject")
    def open_on_subject(self, obj: Report) -> int:
        return Report.objects.filter(subject=obj.subject, status="open").count()

    @admin.display(description="the name's history (oldest first)")
    def name_history(self, obj: Report):
        rows = _name_history(obj)
        return format_html_join("", "<div>{} · <b>{}</b> · {}</div>", rows) if rows else "—"

    @admin.display(description="fair play (a report of cheating is reviewed there)")
    def fair_play(self, obj: Report):
        if not obj.subject_player_id:
            return "— (a club)"
        from rivals.fairplay.selectors import flag_counts

        flags, open_flags = flag_counts(account_id=obj.subject_player_id)
        url = (
            reverse("admin:fairplay_fairplayflag_changelist")
            + "?"
            + urlencode({"account__id__exact": obj.subject_player_id})
        )
        return format_html(
            '<a class="fair-play-review" href="{}">fair-play flags of player #{}: {} ({} open)</a>',
            url,
            obj.subject_player_id,
            flags,
            open_flags,
        )

    @admin.display(description="every report on the subject")
    def other_reports(self, obj: Report):
        url = reverse("admin:reports_report_changelist") + "?" + urlencode({"q": obj.subject})
        return format_html('<a href="{}">{} report(s)</a>', url, Report.objects.filter(subject=obj.subject).count())


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_links(account_id: int) -> list[tuple[int, str]]:
    from rivals.accounts.admin_page import hub_link

    return [(110, hub_link("reports_report", "reports about the player", None, q=f"player:{account_id}"))]
