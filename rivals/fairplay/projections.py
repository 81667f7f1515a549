"""The review queue projection: one ``FairPlayFlag`` row per ``FairPlayFlagged``."""

from __future__ import annotations

from rivals.fairplay.events import FAIR_PLAY_FLAG_REVIEWED, FAIR_PLAY_FLAGGED
from rivals.models import Event
from rivals.projections import Projection
from rivals.rebuild import Table


class FairPlayFlagsProjection(Projection):
    name = "fairplay_flags"
    event_types = frozenset({FAIR_PLAY_FLAGGED, FAIR_PLAY_FLAG_REVIEWED})

    tables = (Table("fairplay_flag"),)

    def reset(self) -> None:
        from rivals.fairplay.models import FairPlayFlag

        FairPlayFlag.objects.all().delete()

    def apply(self, event: Event) -> None:
        from rivals.fairplay.models import FairPlayFlag

        d = event.data
        if event.type == FAIR_PLAY_FLAGGED:
            flag_row(event).save(force_insert=True)
        else:
            FairPlayFlag.objects.filter(pk=d["flag_id"]).update(
                status=d["decision"],
                review_note=d.get("note", ""),
                reviewed_at=event.recorded_at,
                reviewed_by=(event.metadata or {}).get("actor") or "",
            )


def flag_row(event: Event):
    """The flag's row of one ``FairPlayFlagged`` (not saved: the projection saves it)."""
    from rivals.fairplay.models import FairPlayFlag

    d = event.data
    return FairPlayFlag(
        id=d["flag_id"],
        account_id=d["account_id"],
        kind=d["kind"],
        subject=d["subject"],
        game_id=d.get("game_id"),
        round_id=d.get("round_id"),
        details=d.get("details") or {},
        flagged_at=event.recorded_at,
    )


flags_projection = FairPlayFlagsProjection()
