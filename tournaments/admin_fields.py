"""Form fields the tournaments' admin pages share."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from rivals.errors import DomainError
from tournaments.services.lifecycle import int_list


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
