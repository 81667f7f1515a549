"""Operators' admin for tournaments, schedules, pot competitions and trophies.

Creating, editing and cancelling go through the services, so each is an event with the operator
as actor; a started tournament is read-only; registrations, waves, tables, standings, trophies and
events are read-only views of the projections.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from rivals.admin import ReadOnlyAdmin
from rivals.admin_base import register_player_commitments
from rivals.errors import DomainError
from rivals.models import Event
from tournaments.events import SETTINGS
from tournaments.models import (
    Pot,
    PotEntrant,
    RecurringSchedule,
    Registration,
    Table,
    TableSeat,
    Tournament,
    Trophy,
    Wave,
)
from tournaments.services import lifecycle, pots, schedules
from tournaments.services.lifecycle import int_list

EVENTS_SHOWN = 300


def _actor(request) -> str:
    return f"operator:{request.user.pk}"


class IntListField(forms.CharField):
    """A comma-separated list of integers (prize tables, multiplier schedules), checked like the
    services check it; shown back as ``100,50,25``."""

    def __init__(self, *, lo: int, hi: int | None = None, **kwargs):
        super().__init__(required=False, **kwargs)
        self.lo, self.hi = lo, hi

    def prepare_value(self, value):
        return ",".join(str(v) for v in value) if isinstance(value, list) else value

    def clean(self, value):
        try:
            return int_list(super().clean(value) or "", "list", lo=self.lo, hi=self.hi, max_len=1000)
        except DomainError as exc:
            raise ValidationError(exc.message) from exc

    def has_changed(self, initial, data):
        try:
            return self.clean(data) != (initial or [])
        except ValidationError:
            return True


class TournamentForm(forms.ModelForm):
    prize_table = IntListField(lo=0, help_text="points per final place, e.g. 100,50,25")
    multipliers = IntListField(
        lo=1, hi=6, help_text="TP multiplier per wave (×1…×6), e.g. 1,2,3; later waves keep the last one"
    )

    class Meta:
        model = Tournament
        fields = SETTINGS  # what an operator sets

    def clean(self):
        """The services' own checks, so that a refusal is a form error, not a failed save."""
        data = super().clean()
        if self.errors:
            return data
        if not self.instance._state.adding and (
            self.instance.status != "scheduled" or timezone.now() >= self.instance.starts_at
        ):
            raise ValidationError("a started tournament's rules cannot be edited")
        settings = {k: data.get(k) for k in self.Meta.fields}
        if not settings["registration_opens_at"]:
            settings["registration_opens_at"] = min(timezone.now(), settings["starts_at"] or timezone.now())
        try:
            lifecycle.settings_clean(settings)
        except DomainError as exc:
            raise ValidationError(exc.message) from exc
        if data["ends_at"] <= timezone.now():
            raise ValidationError("the tournament would already be over")
        return data


def _events_table(stream_id: str):
    rows = (
        Event.objects.filter(stream_id=stream_id)
        .order_by("version")
        .values_list("position", "version", "type", "metadata", "recorded_at")[:EVENTS_SHOWN]
    )
    body = format_html_join(
        "",
        '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>',
        (
            (reverse("admin:rivals_event_change", args=[pos]), version, type_, (meta or {}).get("actor"), at)
            for pos, version, type_, meta, at in rows
        ),
    )
    return format_html("<table><tr><th>version</th><th>type</th><th>actor</th><th>at</th></tr>{}</table>", body)


def _round_link(round_id):
    if not round_id:
        return "—"
    try:
        return format_html('<a href="{}">{}</a>', reverse("admin:matches_round_change", args=[round_id]), round_id)
    except NoReverseMatch:
        return str(round_id)


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RegistrationInline(ReadOnlyInline):
    """Standings: total TP, ties by registration time then account id (R-26)."""

    model = Registration
    fields = readonly_fields = ("account", "registered_at", "tp", "tables_played", "place", "prize")
    ordering = ("-tp", "registered_at", "account_id")
    verbose_name_plural = "registrations and standings"


class WaveInline(ReadOnlyInline):
    model = Wave
    fields = readonly_fields = ("number", "multiplier", "seated_at", "ended_at", "tables_open", "waiting")


class TableInline(ReadOnlyInline):
    model = Table
    fields = readonly_fields = ("wave", "number", "status", "players", "round", "seated_at", "ended_at", "end_reason")

    @admin.display(description="players (place, score, TP)")
    def players(self, obj: Table):
        return ", ".join(f"{s.account_id} ({s.place}, {s.score}, {s.tp})" for s in obj.seats.order_by("seat"))

    @admin.display(description="round")
    def round(self, obj: Table):
        return _round_link(obj.round_id)


