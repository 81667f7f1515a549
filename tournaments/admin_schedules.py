"""Recurring schedules in the admin (R-21): every chosen weekday at a Romanian wall-clock time."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from tournaments.admin_fields import IntListField
from tournaments.models import RecurringSchedule
from tournaments.services import schedules


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
