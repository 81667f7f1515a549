"""What a topic carries and what each subscriber sees of it — pure functions over the entries the
relay reads from the log (``rivals.live.logread``):

- an event entry: ``{"p": position, "s": stream, "t": type, "at", "d": data}``, and for a round's
  board ``"r"`` (the round), ``"o"`` (the board's owner) and ``"sum"`` (the board after the event:
  score, pairs left, finished, stuck — folded from the log, never read from a later state);
- a notification entry: ``{"p", "a": account, "t", "at", "d"}`` (``rivals.live.notices``).
"""

from __future__ import annotations

from typing import Any

ROUND_RESULT_TYPES = ("RoundScheduled", "RoundEnded")  # a round's events its match page shows too
RESTRICTING = ("AccountSuspended", "AccountClosed")  # the account's sockets close
# a competition's deal (its code and the salt of its commitment) is never pushed: when a
# round, match or wave is created it is secret by definition, and a replay (``since``) of an event
# made then shows it as it was; the REST reads show ``code`` and ``salt`` once the deal is over
DEAL_SECRET = ("code", "salt")
# what a tournament's page shows of its events: never the seed of its seating nor a wave's deal,
# nor an operator's note of a cancellation (issue 40: the note stays with the operators)
TOURNAMENT_HIDDEN = frozenset({"seed", "schedule_id", "occurrence", "note", *DEAL_SECRET})


def keys_of(entry: dict[str, Any]) -> list[str]:
    """The routing keys (topic names, the account topic as ``account:<id>``) of a log entry."""
    if "a" in entry:
        return [f"account:{entry['a']}"]
    stream, _, ident = entry["s"].partition("-")
    if stream == "game":
        return [f"round:{entry['r']}"] if entry.get("r") else []
    if stream == "round":
        keys = [f"round:{ident}"]
        if entry["t"] in ROUND_RESULT_TYPES and entry["d"].get("match_id"):
            keys.append(f"match:{entry['d']['match_id']}")
        return keys
    if stream in ("match", "queue", "duel", "tournament"):
        return [f"{stream}:{ident}"]
    return []


def summary(entry: dict[str, Any], players: dict[int, str]) -> dict[str, Any]:
    """An opponent's board event as another player sees it (API.md: never the tiles)."""
    owner = entry["o"]
    return {"player": {"id": owner, "display_name": players.get(owner, "")}, **entry["sum"]}


def _deal_hidden(d: dict[str, Any]) -> dict[str, Any]:
    if any(d.get(k) is not None for k in DEAL_SECRET):
        return {**d, **dict.fromkeys(DEAL_SECRET)}
    return d


def view(topic, entry: dict[str, Any], mine: dict | None = None) -> dict[str, Any] | None:
    """The ``data`` of ``entry`` for the subscriber of ``topic`` (``rivals.live.selectors.Topic``),
    or ``None`` when it shows nothing of it. ``mine``: the subscriber's own notification at the
    same position (a tournament table it was seated at)."""
    d = _deal_hidden(entry["d"])
    if topic.kind == "round" and "o" in entry:
        return d if entry["o"] == topic.account_id else summary(entry, topic.players)
    if topic.kind == "match" and entry["s"].startswith("round-") and entry["t"] not in ROUND_RESULT_TYPES:
        return None
    if topic.kind == "tournament":
        out = {k: v for k, v in d.items() if k not in TOURNAMENT_HIDDEN}
        if entry["t"] == "WaveSeated":
            out["tables"] = len(d.get("tables", []))
            out["waiting"] = len(d.get("waiting", []))
            table = next((row for row in d.get("tables", []) if topic.account_id in row["account_ids"]), None)
            out["mine"] = {"table": table["table"], "players": table["account_ids"]} if table else None
        elif entry["t"] == "TablesOpened":
            out["tables"] = len(d.get("tables", []))
            out["mine"] = mine
        return out
    return d


def message(topic, entry: dict[str, Any], mine: dict | None = None) -> dict[str, Any] | None:
    data = view(topic, entry, mine)
    if data is None:
        return None
    return {
        "op": "event",
        "topic": topic.name,
        "position": entry["p"],
        "type": entry["t"],
        "at": entry["at"],
        "data": data,
    }


def seated_mine(notes: list[dict[str, Any]], account_id: int, position: int) -> dict | None:
    """The subscriber's ``tournament_seated`` notification at ``position`` (its own table)."""
    for note in notes:
        if note["p"] == position and note["a"] == account_id and note["t"] == "tournament_seated":
            return {k: note["d"].get(k) for k in ("table", "round_id", "match_id")}
    return None
