"""Recurring schedules in the admin (R-21, issue 22): every chosen weekday at a Romanian wall-clock
time. Their life goes through the services (``tournaments.services.schedules``), each step an
event on ``schedule-<id>``: saving the form creates or edits; deactivating and retiring are
actions that list the upcoming instances and ask whether to cancel them (unticked by default);
nothing is deleted, and "active" is not a checkbox that silently stops nothing. The weekdays are
checkboxes (stored as the digits 0 = Monday … 6 = Sunday). They are Game operations' (issue 40)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.html import format_html, format_html_join

from rivals.admin_actions import ObjectActionsMixin, ReasonForm, Row, actor_of, confirm_then_apply
from rivals.admin_base import choice_filter
from rivals.admin_display import url, when
from rivals.errors import DomainError
from tournaments.admin_common import IntListField, events_table
from tournaments.models import RecurringSchedule, Tournament
from tournaments.services import schedules

WEEKDAYS = (("0", "Mon"), ("1", "Tue"), ("2", "Wed"), ("3", "Thu"), ("4", "Fri"), ("5", "Sat"), ("6", "Sun"))


def weekdays_said(digits: str) -> str:
    """``0123456`` → ``every day``; ``01234`` → ``Mon, Tue, Wed, Thu, Fri``."""
    if digits == "0123456":
        return "every day"
    return ", ".join(name for d, name in WEEKDAYS if d in digits) or "no day"


class RecurringScheduleForm(forms.ModelForm):
    prize_table = IntListField(lo=0, help_text="points per final place, e.g. 100,50,25")
    multipliers = IntListField(lo=1, hi=6, help_text="table points multiplier per wave (×1…×6), e.g. 1,2,3")
    weekdays = forms.MultipleChoiceField(
        choices=WEEKDAYS, widget=forms.CheckboxSelectMultiple, help_text="the days it runs (Romanian time)"
    )

    class Meta:
        model = RecurringSchedule
        fields = schedules.SCHEDULE_SETTINGS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.initial["weekdays"] = list(self.instance.weekdays or "0123456")

    def clean_weekdays(self):
        return "".join(sorted(set(self.cleaned_data["weekdays"])))

    def clean_min_players(self):
        value = self.cleaned_data["min_players"]
        if value < 2:
            raise ValidationError("at least 2")
        return value


class StopForm(ReasonForm):
    cancel_upcoming = forms.BooleanField(
        required=False,
        initial=False,
        label="Also cancel the upcoming tournaments listed above (cannot be undone; their players are told)",
    )


def _instances(schedule: RecurringSchedule) -> list[str]:
    upcoming = list(schedules.schedule_upcoming(schedule)[:50])
    lines = [f"{t.title}: starts {when(t.starts_at)}, {t.registered} registered" for t in upcoming]
    running = Tournament.objects.filter(schedule=schedule, status="running").count()
    if running:
        lines.append(f"{running} running instance(s) go on to their end whatever you choose")
    return lines or ["no upcoming instance"]


def _stop_rows(retire: bool):
    def rows(s: RecurringSchedule) -> Row:
        skip = "already retired" if s.retired_at else None
        if not retire and not s.active and not skip:
            skip = "already inactive"
        count = schedules.schedule_upcoming(s).count()
        head = f"creates no more instances{' (for good)' if retire else ' until reactivated'}"
        return Row(s, f"{s} — {s.state}", [head, f"{count} upcoming instance(s):", *_instances(s)], skip)

    return rows


def _stop(retire: bool):
    verb = "Retire" if retire else "Deactivate"

    def action(modeladmin, request, queryset):
        def apply(s, d, actor):
            _, cancelled = schedules.schedule_stop(
                schedule_id=s.pk, actor=actor, reason=d["reason"], retire=retire, cancel_upcoming=d["cancel_upcoming"]
            )
            return f"{'retired' if retire else 'deactivated'}; {len(cancelled)} upcoming instance(s) cancelled"

        return confirm_then_apply(
            modeladmin,
            request,
            queryset,
            name=action.__name__,
            title=f"{verb} schedules",
            explain=f"{verb}: the schedule creates no more tournaments"
            + (" — for good; it stays listed, as do its tournaments." if retire else " until it is reactivated.")
            + " Its upcoming tournaments stay open unless you tick the box below.",
            form_class=StopForm,
            rows=_stop_rows(retire),
            apply=apply,
            danger=True,
        )

    action.__name__ = "retire_schedules" if retire else "deactivate_schedules"
    return admin.action(description=f"{verb} (asks about the upcoming tournaments)", permissions=["change"])(action)


@admin.action(description="Reactivate", permissions=["change"])
def reactivate_schedules(modeladmin, request, queryset):
    def rows(s: RecurringSchedule) -> Row:
        skip = "retired" if s.retired_at else "already active" if s.active else None
        return Row(s, f"{s} — {s.state}", ["creates its next instances again (a date cancelled stays cancelled)"], skip)

    def apply(s, d, actor):
        _, created = schedules.schedule_reactivate(schedule_id=s.pk, actor=actor, reason=d["reason"])
        return f"reactivated; {created} upcoming instance(s) created"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="reactivate_schedules",
        title="Reactivate schedules",
        explain="The schedule creates tournaments again; its next instances are created now.",
        rows=rows,
        apply=apply,
    )


deactivate_schedules, retire_schedules = _stop(False), _stop(True)


StateFilter = choice_filter(
    "state",
    "state",
    {
        "active": ("active", Q(active=True, retired_at__isnull=True)),
        "inactive": ("inactive", Q(active=False, retired_at__isnull=True)),
        "retired": ("retired", Q(retired_at__isnull=False)),
    },
)


@admin.register(RecurringSchedule)
class RecurringScheduleAdmin(ObjectActionsMixin, admin.ModelAdmin):
    """Every chosen weekday at a Romanian wall-clock time; instances appear ``days_ahead`` in advance."""

    form = RecurringScheduleForm
    list_display = ("title", "kind", "local_time", "days", "duration_minutes", "days_ahead", "state", "upcoming")
    list_filter = (StateFilter, "kind")
    actions = [deactivate_schedules, retire_schedules, reactivate_schedules]
    object_actions = (
        ("deactivate_schedules", "Deactivate…"),
        ("retire_schedules", "Retire…"),
        ("reactivate_schedules", "Reactivate…"),
    )
    STATE = ("state", "created_at", "retired_at", "instances", "event_list")

    def get_fields(self, request, obj=None):
        settings = list(schedules.SCHEDULE_SETTINGS)
        if obj is not None and not self.has_change_permission(request, obj):  # read: the days by name
            settings[settings.index("weekdays")] = "days"
        return settings + (list(self.STATE) if obj else [])

    def get_readonly_fields(self, request, obj=None):
        return (*self.STATE, "days") if obj else ()

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or obj.retired_at is None)  # a retired schedule is history

    def has_delete_permission(self, request, obj=None):
        return False  # retire instead: its tournaments keep pointing at it

    def object_action_shown(self, obj: RecurringSchedule, name: str) -> bool:
        if obj.retired_at:
            return False
        return (name == "reactivate_schedules") != obj.active

    @admin.display(description="weekdays")
    def days(self, obj: RecurringSchedule) -> str:
        return weekdays_said(obj.weekdays)

    @admin.display(description="upcoming")
    def upcoming(self, obj: RecurringSchedule) -> int:
        return schedules.schedule_upcoming(obj).count()

    @admin.display(description="its tournaments (newest first)")
    def instances(self, obj: RecurringSchedule):
        rows = Tournament.objects.filter(schedule=obj).order_by("-starts_at")[:30]
        return (
            format_html_join(
                "",
                '<div><a href="{}">{}</a> · {} · starts {} · {} registered</div>',
                (
                    (
                        url("admin:tournaments_tournament_change", t.pk),
                        t.title,
                        t.get_status_display(),
                        when(t.starts_at),
                        t.registered,
                    )
                    for t in rows
                ),
            )
            or "—"
        )

    @admin.display(description="events")
    def event_list(self, obj: RecurringSchedule):
        return events_table(obj.stream_id)

    def save_model(self, request, obj, form, change):
        data = {k: form.cleaned_data[k] for k in schedules.SCHEDULE_SETTINGS}
        try:
            if change:
                saved, created = schedules.schedule_edit(schedule_id=obj.pk, actor=actor_of(request), **data)
            else:
                saved, created = schedules.schedule_create(actor=actor_of(request), **data)
        except DomainError as exc:
            raise ValidationError(exc.message) from exc
        obj.pk = saved.pk
        obj.refresh_from_db()
        self.message_user(
            request,
            format_html(
                "{} upcoming instance(s) created (an occurrence already held by a tournament of this kind at that "
                "time is not created again; existing instances keep their settings)",
                created,
            ),
            messages.INFO,
        )
