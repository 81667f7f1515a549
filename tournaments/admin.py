"""Operators' admin for tournaments, schedules, pot competitions and trophies.

Creating, editing and cancelling go through the services, so each is an event with the operator
as actor; they are Game operations' (issue 40: ``tournaments.add_…``/``change_…``). A started
tournament is read-only and its page shows the standings first (``tournaments.admin_page``);
registrations, waves, tables, standings, trophies and events are read-only views of the
projections.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils import timezone

from rivals.admin import ReadOnlyAdmin
from rivals.admin_actions import ObjectActionsMixin, Row, actor_of, confirm_then_apply
from rivals.admin_base import register_player_commitments
from rivals.admin_display import names_of, when
from rivals.deals.selectors import deal_commitment
from rivals.errors import DomainError
from tournaments.admin_common import IntListField, events_table
from tournaments.admin_page import standings_html, summary_html, tables_html
from tournaments.events import SETTINGS
from tournaments.models import (
    Pot,
    PotEntrant,
    Registration,
    Table,
    TableSeat,
    Tournament,
    Trophy,
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


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


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
            f"{t.registered} registered player(s){': ' + who + more if registered else ''} — each is told it was "
            "cancelled by an operator (not your note)"
        ),
    ]
    if t.status == "running":
        tables = Table.objects.filter(tournament=t, status="playing")
        seated = TableSeat.objects.filter(table__in=tables).count()
        lines.append(
            f"running, wave {t.current_wave}: {seated} player(s) seated at {tables.count()} table(s) now — their "
            "rounds end now, scoring no table points"
        )
    lines.append(_prizes(t))
    return Row(t, f"{t.title} ({t.get_kind_display()})", lines, skip)


@admin.action(description="Cancel the selected tournaments", permissions=["change"])
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
        explain="A cancelled tournament cannot be resumed: nobody plays on, no prize, no trophy. The players are "
        "told it was cancelled by an operator; your note stays here.",
        rows=_cancel_rows,
        apply=apply,
        ordering=("starts_at", "pk"),
        danger=True,
    )


@admin.register(Tournament)
class TournamentAdmin(ObjectActionsMixin, admin.ModelAdmin):
    """An upcoming tournament is a form (its settings, then who registered); once it started — or
    for a role that may not edit it — its page shows the standings first, then the tournament in
    a few lines, its waves and tables and its event log folded away, and no Save."""

    form = TournamentForm
    object_actions = (("cancel_tournaments", "Cancel…"),)
    list_display = ("title", "kind", "status", "starts_at", "ends_at", "registered", "min_players", "current_wave")
    list_filter = ("status", "kind")
    search_fields = ("title", "=id")
    ordering = ("-starts_at",)
    actions = [cancel_tournaments]
    READ = ("standings", "summary", "tables", "event_list")
    readonly_fields = READ

    def _editable(self, request, obj) -> bool:
        return obj is None or self.has_change_permission(request, obj)

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [(None, {"fields": TournamentForm.Meta.fields})]
        log = ("Event log (oldest first)", {"fields": ("event_list",), "classes": ("collapse",)})
        if self._editable(request, obj):
            return [(None, {"fields": TournamentForm.Meta.fields}), ("Registered", {"fields": ("standings",)}), log]
        standings = "Registered" if obj.status in ("scheduled", "cancelled") else "Standings"
        return [
            (standings, {"fields": ("standings",)}),
            ("The tournament", {"fields": ("summary",)}),
            ("Waves and tables", {"fields": ("tables",), "classes": ("collapse",)}),
            log,
        ]

    def get_readonly_fields(self, request, obj=None):
        return self.READ if obj is not None else ()

    def has_change_permission(self, request, obj=None):
        """Only an upcoming tournament's settings are edited (R-21); a started one is history."""
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or (obj.status == "scheduled" and timezone.now() < obj.starts_at))

    def has_delete_permission(self, request, obj=None):
        return False

    def object_action_shown(self, obj: Tournament, name: str) -> bool:
        return obj.status in ("scheduled", "running")

    @admin.display(description="")
    def standings(self, obj: Tournament):
        return standings_html(obj)

    @admin.display(description="")
    def summary(self, obj: Tournament):
        return summary_html(obj)

    @admin.display(description="")
    def tables(self, obj: Tournament):
        return tables_html(obj)

    @admin.display(description="")
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
        help_text="the deal (MJ1-Lnn-XXXXXXX); empty: a fresh deal no one can have practised. "
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
    STATE = ("settings", "status", "commitment", "created", "finalized", "event_list")

    def get_fields(self, request, obj=None):
        if obj:
            return list(self.STATE)
        return list(PotForm.Meta.fields) + ["entrants"]

    def get_readonly_fields(self, request, obj=None):
        return list(self.STATE) if obj else ()

    def has_change_permission(self, request, obj=None):
        # Decision: a pot's settings are fixed once created (entrants may already be playing): no Save
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="settings")
    def settings(self, obj: Pot) -> str:
        prizes = " / ".join(str(p) for p in obj.prize_split if p) or "none"
        entry = "anyone may enter" if obj.open_entry else "the entry list only"
        counts = "count for the rankings" if obj.counts else "do not count for the rankings"
        return (
            f"{obj.title}: {obj.time_limit_s} s per entrant's game, {entry}; prizes {prizes} points by place, which "
            f"{counts}; open {when(obj.starts_at)} – {when(obj.ends_at)}"
        )

    @admin.display(description="created")
    def created(self, obj: Pot) -> str:
        return when(obj.created_at)

    @admin.display(description="finished")
    def finalized(self, obj: Pot) -> str:
        return when(obj.finalized_at)

    @admin.display(description="the deal's commitment (players check the deal with it once it is shown)")
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
