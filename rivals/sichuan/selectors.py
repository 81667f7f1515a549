"""Read models of the Sichuan table for the API: what seat 0 may see (S-18, API "your view").

Everything here starts from the engine's ``seat_view`` / ``events_for_seat`` for the human's seat
and hides a little more, because the AIs act inside the human's request:

- the seed: the deal (every hand, the wall order) follows from it, so it is shown only once the
  deal is over;
- the AIs' claim decisions (``Passed`` / ``ClaimDeclared`` of seats 1–3) and the AIs' options in
  ``ClaimWindowOpened`` (a window only the AIs could claim is not shown at all): they would tell
  which tiles an AI holds. What a claim leads to (``Ponged``, ``Konged``, ``HandWon``) is public.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from rivals.eventstore import stream_filter
from rivals.models import Event
from rivals.romanian_time import iso_z
from rivals.sichuan import engine
from rivals.sichuan.events import CLAIM_DECLARED, CLAIM_WINDOW_OPENED, PASSED, TABLE_DEALT
from rivals.sichuan.models import SichuanTable
from rivals.sichuan.services import HUMAN_SEAT


def tile_view(tile: int | None) -> dict[str, Any] | None:
    return None if tile is None else {"id": tile, "face": engine.tile_face(tile)}


def _tiles(tiles) -> list[dict[str, Any]]:
    return [tile_view(t) for t in tiles]


def _action_view(action: dict) -> dict:
    out = dict(action)
    if out.get("tile") is not None:
        out["face"] = engine.tile_face(out["tile"])
    return out


def table_view(*, table: SichuanTable, state: engine.Table) -> dict[str, Any]:
    """Seat 0's view: own hand, all melds and discards, wall count, missing suits as revealed,
    whose turn, seat 0's legal actions, scores and payments; AI hands only once the deal is over."""
    seat = table.human_seat
    view = engine.seat_view(state, seat)
    over = view.over
    seats = []
    for s in range(4):
        win = state.wins[s]
        seats.append(
            {
                "seat": s,
                "player": "you" if s == seat else "ai",
                "hand_size": view.hand_sizes[s],
                "hand": _tiles(view.hand) if s == seat else (_tiles(view.revealed_hands[s]) if over else None),
                "melds": [
                    {"type": m.type, "kong": m.kong, "tiles": _tiles(m.tiles), "from": m.from_seat}
                    for m in view.melds[s]
                ],
                "discards": _tiles(view.discards[s]),
                "missing": view.missing[s],
                "active": view.active[s],
                "win": None
                if win is None
                else {
                    "by": win["by"],
                    "from": win["from"],
                    "tile": tile_view(win["tile"]),
                    "fan": win["fan"],
                    "fans": win["fans"],
                    "value": win["value"],
                },
                "score": view.scores[s],
            }
        )
    payments = [dict(p) for p in state.payments]
    return {
        "id": str(table.id),
        "status": table.status,
        "seq": table.seq,
        "seat": seat,
        "seed": table.seed if over else None,  # the seed determines every hand and the wall
        "dealer": view.dealer,
        "phase": view.phase,
        "turn": view.turn,
        "to_act": bool(view.legal),
        "hand": _tiles(view.hand),
        "drawn": tile_view(view.drawn),
        "wall_count": view.wall_count,
        "missing": list(view.missing),
        "claim": None
        if view.claim is None
        else {"kind": view.claim[0], "from": view.claim[1], "tile": tile_view(view.claim[2])},
        "legal_actions": [_action_view(a) for a in view.legal],
        "seats": seats,
        "scores": list(view.scores),
        "payments": payments,
        "result": {
            "reason": state.end_reason,
            "scores": list(view.scores),
            "payments": payments,
            "hands": [_tiles(h) for h in view.revealed_hands],
        }
        if over
        else None,
        "created_at": iso_z(table.created_at),
        "finished_at": iso_z(table.finished_at),
    }


# --- events -------------------------------------------------------------------------------------

_AI_DECISIONS = frozenset({PASSED, CLAIM_DECLARED})


def visible_events(
    events: list[Event], *, seat: int = HUMAN_SEAT, over: bool, after_version: int = 0
) -> list[dict[str, Any]]:
    """The stream's events as one seat may see them (``events_for_seat`` plus the module's rules).

    ``events`` is the whole stream in version order. Each visible event carries ``index``, its
    1-based place among the events this seat sees — not the stream version, whose gaps would tell
    how many hidden events (an AI's pass on a claim window …) lie between two visible ones. Only
    events after ``after_version`` are returned (their index still counts from the start)."""
    redacted = engine.events_for_seat([{**e.data, "type": e.type} for e in events], seat)
    out = []
    index = 0
    for event, ev in zip(events, redacted, strict=True):
        kind = ev["type"]
        if kind in _AI_DECISIONS and ev["seat"] != seat:
            continue
        if kind == CLAIM_WINDOW_OPENED:
            mine = [c for c in ev["claims"] if c["seat"] == seat]
            if not mine:
                continue
            ev = {**ev, "claims": mine}
        elif kind == TABLE_DEALT and not over:
            ev = {**ev, "seed": None}
        index += 1
        if event.version > after_version:
            out.append(
                {
                    "index": index,
                    "type": kind,
                    "data": {k: v for k, v in ev.items() if k != "type"},
                    "recorded_at": iso_z(event.recorded_at),
                }
            )
    return out


def table_events(*, table: SichuanTable, after_version: int = 0) -> list[dict[str, Any]]:
    rows = list(Event.objects.filter(**stream_filter(table.stream_id), version__lte=table.version).order_by("version"))
    return visible_events(rows, seat=table.human_seat, over=table.status == "finished", after_version=after_version)


def tables_of(*, account) -> QuerySet[SichuanTable]:
    return SichuanTable.objects.filter(account=account).order_by("-created_at")


def table_summary(table: SichuanTable) -> dict[str, Any]:
    return {
        "id": str(table.id),
        "status": table.status,
        "seq": table.seq,
        "scores": table.scores,
        "created_at": iso_z(table.created_at),
        "finished_at": iso_z(table.finished_at),
    }
