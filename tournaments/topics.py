"""What a tournament's live topic shows of its events (``rivals.live.topics``, registered from the
app's ``ready()``): never the seed of its seating nor a wave's deal, nor an operator's note of a
cancellation (issue 40: the note stays with the operators); a wave's seating and a wave's tables
as counts, with the subscriber's own table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rivals.live.topics import DEAL_SECRET
from tournaments.events import TABLES_OPENED, WAVE_SEATED, TablesOpenedData, WaveSeatedData

if TYPE_CHECKING:
    from rivals.live.selectors import Topic

TOURNAMENT_HIDDEN = frozenset({"seed", "schedule_id", "occurrence", "note", *DEAL_SECRET})


def _seated(mine: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The subscriber's ``tournament_seated`` notification of the same event (its own table)."""
    note = next((n for n in mine if n["t"] == "tournament_seated"), None)
    return {k: note["d"].get(k) for k in ("table", "round_id", "match_id")} if note else None


def tournament_view(
    topic: Topic, entry: dict[str, Any], d: dict[str, Any], mine: list[dict[str, Any]]
) -> dict[str, Any]:
    out = {k: v for k, v in d.items() if k not in TOURNAMENT_HIDDEN}
    if entry["t"] == WAVE_SEATED:
        out.update(_wave_seated(cast(WaveSeatedData, d), topic.account_id))
    elif entry["t"] == TABLES_OPENED:
        out["tables"] = len(cast(TablesOpenedData, d).get("tables", []))
        out["mine"] = _seated(mine)
    return out


def _wave_seated(d: WaveSeatedData, account_id: int) -> dict[str, Any]:
    """A wave's seating as its page shows it: counts, and the subscriber's own table."""
    tables = d.get("tables", [])
    table = next((row for row in tables if account_id in row["account_ids"]), None)
    return {
        "tables": len(tables),
        "waiting": len(d.get("waiting", [])),
        "mine": {"table": table["table"], "players": table["account_ids"]} if table else None,
    }
