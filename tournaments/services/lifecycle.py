"""Operators create, edit and cancel tournaments (R-21). Each is an event with the operator as actor."""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from rivals.errors import Invalid, NotAllowed
from rivals.eventstore import event_append
from rivals.romanian_time import week_bounds_utc
from rivals.text import clean_text
from tournaments import events as ev
from tournaments.models import KINDS, MULTIPLIER_MAX, MULTIPLIER_MIN, Registration, Table, Tournament
from tournaments.services.common import STREAM_TYPE, task_on_commit, tournament_append, tournament_locked

MAX_PRIZE_PLACES = 1000
MAX_WAVES_IN_SCHEDULE = 100
EDITABLE = frozenset(ev.SETTINGS)


def int_list(value: Any, name: str, *, lo: int, hi: int | None, max_len: int) -> list[int]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)):
        raise Invalid(f"{name} is a list of integers", details={name: ["a list of integers"]})
    if len(value) > max_len:
        raise Invalid(f"{name} has at most {max_len} entries", details={name: [f"at most {max_len} entries"]})
    out = []
    for v in value:
        if isinstance(v, str) and v.lstrip("-").isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            bound = f"{lo}…{hi}" if hi is not None else f"≥ {lo}"
            raise Invalid(f"{name}: {v!r} is not an integer {bound}", details={name: [f"integers {bound}"]})
        out.append(v)
    return out


def settings_clean(raw: dict[str, Any]) -> dict[str, Any]:
    """Validate a full set of tournament settings (R-21); raises ``Invalid`` naming the bad field."""
    s = dict(raw)
    if s.get("kind") not in dict(KINDS):
        raise Invalid("kind is regular or champions", details={"kind": ["regular or champions"]})
    title = " ".join(str(s.get("title") or "").split())
    if not title or len(title) > 120:
        raise Invalid("title must be 1–120 characters", details={"title": ["1–120 characters"]})
    s["title"] = title
    for name in ("registration_opens_at", "starts_at", "ends_at"):
        value = s.get(name)
        if not isinstance(value, datetime) or timezone.is_naive(value):
            raise Invalid(f"{name} must be a date-time with a UTC offset", details={name: ["aware ISO 8601"]})
    if s["ends_at"] <= s["starts_at"]:
        raise Invalid("the end must be after the start", details={"ends_at": ["after starts_at"]})
    if s["registration_opens_at"] > s["starts_at"]:
        raise Invalid("registration must open before the start", details={"registration_opens_at": ["≤ starts_at"]})
    if s["kind"] == "champions":  # never before the Monday 00:00 of the start's Romanian week
        s["registration_opens_at"] = max(s["registration_opens_at"], week_bounds_utc(s["starts_at"])[0])
    mp = s.get("min_players")
    if isinstance(mp, bool) or not isinstance(mp, int) or not 2 <= mp <= 100_000:
        raise Invalid("min_players is an integer 2…100000", details={"min_players": ["integer 2…100000"]})
    s["prize_table"] = int_list(s.get("prize_table", []), "prize_table", lo=0, hi=None, max_len=MAX_PRIZE_PLACES)
    # an integer ×1 … ×6 per seating wave
    s["multipliers"] = int_list(
        s.get("multipliers", []), "multipliers", lo=MULTIPLIER_MIN, hi=MULTIPLIER_MAX, max_len=MAX_WAVES_IN_SCHEDULE
    )
    return {k: s[k] for k in ev.SETTINGS}


def _current_settings(t: Tournament) -> dict[str, Any]:
    return {k: getattr(t, k) for k in ev.SETTINGS}


