"""What the tournaments' admin pages share: the integer-list field, a stream's events as a table."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from rivals.admin_display import actor_html, names_of, when
from rivals.errors import DomainError
from rivals.models import Event
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


EVENTS_SHOWN = 300


def events_table(stream_id: str):
    rows = list(
        Event.objects.filter(stream_id=stream_id)
        .order_by("version")
        .values_list("position", "version", "type", "metadata", "recorded_at")[:EVENTS_SHOWN]
    )
    names = names_of(
        int(m["actor"].split(":")[1])
        for *_, m, _ in rows
        if (m or {}).get("actor", "").startswith(("operator:", "account:")) and m["actor"].split(":")[1].isdigit()
    )
    body = format_html_join(
        "",
        '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>',
        (
            (
                reverse("admin:rivals_event_change", args=[pos]),
                version,
                type_,
                actor_html((meta or {}).get("actor"), names),
                when(at),
            )
            for pos, version, type_, meta, at in rows
        ),
    )
    return format_html(
        "<table><tr><th>version</th><th>type</th><th>actor</th><th>at (Romanian time)</th></tr>{}</table>", body
    )
