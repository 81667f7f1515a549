"""R-42's fair-play signals, scored after each rated result, off the hot path (R-38 flags them).

``fairplay_result_score(result=…)`` is called by a worker (``fairplay.signals_sweep``, a beat
sweeper, and ``fairplay.score_result``): never in an intent's request. It reads the result's
``RatingsUpdated`` (the players and their μ before the result: the rating band), the boards of
the match's rounds and each board's ``PairRemoved`` / ``JokerUsed`` events (tiles and the server's
``interval_ms``), analyses them (``rivals.fairplay.analysis``), sets them against the band's
baseline (``rivals.fairplay.scoring``), compares each board with the boards already scored on the
same deal (other tables of a tournament wave, other results on that deal), and appends one
``FairPlaySignalsScored`` to the stream ``fairplay-<result>`` — once: the stream's head decides
(expected version 0). The projection (``signals_projection``) moves the windows; an account or a
pair of accounts above the thresholds is then flagged (``FairPlayFlagged``, R-38) with the
numbers and the rounds that carry them. A flag never suspends: an operator reviews it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from rivals import engine
from rivals.eventstore import StreamConflict, event_append, stream_filter
from rivals.fairplay import scoring
from rivals.fairplay.analysis import Move, analyse_board
from rivals.fairplay.events import fair_play_signals_scored
from rivals.fairplay.services import fairplay_flag
from rivals.fairplay.signals_projection import pair_key, thresholds
from rivals.fairplay.signals_read import BOARD_EVENTS, moves_of, result_read
from rivals.games.models import Game
from rivals.models import Event
from rivals.romanian_time import iso

STREAM_TYPE = "fairplay"


def signals_stream(result: str) -> str:
    return f"fairplay-{result}"


def board_moves(game: Game) -> list[Move] | None:
    """The removals of a board, in order (None when an undo or a shuffle changed it: not scored)."""
    events = Event.objects.filter(**stream_filter(game.stream_id), type__in=BOARD_EVENTS).order_by("version")
    return moves_of(events.values_list("type", "data"))


def board_signals(game: Game, t: scoring.Thresholds) -> dict | None:
    """The analysis of one board (``analysis.BoardSignals.as_dict``), or None if not scored."""
    moves = board_moves(game)
    if moves is None:
        return None
    return _analyse(game.code, game.initial_faces, game.ruleset, moves, t)


def _analyse(code: str, faces: list, ruleset: str, moves: list[Move], t: scoring.Thresholds) -> dict:
    deal = engine.deal_from_code(code)
    return analyse_board(
        deal.layout, faces, moves, deal.plan, ruleset=ruleset, probes=t.probes, probe_budget=t.probe_nodes
    ).as_dict()


def _compare(mine: dict, others: list[dict], t: scoring.Thresholds) -> list[dict]:
    grams = scoring.bigrams(mine["free_pairs"])
    out = []
    for other in others:
        if other["account_id"] == mine["account_id"]:
            continue
        if not scoring.worth_comparing(grams, scoring.bigrams(other["free_pairs"])):
            continue
        sim = scoring.similarity(mine["free_pairs"], other["free_pairs"], t)
        if sim is None:
            continue
        out.append(
            {
                "account_id": mine["account_id"],
                "other_id": other["account_id"],
                "game_id": mine["game_id"],
                "other_game_id": other["game_id"],
                "round_id": mine["round_id"],
                "other_round_id": other["round_id"],
                "similarity": sim,
            }
        )
    return out


@transaction.atomic
def fairplay_result_score(*, result: str, now: datetime | None = None) -> bool:
    """Score one rated result once; returns whether it was scored now."""
    now = now or timezone.now()
    stream = signals_stream(result)
    read = result_read(result, f"rating-{result}", stream)  # one statement
    rated = read.rated
    if read.scored or rated is None:
        return False
    t = thresholds()
    mu = {p["account_id"]: p["mu_before"] for p in rated["players"]}
    baselines: dict[tuple[str, int], scoring.Baseline] = {}
    boards: list[dict] = []
    pairs: list[dict] = []
    for game in read.boards:
        if game.moves is None:
            continue
        analysed = _analyse(game.code, game.initial_faces, game.ruleset, game.moves, t)
        band = scoring.band_of(mu[game.account_id], t.band_width)
        key = (game.layout, band)
        if key not in baselines:
            baselines[key] = read.baseline(*key)
        entry = scoring.board_entry(analysed, layout=game.layout, band=band, baseline=baselines[key], t=t)
        entry.update(account_id=game.account_id, game_id=game.pk, round_id=game.round_id, code=game.code)
        entry.pop("solves", None)
        earlier = [b for b in boards if b["code"] == game.code] + game.earlier
        pairs += _compare(entry, earlier, t)
        boards.append(entry)
    # a result with no board to score (undone or shuffled boards) is recorded as scored too, so
    # that the sweep does not find it again
    event = fair_play_signals_scored(
        result=result,
        mode=rated["mode"],
        rated_at=rated.get("rated_at") or iso(now),
        boards=boards,
        pairs=pairs,
    )
    try:
        with transaction.atomic():
            event_append(
                stream_id=stream, stream_type=STREAM_TYPE, expected_version=0, actor="system", now=now, events=[event]
            )
    except StreamConflict:  # another worker scored it meanwhile
        return False
    _flags(boards, pairs, t, now)
    return True


def _rounds_of(entries: list[dict]) -> list[dict]:
    """The window's boards, each with its round and its own numbers (what the flag shows)."""
    return [
        {
            "round_id": e.get("round_id"),
            "game_id": e.get("game_id"),
            "layout": e.get("layout"),
            "choices": e["choices"],
            "plan_hits": e["plan_hits"],
            "critical": e["critical"],
            "kept": e["kept"],
            "band_plan_rate": e["plan_rate"],
            "band_keep_rate": e["keep_rate"],
        }
        for e in entries
    ]


