"""What a tournament's page shows once it is no longer edited (issue 40): the standings first (final
places and prizes, or the table points so far), then the tournament in a few lines, its waves and
tables, and its event log — the last two folded away. Read from the projections; nothing on it is
a form field, so nothing offers a Save."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import format_html, format_html_join

from rivals.admin_display import account_link, names_of, table_html, url, when
from tournaments.models import Registration, Table, TableSeat, Tournament

CANCELLED_BECAUSE = {
    "operator": "by an operator",
    "too_few_players": "too few players registered",
    "champions_too_few": "too few players won a prize this week to hold a Champions tournament",
    "not_started_before_end": "it could not start before its end",
}


def standings_html(t: Tournament):
    """Finished: final places and prizes; running: the table points so far (ties: registration,
    then id); upcoming or cancelled: who registered, when."""
    rows = list(Registration.objects.filter(tournament=t).order_by("-tp", "registered_at", "account_id"))
    if t.status == "finished":
        rows.sort(key=lambda r: (r.place is None, r.place or 0, r.account_id))
    names = names_of(r.account_id for r in rows)
    if t.status in ("finished", "running"):
        head = ["place", "player", "table points", "tables played", "prize (points)"]
        body = [
            [
                r.place if t.status == "finished" else i,
                account_link(r.account_id, names),
                r.tp,
                r.tables_played,
                r.prize if r.prize else "—",
            ]
            for i, r in enumerate(rows, start=1)
        ]
        if t.status == "running":
            head[0] = "place so far"
    else:
        head = ["player", "registered"]
        body = [[account_link(r.account_id, names), when(r.registered_at)] for r in rows]
    return table_html(head, body, css="standings")


def summary_html(t: Tournament):
    """The tournament in a few lines: when, who, what it pays, how it ended."""
    paid = [p for p in t.prize_table if p]
    lines = [
        ("kind", t.get_kind_display()),
        ("status", t.get_status_display()),
        ("registration opens", when(t.registration_opens)),
        ("starts", when(t.starts_at)),
        ("ends", when(t.ends_at)),
        ("players", f"{t.registered} registered, at least {t.minimum} needed"),
        ("prizes", " / ".join(str(p) for p in paid) + " points by place" if paid else "none"),
        ("table points multiplier per wave", ", ".join(f"×{m}" for m in t.multipliers) or "×1"),
    ]
    if t.started_at:
        lines.append(("started", when(t.started_at)))
    if t.finalized_at:
        lines.append(("finished", when(t.finalized_at)))
    if t.cancelled_at:
        why = CANCELLED_BECAUSE.get(t.cancel_reason, t.cancel_reason)
        note = f" — operator's note: {t.cancel_note}" if t.cancel_note else ""
        lines.append(("cancelled", f"{when(t.cancelled_at)}, {why}{note}"))
    if t.schedule_id:
        link = format_html(
            '<a href="{}">{}</a>', url("admin:tournaments_recurringschedule_change", t.schedule_id), t.schedule
        )
        lines.append(("made by the schedule", link))
    return format_html(
        '<table class="tournament-summary">{}</table>',
        format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", lines),
    )


def tables_html(t: Tournament):
    """Every wave's tables: the players with their place, score and table points, the round."""
    tables = list(Table.objects.filter(tournament=t).select_related("wave").order_by("wave__number", "number"))
    if not tables:
        return "no table was seated"
    seats = list(TableSeat.objects.filter(tournament=t).order_by("table_id", "seat"))
    names = names_of(s.account_id for s in seats)
    by_table: dict[int, list[TableSeat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    rows = []
    for table in tables:
        players = format_html_join(
            ", ",
            "{} ({})",
            (
                (
                    account_link(s.account_id, names),
                    f"place {s.place}, score {s.score}, {s.tp} TP" if s.place is not None else "playing",
                )
                for s in by_table.get(table.pk, [])
            ),
        )
        game = (
            format_html('<a href="{}">the round</a>', reverse("admin:matches_round_change", args=[table.round_id]))
            if table.round_id
            else "—"
        )
        ended = f"ended {when(table.ended_at)}" if table.ended_at else "playing"
        rows.append([f"{table.wave.number} (×{table.wave.multiplier})", table.number, players, game, ended])
    return table_html(["wave", "table", "players (place, score, table points)", "round", "state"], rows)
