"""The projection of R-42's signals: accounts' windows, the bands' baselines, the scored boards of
each deal and the pairs of accounts that shared deals — from ``FairPlaySignalsScored`` (and
``FairPlayFlagged`` of the signals' kinds, which restart a kind's window). One pure step per
event (``rivals.fairplay.scoring``), driven live by the append and by the rebuild."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.utils.dateparse import parse_datetime

from rivals.fairplay import scoring
from rivals.fairplay.events import FAIR_PLAY_FLAGGED, FAIR_PLAY_SIGNALS_SCORED
from rivals.models import Event
from rivals.projections import Projection
from rivals.rebuild import Table


def thresholds() -> scoring.Thresholds:
    """The signals' windows and thresholds (settings ``RIVALS["FAIRPLAY_SIGNALS"]``)."""
    return scoring.Thresholds.of(settings.RIVALS.get("FAIRPLAY_SIGNALS"))


def baseline_keys(layout: str, band: int) -> list[str]:
    return [f"{layout}:{band}", f"{layout}:*", "*:*"]


def pair_key(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


class FairPlaySignalsProjection(Projection):
    name = "fairplay_signals"
    event_types = frozenset({FAIR_PLAY_SIGNALS_SCORED, FAIR_PLAY_FLAGGED})
    tables = (Table("fairplay_window"), Table("fairplay_baseline"), Table("fairplay_board"), Table("fairplay_pair"))

    def reset(self) -> None:
        from rivals.fairplay.models import FairPlayBaseline, FairPlayBoard, FairPlayPair, FairPlayWindow

        for model in (FairPlayWindow, FairPlayBaseline, FairPlayBoard, FairPlayPair):
            model.objects.all().delete()

    def apply(self, event: Event) -> None:
        from rivals.fairplay.models import FairPlayWindow

        d = event.data
        if event.type == FAIR_PLAY_FLAGGED:
            if d["kind"] in scoring.WINDOW_KINDS:
                window = FairPlayWindow.objects.filter(account_id=d["account_id"]).first()
                if window is not None:
                    window.flagged = {**window.flagged, d["kind"]: window.scored}
                    window.save(update_fields=["flagged"])
            return
        t = thresholds()
        self._windows(d, t)
        self._baselines(d["boards"])
        self._boards(d, event)
        for pair in d["pairs"]:
            self._pair(pair, d, t)

    def _windows(self, d: dict, t: scoring.Thresholds) -> None:
        from rivals.fairplay.models import FairPlayWindow

        for account_id in sorted({b["account_id"] for b in d["boards"]}):  # lock order: account id
            window, _ = FairPlayWindow.objects.select_for_update().get_or_create(account_id=account_id)
            state = {"entries": window.entries, "history": window.history or {"n": 0, "sum": 0.0}}
            for board in d["boards"]:
                if board["account_id"] == account_id:
                    scoring.account_add(state, {**board, "result": d["result"]}, t)
                    window.scored += 1
            window.entries, window.history = state["entries"], state["history"]
            window.save()

    def _baselines(self, boards: list[dict]) -> None:
        """One upsert of every cell the boards move, in key order (the lock order)."""
        cells: dict[str, scoring.Cell] = {}
        for board in boards:
            for key in baseline_keys(board["layout"], board["band"]):
                cells.setdefault(key, scoring.Cell()).add(board)
        if not cells:
            return
        fields = list(scoring.Cell.__dataclass_fields__)
        values = ", ".join(["(%s" + ", %s" * len(fields) + ")"] * len(cells))
        params = [x for key in sorted(cells) for x in (key, *(getattr(cells[key], f) for f in fields))]
        update = ", ".join(f"{f} = fairplay_baseline.{f} + EXCLUDED.{f}" for f in fields)
        with connection.cursor() as cur:
            cur.execute(
                f"INSERT INTO fairplay_baseline (key, {', '.join(fields)}) VALUES {values} "
                f"ON CONFLICT (key) DO UPDATE SET {update}",
                params,
            )

    def _boards(self, d: dict, event: Event) -> None:
        from rivals.fairplay.models import FairPlayBoard

        at = parse_datetime(d["rated_at"]) or event.recorded_at
        FairPlayBoard.objects.bulk_create(
            [
                FairPlayBoard(
                    game_id=b["game_id"],
                    account_id=b["account_id"],
                    code=b["code"],
                    result=d["result"],
                    round_id=b.get("round_id"),
                    free_pairs=b["free_pairs"],
                    scored_at=at,
                )
                for b in d["boards"]
            ],
            ignore_conflicts=True,
        )

    def _pair(self, pair: dict, d: dict, t: scoring.Thresholds) -> None:
        from rivals.fairplay.models import FairPlayPair

        a, b = pair["account_id"], pair["other_id"]
        row, _ = FairPlayPair.objects.select_for_update().get_or_create(
            key=pair_key(a, b), defaults={"account_a_id": min(a, b), "account_b_id": max(a, b)}
        )
        mine, theirs = (
            (pair["round_id"], pair["other_round_id"]) if a < b else (pair["other_round_id"], pair["round_id"])
        )
        row.shared = [*row.shared, [d["result"], mine, theirs, pair["similarity"]]][-t.collusion_window :]
        row.save(update_fields=["shared"])


signals_projection = FairPlaySignalsProjection()
