"""What a topic carries and what each subscriber sees of it — pure functions over the entries the
relay reads from the log (``rivals.live.logread``):

- an event entry: ``{"p": position, "s": stream, "t": type, "at", "d": data}``, and for a round's
  board ``"r"`` (the round), ``"o"`` (the board's owner) and ``"sum"`` (the board after the event:
  score, pairs left, finished, stuck — folded from the log, never read from a later state);
- a notification entry: ``{"p", "a": account, "t", "at", "d"}`` (``rivals.notices``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rivals.accounts.events import ACCOUNT_CLOSED
from rivals.fairplay.events import ACCOUNT_SUSPENDED
from rivals.matches.events import ROUND_ENDED, ROUND_SCHEDULED

if TYPE_CHECKING:
    from rivals.live.selectors import Topic

ROUND_RESULT_TYPES = (ROUND_SCHEDULED, ROUND_ENDED)  # a round's events its match page shows too
RESTRICTING = (ACCOUNT_SUSPENDED, ACCOUNT_CLOSED)  # the account's sockets close
# a competition's deal (its code and the salt of its commitment) is never pushed: when a
# round, match or wave is created it is secret by definition, and a replay (``since``) of an event
# made then shows it as it was; the REST reads show ``code`` and ``salt`` once the deal is over
DEAL_SECRET = ("code", "salt")

# A topic kind's own view of its events (``register_view``): ``view(topic, entry, data, mine)``
# returns what the subscriber sees (``data``: the event's data with the deal hidden; ``mine``: the
# subscriber's own notifications at the same position) — a tournament's page (``tournaments.topics``)
TopicView = Callable[["Topic", dict[str, Any], dict[str, Any], list[dict[str, Any]]], dict[str, Any] | None]
_VIEWS: dict[str, TopicView] = {}


def register_view(kind: str, view: TopicView) -> None:
    """What subscribers of topics of ``kind`` see of its events (a room above live registers it)."""
    _VIEWS[kind] = view


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


def view(topic: Topic, entry: dict[str, Any], mine: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The ``data`` of ``entry`` for the subscriber of ``topic`` (``rivals.live.selectors.Topic``),
    or ``None`` when it shows nothing of it. ``mine``: the subscriber's own notifications at the
    same position (``own_notes``: a tournament table it was seated at)."""
    d = _deal_hidden(entry["d"])
    if topic.kind == "round" and "o" in entry:
        return d if entry["o"] == topic.account_id else summary(entry, topic.players)
    if topic.kind == "match" and entry["s"].startswith("round-") and entry["t"] not in ROUND_RESULT_TYPES:
        return None
    own = _VIEWS.get(topic.kind)
    return own(topic, entry, d, mine or []) if own else d


def message(topic: Topic, entry: dict[str, Any], mine: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
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


def own_notes(notes: list[dict[str, Any]], account_id: int, position: int) -> list[dict[str, Any]]:
    """The subscriber's own notifications at ``position``."""
    return [note for note in notes if note["p"] == position and note["a"] == account_id]
