"""Players' reports in the admin (R-39): the operators' review queue, open reports first, beside
the fair-play flags. A report's page shows its subject's current name and the name's history,
the other reports on it, and — for a player — their fair-play flags (a report of cheating is
reviewed there: the flagged games, the refused intents, suspension). Operator actions ask for a
reason on a page of their own and call the services: each appends events with the operator as
actor (``ReportReviewed``; ``DisplayNameReset`` on the player's stream; ``ClubRenamed``)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import Case, IntegerField, Q, Value, When
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode

from rivals import personal
from rivals.admin_base import PlayerSearchMixin
from rivals.errors import DomainError
from rivals.models import Event
from rivals.reports.models import Report
from rivals.reports.services import report_club_rename, report_name_reset, report_review

HISTORY_ROWS = 50


def report_streams(account_ids: list[int]) -> Q:
    """The report events a player filed or is the subject of (the admin's events of a player)."""
    q = Q()
    for a in account_ids:
        q |= Q(stream_type="report") & (Q(data__reporter_id=a) | Q(data__subject=f"player:{a}"))
    return q


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=300, widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))


class RenameForm(ReasonForm):
    name = forms.CharField(max_length=32, label="the club's new name")


def _reasoned(modeladmin, request, queryset, *, name, title, explain, form_class, apply):
    """A confirmation page with a reason (and what else the action needs), then the service call
    per open report; what a service refused is said per report."""
    form = form_class(request.POST if "apply" in request.POST else None)
    reports = queryset.filter(status="open").order_by("filed_at", "pk")
    if "apply" in request.POST and form.is_valid():
        done = 0
        for report in reports:
            try:
                apply(report, form.cleaned_data, f"operator:{request.user.pk}")
                done += 1
            except DomainError as exc:
                modeladmin.message_user(request, f"{report}: {exc.message}", messages.WARNING)
        modeladmin.message_user(request, f"{title}: {done} report(s)", messages.SUCCESS)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "explain": explain,
        "form": form,
        "reports": [(r, modeladmin.subject_name(r)) for r in reports.select_related("subject_player", "subject_club")],
        "action": name,
        "opts": modeladmin.model._meta,
        "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
    }
    return render(request, "admin/reports/report_action.html", context)


@admin.action(description="Dismiss (ReportReviewed: dismissed)")
def dismiss(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="dismiss",
        title="Dismiss reports",
        explain="Nothing is done about the subjects. Appends ReportReviewed (dismissed) with your reason.",
        form_class=ReasonForm,
        apply=lambda r, d, actor: report_review(report=r, decision="dismissed", note=d["reason"], actor=actor),
    )


@admin.action(description="Uphold without changing a name (e.g. cheating dealt with in fair play)")
def uphold(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="uphold",
        title="Uphold reports",
        explain="The report was right; what was done happened elsewhere (a fair-play suspension …). "
        "Appends ReportReviewed (upheld) with your reason.",
        form_class=ReasonForm,
        apply=lambda r, d, actor: report_review(report=r, decision="upheld", note=d["reason"], actor=actor),
    )


@admin.action(description="Reset the player's display name (DisplayNameReset; the player is told)")
def reset_display_name(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="reset_display_name",
        title="Reset display names",
        explain="Each reported player's name becomes the neutral 'Player <id>' (DisplayNameReset on their "
        "stream: they are told); they cannot choose the reset name again for 7 days. Every open report about "
        "the name is upheld.",
        form_class=ReasonForm,
        apply=lambda r, d, actor: report_name_reset(report=r, reason=d["reason"], actor=actor),
    )


@admin.action(description="Rename the club (ClubRenamed)")
def rename_club(modeladmin, request, queryset):
    return _reasoned(
        modeladmin,
        request,
        queryset,
        name="rename_club",
        title="Rename clubs",
        explain="The reported club takes the new name (checked as a founder's: free among open clubs). Every "
        "open report about its name is upheld. Choose one report per club.",
        form_class=RenameForm,
        apply=lambda r, d, actor: report_club_rename(report=r, name=d["name"], reason=d["reason"], actor=actor),
    )


def _name_history(report: Report):
    """The subject's names, oldest first: a player's chosen names (unsealed) and resets; a club's
    founding name and renames."""
    if report.subject_player_id:
        account_id = report.subject_player_id
        events = Event.objects.filter(
            stream_id=f"account-{account_id}", type__in=("AccountCreated", "DisplayNameChanged", "DisplayNameReset")
        )
    else:
        events = Event.objects.filter(
            stream_id=f"club-{report.subject_club_id}", type__in=("ClubFounded", "ClubRenamed")
        )
    rows = []
    for e in events.order_by("-version")[:HISTORY_ROWS]:
        d = e.data
        if e.type == "DisplayNameReset":
            before = personal.unseal(d, account_id=d["account_id"], field="previous_name") or personal.ERASED_NAME
            name, how = d["display_name"], f"reset by {e.metadata.get('actor')} (was {before!r}): {d['reason']}"
        elif e.type in ("AccountCreated", "DisplayNameChanged"):
            name = personal.unseal(d, account_id=d["account_id"], field="display_name") or personal.ERASED_NAME
            how = "chosen by the player" if e.type == "DisplayNameChanged" else "at sign-up"
        else:
            name = d["name"]
            how = "founded" if e.type == "ClubFounded" else f"renamed by {e.metadata.get('actor')}: {d['reason']}"
        rows.append((e.recorded_at.strftime("%Y-%m-%d %H:%M"), name, how))
    return rows[::-1]


@admin.register(Report)
class ReportAdmin(PlayerSearchMixin, admin.ModelAdmin):
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
        "reviewed_by",
        "reviewed_at",
        "review_note",
        "name_history",
        "fair_play",
        "other_reports",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        open_first = Case(When(status="open", then=Value(0)), default=Value(1), output_field=IntegerField())
        return super().get_queryset(request).annotate(open_first=open_first).order_by("open_first", "-filed_at")

    def get_actions(self, request):
        return {
            fn.__name__: (fn, fn.__name__, fn.short_description)
            for fn in (dismiss, uphold, reset_display_name, rename_club)
        }

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
        from rivals.fairplay.models import FairPlayFlag

        flags = FairPlayFlag.objects.filter(account_id=obj.subject_player_id)
        url = (
            reverse("admin:fairplay_fairplayflag_changelist")
            + "?"
            + urlencode({"account__id__exact": obj.subject_player_id})
        )
        return format_html(
            '<a class="fair-play-review" href="{}">fair-play flags of player #{}: {} ({} open)</a>',
            url,
            obj.subject_player_id,
            flags.count(),
            flags.filter(status="open").count(),
        )

    @admin.display(description="every report on the subject")
    def other_reports(self, obj: Report):
        url = reverse("admin:reports_report_changelist") + "?" + urlencode({"q": obj.subject})
        return format_html('<a href="{}">{} report(s)</a>', url, Report.objects.filter(subject=obj.subject).count())