@admin.action(description="Cancel the selected tournaments (a TournamentCancelled event)")
def cancel_tournaments(modeladmin, request, queryset):
    done = 0
    for t in queryset.order_by("pk"):
        try:
            lifecycle.tournament_cancel(tournament_id=t.pk, actor=_actor(request))
            done += 1
        except DomainError as exc:
            modeladmin.message_user(request, f"{t.title}: {exc.message}", messages.WARNING)
    modeladmin.message_user(request, f"cancelled {done} tournament(s)", messages.SUCCESS)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("title", "kind", "status", "starts_at", "ends_at", "registered", "min_players", "current_wave")
    list_filter = ("status", "kind")
    search_fields = ("title", "=id")
    ordering = ("-starts_at",)
    actions = [cancel_tournaments]
    inlines = [RegistrationInline, WaveInline, TableInline]
    STATE = (
        "id",
        "status",
        "registered",
        "current_wave",
        "seed",
        "created_at",
        "started_at",
        "finalized_at",
        "cancelled_at",
        "cancel_reason",
        "schedule",
        "occurrence",
        "event_list",
    )

    def get_fields(self, request, obj=None):
        return list(TournamentForm.Meta.fields) + (list(self.STATE) if obj else [])

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        if obj.status != "scheduled":  # a started tournament's rules cannot be edited
            return list(TournamentForm.Meta.fields) + list(self.STATE)
        return self.STATE

    def get_inlines(self, request, obj):
        return self.inlines if obj else []

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="events")
    def event_list(self, obj: Tournament):
        return _events_table(obj.stream_id)

    def save_model(self, request, obj, form, change):
        data = {k: form.cleaned_data[k] for k in TournamentForm.Meta.fields if k in form.cleaned_data}
        try:
            if change:
                changed = {k: v for k, v in data.items() if k in form.changed_data}
                saved = lifecycle.tournament_edit(tournament_id=obj.pk, actor=_actor(request), **changed)
            else:
                saved = lifecycle.tournament_create(actor=_actor(request), **data)
        except DomainError as exc:
            # the form was valid but the service refused (e.g. the tournament started meanwhile)
            raise ValidationError(exc.message) from exc
        obj.pk = saved.pk
        obj.refresh_from_db()


class RecurringScheduleForm(forms.ModelForm):
    prize_table = IntListField(lo=0, help_text="points per final place, e.g. 100,50,25")
    multipliers = IntListField(lo=1, hi=6, help_text="TP multiplier per wave (×1…×6)")

    class Meta:
        model = RecurringSchedule
        fields = (
            "title",
            "kind",
            "local_time",
            "weekdays",
            "duration_minutes",
            "registration_hours_before",
            "min_players",
            "prize_table",
            "multipliers",
            "days_ahead",
            "active",
        )

    def clean_weekdays(self):
        days = "".join(sorted(set(self.cleaned_data["weekdays"].replace(",", "").replace(" ", ""))))
        if not days or any(c not in "0123456" for c in days):
            raise ValidationError("digits 0 (Monday) … 6 (Sunday), e.g. 0123456 for every day")
        return days

    def clean_min_players(self):
        value = self.cleaned_data["min_players"]
        if value < 2:
            raise ValidationError("at least 2")
        return value


@admin.register(RecurringSchedule)
class RecurringScheduleAdmin(admin.ModelAdmin):
    """Every chosen weekday at a Romanian wall-clock time; instances appear ``days_ahead`` in advance."""

    form = RecurringScheduleForm
    list_display = ("title", "kind", "local_time", "weekdays", "duration_minutes", "days_ahead", "active")
    list_filter = ("active", "kind")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if obj.active:
            created = schedules.schedule_materialize(schedule=obj)
            self.message_user(request, f"{created} upcoming instance(s) created", messages.INFO)


class PotForm(forms.ModelForm):
    prize_split = IntListField(lo=0, help_text="points per place, e.g. 500,300,200")
    entrants = IntListField(lo=1, help_text="entry list: account ids, comma-separated")

    class Meta:
        model = Pot
        fields = ("title", "code", "time_limit_s", "open_entry", "prize_split", "counts", "starts_at", "ends_at")

    def clean(self):
        data = super().clean()
        if not self.errors and self.instance._state.adding:
            try:
                pots.pot_settings_clean({k: data.get(k) for k in self.Meta.fields})
            except DomainError as exc:
                raise ValidationError(exc.message) from exc
        return data


class PotEntrantInline(ReadOnlyInline):
    model = PotEntrant
    fields = readonly_fields = ("account", "entered_at", "game_id", "score", "place", "prize")


@admin.register(Pot)
class PotAdmin(admin.ModelAdmin):
    form = PotForm
    list_display = ("title", "code", "status", "starts_at", "ends_at", "time_limit_s", "open_entry", "counts")
    list_filter = ("status", "counts")
    inlines = [PotEntrantInline]
    STATE = ("id", "status", "created_at", "finalized_at", "event_list")

    def get_fields(self, request, obj=None):
        if obj:
            return list(PotForm.Meta.fields) + list(self.STATE)
        return list(PotForm.Meta.fields) + ["entrants"]

    def get_readonly_fields(self, request, obj=None):
        # Decision: a pot's settings are fixed once created (entrants may already be playing)
        return list(PotForm.Meta.fields) + list(self.STATE) if obj else ()

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="events")
    def event_list(self, obj: Pot):
        return _events_table(obj.stream_id)

    def save_model(self, request, obj, form, change):
        if change:
            return
        data = {k: form.cleaned_data[k] for k in PotForm.Meta.fields}
        try:
            saved = pots.pot_create(actor=_actor(request), entrants=form.cleaned_data.get("entrants"), **data)
        except DomainError as exc:
            raise ValidationError(exc.message) from exc
        obj.pk = saved.pk
        obj.refresh_from_db()


def _commitments(account) -> list[str]:
    """R-38: a suspended or closed account is not seated and wins no prize or trophy."""
    registrations = Registration.objects.filter(account_id=account.pk, tournament__status__in=("scheduled", "running"))
    lines = [
        f"registered for “{r.tournament.title}” ({r.tournament.get_status_display()}): not seated from now on, "
        "no prize or trophy"
        for r in registrations.select_related("tournament").order_by("tournament__starts_at")[:10]
    ]
    seated = TableSeat.objects.filter(account_id=account.pk, table__status="playing").select_related("tournament")
    lines += [f"seated now at a table of “{s.tournament.title}”: its round goes on without it" for s in seated[:10]]
    return lines


register_player_commitments(_commitments)


@admin.register(Trophy)
class TrophyAdmin(ReadOnlyAdmin):
    list_display = ("awarded_at", "account", "kind", "title", "tournament")
    list_filter = ("kind",)
    search_fields = ("account__username", "account__display_name", "title")