def settings_edited(t: Tournament, changes: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The settings of ``t`` after ``changes`` (validated), and whether they move a Champions
    Tournament's start into another Romanian week (R-28).

    Decision (R-28): such a move ends every registration made before (``tournament_edit``) and
    registration reopens under the new week's rule — from that week's Monday 00:00 Romanian time,
    unless the operator sets ``registration_opens_at`` too (then clamped to that Monday as ever)."""
    merged = {**_current_settings(t), **changes}
    start = merged.get("starts_at")
    moved = (
        t.kind == "champions"
        and merged.get("kind") == "champions"
        and isinstance(start, datetime)
        and not timezone.is_naive(start)
        and week_bounds_utc(start)[0] != week_bounds_utc(t.starts_at)[0]
    )
    if moved and "registration_opens_at" not in changes:
        merged["registration_opens_at"] = week_bounds_utc(start)[0]
    return settings_clean(merged), moved


@transaction.atomic
def tournament_create(
    *,
    actor: str,
    now: datetime | None = None,
    schedule_id: int | None = None,
    occurrence: str | None = None,
    **settings: Any,
) -> Tournament:
    """Create a tournament (``TournamentCreated``, actor e.g. ``operator:7``). Registration opens at
    ``registration_opens_at`` (default: now) and closes at the start."""
    now = now or timezone.now()
    start = settings.get("starts_at")
    if settings.get("registration_opens_at") is None:
        settings["registration_opens_at"] = min(now, start) if isinstance(start, datetime) and start.tzinfo else now
    clean = settings_clean(settings)
    if clean["ends_at"] <= now:
        raise Invalid("the tournament would already be over", details={"ends_at": ["in the future"]})
    tid = uuid.uuid4()
    event_append(
        stream_id=f"tournament-{tid}",
        stream_type=STREAM_TYPE,
        expected_version=0,
        actor=actor,
        now=now,
        events=[
            ev.tournament_created(
                tournament_id=tid,
                settings=clean,
                seed=secrets.randbits(62),
                created_at=now,
                schedule_id=schedule_id,
                occurrence=occurrence,
            )
        ],
    )
    task_on_commit("tournaments.tick", eta=clean["starts_at"], tournament_id=str(tid))
    return Tournament.objects.get(pk=tid)


@transaction.atomic
def tournament_edit(*, tournament_id, actor: str, now: datetime | None = None, **changes: Any) -> Tournament:
    """Change settings before the start (``TournamentEdited`` with the changed fields only).

    A started (or finished, cancelled) tournament's rules cannot be edited. Decision: the kind can
    change only while nobody is registered (Champions eligibility is checked at registration).
    R-28: a Champions Tournament's start moved into another Romanian week ends every registration
    made before — a ``PlayerUnregistered`` each (``reason: rescheduled``, the new start; the player
    is notified), after the ``TournamentEdited``, in registration order.
    """
    now = now or timezone.now()
    t = tournament_locked(tournament_id)
    unknown = set(changes) - EDITABLE
    if unknown:
        raise Invalid(f"not editable: {sorted(unknown)}", details={k: ["not editable"] for k in unknown})
    if t.status != "scheduled" or now >= t.starts_at:
        raise NotAllowed("a started tournament's rules cannot be edited", details={"status": t.status})
    clean, moved = settings_edited(t, changes)
    diff = {k: v for k, v in clean.items() if v != getattr(t, k)}
    if not diff:
        return t
    if "kind" in diff and t.registered:
        raise NotAllowed("the kind cannot change once players registered", details={"registered": t.registered})
    if clean["ends_at"] <= now:
        raise Invalid("the tournament would already be over", details={"ends_at": ["in the future"]})
    ended = []
    if moved:  # the registrations were made under another week's rule
        registered = Registration.objects.filter(tournament=t).order_by("registered_at", "account_id")
        ended = [
            ev.player_unregistered(account_id=a, reason="rescheduled", starts_at=clean["starts_at"])
            for a in registered.values_list("account_id", flat=True)
        ]
    tournament_append(t, [ev.tournament_edited(changes=diff), *ended], actor=actor, now=now)
    if "starts_at" in diff:
        task_on_commit("tournaments.tick", eta=t.starts_at, tournament_id=str(t.pk))
    return t


@transaction.atomic
def tournament_cancel(
    *, tournament_id, actor: str, reason: str = "operator", note: str = "", now: datetime | None = None
) -> Tournament:
    """An operator cancels an upcoming or running tournament: no prizes, no trophy. ``note``: the
    operator's reason in words, kept in the event (at most 300 characters)."""
    now = now or timezone.now()
    t = tournament_locked(tournament_id)
    if t.status in ("finished", "cancelled"):
        raise NotAllowed(f"the tournament is already {t.status}", details={"status": t.status})
    note = clean_text(note, field="note", max_length=300, min_length=0) if note else ""
    cancelled = ev.tournament_cancelled(reason=reason, registered=t.registered, minimum=t.minimum, at=now, note=note)
    tournament_append(t, [cancelled], actor=actor, now=now)
    return t


def tournament_cancel_now(
    *, tournament_id, actor: str, note: str, now: datetime | None = None
) -> tuple[Tournament, int]:
    """The admin's cancellation (issue 22): ``TournamentCancelled`` with the operator's reason,
    then the rounds its tables are playing end now (``RoundEnded`` with the operator as actor,
    scoring no TP: the tournament is cancelled) — seated players do not play on for nothing.
    Each round ends in its own transaction after the cancellation's (a round's end takes the
    round's lock before the tournament's). Returns the tournament and the rounds ended."""
    from rivals.matches.services import round_end_now

    with transaction.atomic():
        t = tournament_cancel(tournament_id=tournament_id, actor=actor, note=note, now=now)
    playing = Table.objects.filter(tournament=t, status="playing", round_id__isnull=False).order_by("pk")
    ended = 0
    for round_id in list(playing.values_list("round_id", flat=True)):
        with transaction.atomic():
            ended += round_end_now(round_id=round_id, actor=actor, now=now)
    return t, ended
