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
from rivals.admin_actions import ObjectActionsMixin, Row, actor_of, confirm_then_apply
from rivals.admin_base import register_player_commitments
from rivals.admin_display import account_link, names_of, when
from rivals.deals.selectors import deal_commitment
from rivals.errors import DomainError
from tournaments.admin_common import IntListField, events_table
from tournaments.events import SETTINGS
from tournaments.models import (
    Pot,
    PotEntrant,
    Registration,
    Table,
    TableSeat,
    Tournament,
    Trophy,
    Wave,
)
from tournaments.services import lifecycle, pots


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
            if self.instance._state.adding:
                lifecycle.settings_clean(settings)
            else:  # as the edit will be (R-28: a Champions start moved to another week reopens registration)
                lifecycle.settings_edited(self.instance, {k: settings[k] for k in self.changed_data if k in settings})
        except DomainError as exc:
            raise ValidationError(exc.message) from exc
        if data["ends_at"] <= timezone.now():
            raise ValidationError("the tournament would already be over")
        return data


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
        seats = list(obj.seats.order_by("seat"))
        names = names_of(s.account_id for s in seats)
        return format_html_join(
            ", ",
            "{} ({})",
            (
                (
                    account_link(s.account_id, names),
                    f"place {s.place}, score {s.score}, {s.tp} TP" if s.place is not None else "playing",
                )
                for s in seats
            ),
        )

    @admin.display(description="round")
    def round(self, obj: Table):
        return _round_link(obj.round_id)


def _prizes(t: Tournament) -> str:
    paid = [p for p in t.prize_table if p]
    if not paid:
        return "no prize table"
    trophy = "the Champions trophy" if t.kind == "champions" else "the winner's cup"
    return f"prizes not paid: {' + '.join(map(str, paid))} points to places 1–{len(paid)}, and {trophy}"


def _cancel_rows(t: Tournament) -> Row:
    skip = f"already {t.get_status_display()}" if t.status in ("finished", "cancelled") else None
    registered = list(Registration.objects.filter(tournament=t).order_by("registered_at")[:10])
    names = names_of(r.account_id for r in registered)
    who = ", ".join(f"{names.get(r.account_id, '?')} (#{r.account_id})" for r in registered)
    more = f" and {t.registered - len(registered)} more" if t.registered > len(registered) else ""
    lines = [
        f"{t.get_status_display()}: starts {when(t.starts_at)}, ends {when(t.ends_at)}",
        (
            f"{t.registered} registered player(s){': ' + who + more if registered else ''} — each is told "
            "(the tournament_cancelled notification)"
        ),
    ]
    if t.status == "running":
        tables = Table.objects.filter(tournament=t, status="playing")
        seated = TableSeat.objects.filter(table__in=tables).count()
        lines.append(
            f"running, wave {t.current_wave}: {seated} player(s) seated at {tables.count()} table(s) now — their "
            "rounds end now, scoring no TP"
        )
    lines.append(_prizes(t))
    return Row(t, f"{t.title} ({t.get_kind_display()})", lines, skip)


@admin.action(description="Cancel the selected tournaments (TournamentCancelled, with a reason)")
def cancel_tournaments(modeladmin, request, queryset):
    def apply(t, d, actor):
        _, ended = lifecycle.tournament_cancel_now(tournament_id=t.pk, actor=actor, note=d["reason"])
        return f"cancelled{f', {ended} round(s) ended' if ended else ''}"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="cancel_tournaments",
        title="Cancel tournaments",
        explain="A cancelled tournament cannot be resumed: nobody plays on, no prize, no trophy. Appends "
        "TournamentCancelled with your reason (the players are told it was cancelled by an operator).",
        rows=_cancel_rows,
        apply=apply,
        ordering=("starts_at", "pk"),
        danger=True,
    )


@admin.register(Tournament)
class TournamentAdmin(ObjectActionsMixin, admin.ModelAdmin):
    form = TournamentForm
    object_actions = (("cancel_tournaments", "Cancel…"),)
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
        "cancel_note",
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

    def object_action_shown(self, obj: Tournament, name: str) -> bool:
        return obj.status in ("scheduled", "running")

    @admin.display(description="events")
    def event_list(self, obj: Tournament):
        return events_table(obj.stream_id)

    def save_model(self, request, obj, form, change):
        data = {k: form.cleaned_data[k] for k in TournamentForm.Meta.fields if k in form.cleaned_data}
        try:
            if change:
                changed = {k: v for k, v in data.items() if k in form.changed_data}
                before = Tournament.objects.get(pk=obj.pk).registered
                saved = lifecycle.tournament_edit(tournament_id=obj.pk, actor=actor_of(request), **changed)
                if saved.registered < before:  # moved into another week
                    self.message_user(
                        request,
                        f"the start moved into another week: {before - saved.registered} registration(s) ended "
                        "(reason rescheduled, each player notified); registration reopens under that week's rule",
                        messages.WARNING,
                    )
            else:
                saved = lifecycle.tournament_create(actor=actor_of(request), **data)
        except DomainError as exc:
            # the form was valid but the service refused (e.g. the tournament started meanwhile)
            raise ValidationError(exc.message) from exc
        obj.pk = saved.pk
        obj.refresh_from_db()


class PotForm(forms.ModelForm):
    code = forms.CharField(
        required=False,
        max_length=20,
        help_text="the deal (MJ1-Lnn-XXXXXXX); empty: a fresh deal no one can have practised (R-40). "
        "Players see only its commitment until the pot closes.",
    )
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
    STATE = ("id", "status", "commitment", "created_at", "finalized_at", "event_list")

    def get_fields(self, request, obj=None):
        if obj:
            return list(PotForm.Meta.fields) + list(self.STATE)
        return list(PotForm.Meta.fields) + ["entrants"]

    def get_readonly_fields(self, request, obj=None):
        # Decision: a pot's settings are fixed once created (entrants may already be playing)
        return list(PotForm.Meta.fields) + list(self.STATE) if obj else ()

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="commitment (R-40)")
    def commitment(self, obj: Pot):
        return deal_commitment(obj.code, obj.salt) if obj.salt else "—"

    @admin.display(description="events")
    def event_list(self, obj: Pot):
        return events_table(obj.stream_id)

    def save_model(self, request, obj, form, change):
        if change:
            return
        data = {k: form.cleaned_data[k] for k in PotForm.Meta.fields}
        try:
            saved = pots.pot_create(actor=actor_of(request), entrants=form.cleaned_data.get("entrants"), **data)
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


from tournaments import admin_schedules  # noqa: E402,F401  registers the recurring schedules' admin
