"""Read models of competitive play for the API: a round as its player sees it, matches, tickets,
duels. Opponents are shown by score, pairs left and completion — never their boards."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils import timezone

from rivals.deals.selectors import deal_fields, secret_codes
from rivals.games.selectors import board_delta, game_view, round_board_ids
from rivals.matches.models import ROUND_DURATION, Duel, Match, QueueTicket, Round
from rivals.matches.services import round_boards
from rivals.matches.services.matches import PRIZE_SOURCES, ROUNDS
from rivals.models import Account
from rivals.romanian_time import iso_z, iso_z_text

if TYPE_CHECKING:  # a type only: the games room's boards are read through its selectors
    from rivals.games.models import Game


def _players(ids: list[int]) -> dict[int, dict[str, Any]]:
    names = dict(Account.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    return {a: {"id": a, "display_name": names.get(a, "")} for a in ids}


def rounds_revealed(rounds: list[Round]) -> set:
    """R-40: the ids of the rounds whose deal is no longer secret — the round has ended, and no
    other competition still plays its deal (a wave's other tables, a match's fixed deal)."""
    ended = [r for r in rounds if r.status == "ended"]
    held = secret_codes({r.code for r in ended}) if ended else set()
    return {r.pk for r in ended if r.code not in held}


def round_deal(rnd: Round, revealed: bool) -> dict[str, Any]:
    return deal_fields(code=rnd.code, salt=rnd.salt, revealed=revealed)


def round_view(*, rnd: Round, account: Account, boards: list[Game] | None = None, now=None) -> dict[str, Any]:
    """The caller's board as a game object, plus the round: ``status`` (scheduled / running /
    ended — the board's own status is ``board_status``), ``ends_at``, ``opponents``, the result,
    and the deal's ``commitment`` (its ``code`` and ``salt`` once no one plays it, R-40)."""
    now = now or timezone.now()
    boards = boards if boards is not None else round_boards(rnd)
    mine = next(g for g in boards if g.account_id == account.pk)
    others = [g for g in boards if g.account_id != account.pk]
    players = {g.account_id: {"id": g.account_id, "display_name": g.player_name} for g in others}
    revealed = bool(rounds_revealed([rnd]))
    view = game_view(game=mine, now=now, revealed=revealed)
    view.update(round_deal(rnd, revealed))
    view.update(
        {
            "id": str(rnd.pk),
            "round_id": str(rnd.pk),
            "game_id": str(mine.pk),
            "match_id": str(rnd.match_id),
            "index": rnd.index,
            "board_status": mine.status,
            "status": rnd.shown_status(now),
            "starts_at": iso_z(rnd.starts_at),
            "ends_at": iso_z(rnd.ended_at if rnd.status == "ended" else rnd.ends_at),
            "ended_at": iso_z(rnd.ended_at),
            "end_reason": rnd.end_reason or None,
            "time_left_ms": None
            if rnd.status == "ended"
            else max(0, int((rnd.ends_at - max(now, rnd.starts_at)).total_seconds() * 1000)),
            "opponents": [
                {
                    "player": players[g.account_id],
                    "score": g.score,
                    "pairs_left": g.present_mask.bit_count() // 2,
                    "finished": g.status == "won",
                    "stuck": g.status == "stuck",
                }
                for g in others
            ],
            "result": _result_view(rnd.result) if rnd.result else None,
        }
    )
    view["started_at"] = iso_z(rnd.starts_at)
    return view


def round_delta_view(*, rnd: Round, game: Game, present_before: int, faces_before: list, now=None) -> dict[str, Any]:
    """The compact answer of a round intent (``Prefer: return=minimal``, rivals.api.prefer): the
    caller's ``seq``, score and board status, the round's status and deadline, and what changed on
    the board. The opponents' figures are the round's read and the live socket's to tell."""
    now = now or timezone.now()
    return {
        "seq": game.seq,
        "score": game.score,
        "board_status": game.status,
        "status": rnd.shown_status(now),
        "ends_at": iso_z(rnd.ended_at if rnd.status == "ended" else rnd.ends_at),
        "time_left_ms": None
        if rnd.status == "ended"
        else max(0, int((rnd.ends_at - max(now, rnd.starts_at)).total_seconds() * 1000)),
        **board_delta(game=game, present_before=present_before, faces_before=faces_before),
    }


def _result_view(result: dict) -> dict[str, Any]:
    players = _players([r["account_id"] for r in result["results"]])
    return {
        "reason": result["reason"],
        "ended_at": iso_z_text(result["ended_at"]),  # as RoundEnded stored it: the one spelling
        "places": [
            {
                "place": r["place"],
                "player": players[r["account_id"]],
                "score": r["score"],
                "completed": r["completed"],
                "pairs_left": r["pairs_left"],
            }
            for r in result["results"]
        ],
    }


def match_rounds(match: Match) -> list[Round]:
    """The match's rounds in order, each with its deadline (R-17, from its boards)."""
    return list(Round.objects.with_deadline().filter(match=match).order_by("index"))