def _flags(boards: list[dict], pairs: list[dict], t: scoring.Thresholds, now: datetime) -> None:
    from rivals.fairplay.models import FairPlayPair, FairPlayWindow

    accounts = list(dict.fromkeys(b["account_id"] for b in boards))
    windows = {w.account_id: w for w in FairPlayWindow.objects.filter(account_id__in=accounts)}  # one read
    for account_id in accounts:
        window = windows[account_id]
        state = {
            "entries": window.entries,
            "history": window.history,
            "flagged": window.flagged,
            "scored": window.scored,
        }
        for kind, (scores, why) in scoring.account_decide(state, t).items():
            fairplay_flag(
                account_id=account_id,
                kind=kind,
                subject=f"{kind}-{window.scored}",
                round_id=window.entries[-1].get("round_id"),
                details={"why": why, "scores": scores, "rounds": _rounds_of(window.entries)},
                now=now,
            )
    keys = list(dict.fromkeys(pair_key(p["account_id"], p["other_id"]) for p in pairs))
    rows = {row.key: row for row in FairPlayPair.objects.filter(key__in=keys)} if keys else {}  # one read
    for key in keys:
        row = rows[key]
        sims = [s[3] for s in row.shared]
        if not scoring.collusion_evidence(sims, t):
            continue
        near = [s for s in row.shared if s[3] >= t.collusion_similarity]
        for me, other, mine in ((row.account_a_id, row.account_b_id, 1), (row.account_b_id, row.account_a_id, 2)):
            fairplay_flag(
                account_id=me,
                kind="collusion",
                subject=f"collusion of {key}",
                round_id=near[-1][mine],
                details={
                    "why": ["same_pairs"],
                    "partner_id": other,
                    "scores": {
                        "shared_deals": len(row.shared),
                        "near_identical": len(near),
                        "similarity_at_least": t.collusion_similarity,
                        "mean_similarity": round(sum(sims) / len(sims), 4),
                    },
                    "shared": [
                        {"result": s[0], "round_id": s[mine], "other_round_id": s[3 - mine], "similarity": s[3]}
                        for s in row.shared
                    ],
                },
                now=now,
            )


ANALYSED = ("pairs", "choices", "plan_hits", "critical", "kept", "lost_at", "hard_ms", "easy_ms", "free_pairs")


def signals_verify(events) -> tuple[int, list[str]]:
    """Recompute every board of these ``FairPlaySignalsScored`` events from the log with the
    production analysis: (boards checked, the differences named by result, board and field)."""
    t = thresholds()
    checked, wrong = 0, []
    for event in events:
        for board in event.data["boards"]:
            checked += 1
            game = Game.objects.filter(pk=board["game_id"]).first()
            again = board_signals(game, t) if game is not None else None
            if again is None:
                wrong.append(f"{event.data['result']} board {board['game_id']}: not in the log any more")
                continue
            again["free_pairs"] = [list(p) for p in again["free_pairs"]]
            wrong += [
                f"{event.data['result']} board {board['game_id']}: {name} differs"
                for name in ANALYSED
                if again[name] != board[name]
            ]
    return checked, wrong
