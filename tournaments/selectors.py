"""Read side of tournaments (API.md "Tournaments"): lists, the page, standings, tables, trophies."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet

from rivals.deals.selectors import code_is_secret, deal_fields
from rivals.games.selectors import scores_of
from rivals.models import Account
from tournaments.models import Pot, PotEntrant, Registration, TableSeat, Tournament, Trophy

# API status names → stored statuses
STATUS_FILTERS = {"upcoming": "scheduled", "running": "running", "finished": "finished", "cancelled": "cancelled"}
API_STATUS = {v: k for k, v in STATUS_FILTERS.items()}


def _player(account_id: int, names: dict[int, str]) -> dict[str, Any]:
    return {"id": account_id, "display_name": names.get(account_id, "")}


def _names(ids) -> dict[int, str]:
    return dict(Account.objects.filter(pk__in=list(ids)).values_list("pk", "display_name"))


def tournament_summary(t: Tournament) -> dict[str, Any]:
    """R-21: everything an operator set, and the registered count."""
    return {
        "id": str(t.id),
        "kind": t.kind,
        "title": t.title,
        "status": API_STATUS[t.status],
        "registration_opens_at": t.registration_opens,
        "starts_at": t.starts_at,
        "ends_at": t.ends_at,
        "min_players": t.minimum,
        "prize_table": t.prize_table,
        "multipliers": t.multipliers,
        "registered": t.registered,
        "current_wave": t.current_wave,
        "cancel_reason": t.cancel_reason or None,
        "cancelled_at": t.cancelled_at,
        "finalized_at": t.finalized_at,
    }


def tournament_list(*, status: str | None):
    qs = Tournament.objects.all()
    if status:
        qs = qs.filter(status=STATUS_FILTERS[status])
    return qs.order_by("-starts_at" if status in ("finished", "cancelled") else "starts_at", "id")


def standings(*, tournament: Tournament, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
    """Places by total TP, ties by earlier registration then lower account id (R-26); the final
    places and prizes once finalized. A tournament cancelled before any of its tables was played
    has no standings (API.md Tournaments: ``[]``, not a first place for a player who never
    played); one cancelled while it ran keeps the places its tables gave."""
    registrations = Registration.objects.filter(tournament=tournament)
    if tournament.status == "cancelled" and not registrations.filter(Q(tp__gt=0) | Q(tables_played__gt=0)).exists():
        return []
    rows = list(
        registrations.order_by("-tp", "registered_at", "account_id").values_list(
            "account_id", "tp", "place", "prize", "tables_played"
        )[offset : offset + limit]
    )
    names = _names(r[0] for r in rows)
    out = []
    for index, (account_id, tp, place, prize, played) in enumerate(rows, start=offset + 1):
        entry = {"place": place or index, "player": _player(account_id, names), "tp": tp, "tables_played": played}
        if tournament.status == "finished":
            entry["prize"] = prize or 0
        out.append(entry)
    return out


def tables_of(*, tournament: Tournament, account_id: int) -> list[dict[str, Any]]:
    """The caller's tables, wave by wave, with the round to play and the table's result."""
    seats = (
        TableSeat.objects.filter(tournament=tournament, account_id=account_id)
        .select_related("table__wave")
        .order_by("table__wave__number")
    )
    tables = [s.table for s in seats]
    everyone = (
        TableSeat.objects.filter(table__in=tables)
        .order_by("table_id", "seat")
        .values_list("table_id", "account_id", "place", "score", "tp")
    )
    by_table: dict[int, list] = {}
    for table_id, a, place, score, tp in everyone:
        by_table.setdefault(table_id, []).append((a, place, score, tp))
    names = _names(a for rows in by_table.values() for a, *_ in rows)
    out = []
    for s in seats:
        table = s.table
        out.append(
            {
                "wave": table.wave.number,
                "table": table.number,
                "multiplier": table.wave.multiplier,
                "status": table.status,
                "match_id": str(table.match_id) if table.match_id else None,
                "round_id": str(table.round_id) if table.round_id else None,
                "seated_at": table.seated_at,
                "ended_at": table.ended_at,
                "players": [
                    {"player": _player(a, names), "place": place, "score": score, "tp": tp}
                    for a, place, score, tp in by_table.get(table.pk, [])
                ],
            }
        )
    return out


def tournament_page(
    *, tournament: Tournament, account: Account | None, limit: int = 100, offset: int = 0
) -> dict[str, Any]:
    page = tournament_summary(tournament)
    page["standings"] = standings(tournament=tournament, limit=limit, offset=offset)
    me = None
    if account is not None and account.is_authenticated:
        reg = Registration.objects.filter(tournament=tournament, account=account).first()
        tables = tables_of(tournament=tournament, account_id=account.pk) if reg else []
        current = next((x for x in tables if x["status"] == "playing"), None)
        me = {
            "registered": reg is not None,
            "registered_at": reg.registered_at if reg else None,
            "tp": reg.tp if reg else None,
            "place": reg.place if reg else None,
            "prize": reg.prize if reg else None,
            "current_table": current,
            "past_tables": [x for x in tables if x is not current],
        }
    page["me"] = me
    page["current_table"] = me["current_table"] if me else None
    return page


def trophies_of(*, account_id: int) -> list[dict[str, Any]]:
    """R-27 each cup with its tournament; R-29 the Champions trophy once, with its count."""
    cups = [
        {"kind": "cup", "title": t.title, "tournament_id": str(t.tournament_id), "awarded_at": t.awarded_at}
        for t in Trophy.objects.filter(account_id=account_id, kind="cup").order_by("-awarded_at")
    ]
    champions = Trophy.objects.filter(account_id=account_id, kind="champions").aggregate(n=Count("pk"))["n"]
    out = []
    if champions:
        last: datetime = Trophy.objects.filter(account_id=account_id, kind="champions").latest("awarded_at").awarded_at
        out.append({"kind": "champions", "title": "Champions Tournament", "count": champions, "awarded_at": last})
    return out + cups


def trophies_profile_extension(account: Account) -> dict[str, Any]:
    return {"trophies": trophies_of(account_id=account.pk)}


def pot_view(*, pot: Pot) -> dict[str, Any]:
    """P-5: the deal, the time limit, entrants with their scores; result and prizes once finished."""
    entrants = list(PotEntrant.objects.filter(pot=pot).order_by("place", "account_id"))
    games = scores_of(e.game_id for e in entrants if e.game_id)
    names = _names(e.account_id for e in entrants)
    rows = [
        {
            "player": _player(e.account_id, names),
            "entered": e.game_id is not None,
            "game_id": str(e.game_id) if e.game_id else None,
            "score": e.score if pot.status == "finished" else games.get(e.game_id),
            "place": e.place,
            "prize": e.prize,
        }
        for e in entrants
    ]
    if pot.status != "finished":
        rows.sort(key=lambda r: (r["score"] is None, -(r["score"] or 0), r["player"]["id"]))
    return {
        "id": str(pot.id),
        "title": pot.title,
        # its commitment from the start, its code and salt once it has closed
        **deal_fields(code=pot.code, salt=pot.salt, revealed=pot.status == "finished" and not code_is_secret(pot.code)),
        "time_limit_s": pot.time_limit_s,
        "open_entry": pot.open_entry,
        "prize_split": pot.prize_split,
        "counts": pot.counts,
        "starts_at": pot.starts_at,
        "ends_at": pot.ends_at,
        "status": pot.status,
        "entrants": rows,
        "result": [r for r in rows if r["place"] is not None] if pot.status == "finished" else None,
    }


# --- the list of pot competitions (P-5, API.md "Community") --------------------------------------

POT_PHASES = ("upcoming", "running", "finished")


def pot_phase(pot: Pot, now: datetime) -> str:
    """``upcoming`` before its start, ``running`` until it is ranked and paid (its end passed and
    the sweeper not yet there counts as running), ``finished`` after."""
    if pot.status == "finished":
        return "finished"
    return "upcoming" if now < pot.starts_at else "running"


def pot_list(*, status: str | None, now: datetime) -> QuerySet[Pot]:
    qs = Pot.objects.annotate(entrants_count=Count("entrants"))
    if status == "finished":
        return qs.filter(status="finished").order_by("-ends_at", "id")
    if status == "upcoming":
        qs = qs.filter(status="open", starts_at__gt=now)
    elif status == "running":
        qs = qs.filter(Q(status="open") & Q(starts_at__lte=now))
    return qs.order_by("starts_at", "id")


def pot_summary(pot: Pot, now: datetime) -> dict[str, Any]:
    """P-5: a pot's settings as the list shows them (its deal stays on its own page)."""
    return {
        "id": str(pot.id),
        "title": pot.title,
        "status": pot_phase(pot, now),
        "entry": "open" if pot.open_entry else "listed",
        "starts_at": pot.starts_at,
        "ends_at": pot.ends_at,
        "time_limit_s": pot.time_limit_s,
        "prize_split": pot.prize_split,
        "counts": pot.counts,
        "entrants": pot.entrants_count,
    }


def awards_pending(start: datetime, end: datetime) -> bool:
    """R-34 (``rivals.points.selectors.register_pending_awards``): a running tournament whose end
    time is in ``[start, end)`` — its prizes are dated at its end and paid at its finalization —
    or an open pot whose prizes count and whose end is (paid the same way). A scheduled
    tournament whose end passed is cancelled, never paid. The running tournaments are few (the
    status index); pots have their (status, end) index."""
    return (
        Tournament.objects.filter(status="running", ends_at__gte=start, ends_at__lt=end).exists()
        or Pot.objects.filter(status="open", counts=True, ends_at__gte=start, ends_at__lt=end).exists()
    )