def match_view(*, match: Match, now=None, rounds: list[Round] | None = None) -> dict[str, Any]:
    """``rounds``: the caller's ``match_rounds`` when it read them already."""
    now = now or timezone.now()
    rounds = match_rounds(match) if rounds is None else rounds
    ids = list(match.players.order_by("seat").values_list("account_id", flat=True))
    players = _players(ids)
    prizes = {p["account_id"]: p["points"] for p in match.prizes}
    revealed = rounds_revealed(rounds)
    return {
        "id": str(match.pk),
        "mode": match.mode,
        "status": match.status,
        "players": [players[a] for a in ids],
        "rounds_total": match.rounds_total,
        "rounds": [
            {
                "id": str(r.pk),
                "index": r.index,
                "status": r.shown_status(now),
                "starts_at": iso_z(r.starts_at),
                "ends_at": iso_z(r.ended_at if r.status == "ended" else r.deadline_at),
                "end_reason": r.end_reason or None,
                **round_deal(r, r.pk in revealed),
            }
            for r in rounds
        ],
        "standings": [
            {"place": s["place"], "player": players[s["account_id"]], "score": s["score"], "completed": s["completed"]}
            for s in match.standings
        ],
        "prizes": [{"player": players[a], "points": prizes[a]} for a in ids if a in prizes],
        "created_at": iso_z(match.created_at),
        "finished_at": iso_z(match.finished_at),
    }


def ticket_view(ticket: QueueTicket) -> dict[str, Any]:
    """A ticket as its owner reads it; a matched one names the round of its match to play now (one
    small read, unless the ticket knows it: a client needs not read the match to find it)."""
    current = ticket.current_round_id
    if current is None and ticket.status == "matched" and ticket.match_id:
        current = (
            Round.objects.filter(match_id=ticket.match_id, status="running")
            .order_by("index")
            .values_list("pk", flat=True)
            .first()
        )
    return {
        "id": str(ticket.pk),
        "mode": ticket.mode,
        "status": ticket.status,
        "match": str(ticket.match_id) if ticket.match_id else None,
        "round": str(current) if current else None,
        "created_at": iso_z(ticket.created_at),
        "expires_at": iso_z(ticket.expires_at),
    }


def duel_view(duel: Duel) -> dict[str, Any]:
    players = _players([duel.challenger_id, duel.opponent_id])
    out = {
        "id": str(duel.pk),
        "status": duel.status,
        "challenger": players[duel.challenger_id],
        "opponent": players[duel.opponent_id],
        "match": str(duel.match_id) if duel.match_id else None,
        "created_at": iso_z(duel.created_at),
        "expires_at": iso_z(duel.expires_at),
        "result": None,
    }
    if duel.match_id:
        match = duel.match
        out["match_status"] = match.status
        if match.status == "finished":
            winner = [s for s in match.standings if s["place"] == 1]
            out["result"] = {
                "standings": [
                    {
                        "place": s["place"],
                        "player": players[s["account_id"]],
                        "score": s["score"],
                        "completed": s["completed"],
                    }
                    for s in match.standings
                ],
                "winner": players[winner[0]["account_id"]] if len(winner) == 1 else None,
            }
    return out


def duels_of(*, account: Account):
    return (
        Duel.objects.filter(Q(challenger=account) | Q(opponent=account)).select_related("match").order_by("-created_at")
    )


def matches_of(*, account: Account):
    return Match.objects.filter(players__account=account).order_by("-created_at")


def pending_last_rounds(start: datetime, end: datetime):
    """The running last rounds of matches that pay points (Quick Match, Arena: a round knows its
    mode, and a match of a mode has its number of rounds) whose deadline is in ``[start, end)``.
    A deadline is at most 5 minutes after the start (R-17): a range of the partial index of
    running rounds by start; it is never before the stored ``ends_at`` (the deadline before any
    pair), and the boards' last pairs decide it (``with_deadline``)."""
    last = Q()
    for mode in PRIZE_SOURCES:
        last |= Q(mode=mode, index=ROUNDS[mode])
    return (
        Round.objects.with_deadline()
        .filter(
            last,
            status="running",
            starts_at__gte=start - ROUND_DURATION,
            starts_at__lt=end,
            ends_at__lt=end,
            deadline_at__gte=start,
            deadline_at__lt=end,
        )
        .order_by()
    )


def awards_pending(start: datetime, end: datetime) -> bool:
    """R-34 (``rivals.points.selectors.register_pending_awards``): may a round still pay points
    dated in ``[start, end)``? Time may end a running round late, and its points are dated at its
    deadline; only the last round of a paying match pays (an arena's earlier rounds pay nothing
    themselves, and its next round starts after their end is written), and a round whose deadline
    is still ahead ends now or later."""
    return pending_last_rounds(start, end).exists()


def topic_streams(*, kind: str, ident: str, account_id: int) -> tuple[list[str], list[int]] | None:
    """The live topic ``kind:ident`` (a round, match, queue ticket or duel) as ``account_id`` may
    see it: the streams it replays and (a round's) its players — or None: missing, or not theirs
    (``rivals.live.selectors.topic_authorize``)."""
    if kind == "round":
        rnd = Round.objects.filter(pk=ident, players__contains=[account_id]).first()
        if rnd is None:
            return None
        boards = round_board_ids(ident)
        return [f"round-{ident}", *(f"game-{g}" for g in boards)], list(rnd.players)
    if kind == "match":
        if not Match.objects.filter(pk=ident, players__account_id=account_id).exists():
            return None
        rounds = Round.objects.filter(match_id=ident).values_list("pk", flat=True)
        return [f"match-{ident}", *(f"round-{r}" for r in rounds)], []
    if kind == "queue":
        if not QueueTicket.objects.filter(pk=ident, account_id=account_id).exists():
            return None
        return [f"queue-{ident}"], []
    if kind == "duel":
        duel = Duel.objects.filter(pk=ident).values_list("challenger_id", "opponent_id").first()
        if duel is None or account_id not in duel:
            return None
        return [f"duel-{ident}"], []
    return None


def rounds_due(*, round_ids, now: datetime) -> list:
    """Of these rounds (ids, or a subquery of them), the running ones whose deadline passed, by id."""
    return list(Round.objects.due(now).filter(pk__in=round_ids).order_by("pk").values_list("pk", flat=True))
