"""One time format at the edges (API.md conventions: UTC, ``Z``, microseconds — at the top level,
inside event data and inside notification data alike).

Decision (issue 39): events keep storing instants as ``rivals.romanian_time.iso`` writes them
(``+00:00``): a stored event is never rewritten (the log is immutable and hash-chained) and a new
spelling in new events would be a schema version of every event type with a time. Instead every
answer is spelled at the edge, by the two paths all answers take:

- an ``aware datetime`` in an answer is rendered by the API's JSON renderer
  (``rivals.api.renderers``) with ``iso_z``;
- instants inside event data and notification data (text in the log and in the notifications
  projection) are re-spelled where that data leaves: the event views (``event_data_view``) and
  the live socket's log reader — at the places the schema says hold a ``date-time``
  (``rivals.api.event_schema.time_paths``, the notification shapes' ``DateTimeField`` s). The
  data of an event without a time is returned untouched: the intent's hot path (``PairRemoved``)
  pays one dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rivals.romanian_time import iso_z_text


def _respelled(value: Any, path: tuple) -> Any:
    if not path:
        return iso_z_text(value) if isinstance(value, str) else value
    key, rest = path[0], path[1:]
    if key == "*":
        if not isinstance(value, list):
            return value
        return [_respelled(item, rest) for item in value]
    if not isinstance(value, dict) or key not in value:
        return value
    new = _respelled(value[key], rest)
    return value if new is value[key] else {**value, key: new}


def times_z(data: Any, paths: Iterable[tuple]) -> Any:
    """``data`` with the instants at ``paths`` (key paths, ``"*"`` for a list's items) spelled as
    the API answers them; ``data`` itself (not a copy) when there is nothing to re-spell."""
    for path in paths:
        data = _respelled(data, path)
    return data


_PATHS: dict[str, tuple] = {}  # event type → where its data holds instants (read once per type)


def event_data_view(type_name: str, data: dict[str, Any]) -> dict[str, Any]:
    """An event's data as the API and the socket answer it: its instants in the one spelling."""
    paths = _PATHS.get(type_name)
    if paths is None:
        from rivals.api.event_schema import time_paths

        paths = _PATHS[type_name] = time_paths(type_name)
    return times_z(data, paths) if paths else data
