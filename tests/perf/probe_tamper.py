"""Issue 31's tampers of the event log, for ``make security-probe`` (``tests/perf/security_probe.py``
runs them against its production-shaped stack, in its own process): each done as the database's
owner (its triggers switched off), each checked by ``verify_log`` and by the ``log-anchor`` job,
without and with a previous anchor. A PASS names the changed stream and version.

The probes share the stack's log with the other probes (``probe_log`` rewrote an event before
them), so each works on streams of its own and looks for them among the breaks; each writes its
anchors to a folder of its own, its first anchor accepting the log as the earlier probes left it.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from contextlib import contextmanager

from tests.log_tamper import ev, owner, seal
from tests.perf.faults import verdict


def _stream(kind: str, events: int = 4) -> str:
    from rivals.eventstore import NewEvent, event_append

    stream_id = f"probe-{kind}-{uuid.uuid4().hex[:8]}"
    for n in range(events):
        event_append(
            stream_id=stream_id, stream_type="probe", events=[NewEvent("Probed", {"n": n})], expected_version=n
        )
    return stream_id


@contextmanager
def _anchors():
    """A folder of anchors whose first one accepts the log as it is (the earlier probes' tampers)."""
    from rivals.eventanchor import log_anchor_write

    folder = tempfile.mkdtemp(prefix="rivals-anchors-")
    try:
        log_anchor_write(directory=folder, accept="security probe: the log as the earlier probes left it")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _nothing():
    yield None


def _verify(folder: str | None) -> list[str]:
    """verify_log's breaks (against the anchors of ``folder``; the chain alone without one)."""
    from rivals.eventanchor import log_verify_anchored

    report, _, problem = log_verify_anchored(folder, use_anchors=folder is not None)
    return [str(b) for b in report.breaks] + ([problem] if problem else [])


def _job(folder: str) -> list[str]:
    """The log-anchor job's breaks (it refuses to write), or [] when it wrote an anchor."""
    from rivals.eventanchor import AnchorRefused, log_anchor_write

    try:
        log_anchor_write(directory=folder)
    except AnchorRefused as refused:
        return [str(b) for b in refused.breaks]
    return []


def _named(breaks: list[str], stream_id: str, version: int, what: str, position: int | None = None) -> str:
    """The break naming ``stream_id@version`` (and the event's position) with ``what``, or ""."""
    at = f"event #{position} " if position is not None else ""
    return next((b for b in breaks if f"{at}({stream_id}@{version})" in b and what in b), "")


def _check(name: str, seen: dict[str, str]) -> None:
    missing = [k for k, v in seen.items() if not v]
    detail = "; ".join(f"{k}: {v}" for k, v in seen.items() if v)
    verdict(name, not missing, (f"not named: {', '.join(missing)}; " if missing else "") + detail[:400])


def probe_tamper_nulled_links(port: int) -> None:
    """An event rewritten with its link, the later ones' and the head's set to NULL."""
    seen = {}
    for anchored in (False, True):
        stream_id = _stream("nulled")
        with _anchors() if anchored else _nothing() as folder:
            changed = ev(stream_id, 2)
            owner("UPDATE rivals_event SET data = '{\"n\": 99}' WHERE position = %s", [changed.position])
            owner("UPDATE rivals_event SET chain = NULL WHERE stream_id = %s AND version >= 2", [stream_id])
            owner("UPDATE rivals_stream SET chain = NULL WHERE id = %s", [stream_id])
            label = "with an anchor" if anchored else "without an anchor"
            what = "its link is missing (NULL)"
            seen[f"verify_log {label}"] = _named(_verify(folder), stream_id, 2, what, changed.position)
            if anchored:
                seen["the next anchor"] = _named(_job(folder), stream_id, 2, what, changed.position)
    _check("issue-31 tamper: nulled links", seen)


def probe_tamper_tail_removed(port: int) -> None:
    """The last event removed and the head rewound (an anchor sees it), or the head left (the chain does)."""
    seen = {}
    stream_id = _stream("tail")
    last, before = ev(stream_id, 4), ev(stream_id, 3)
    owner("DELETE FROM rivals_event WHERE position = %s", [last.position])
    seen["verify_log without an anchor"] = _named(_verify(None), stream_id, 4, "the log ends at 3")
    stream_id = _stream("rewound")
    with _anchors() as folder:
        last, before, base = ev(stream_id, 4), ev(stream_id, 3), ev(stream_id, 2)
        owner("DELETE FROM rivals_event WHERE position = %s", [last.position])
        owner(
            "UPDATE rivals_stream SET version = 3, chain = %s, chain_base = %s WHERE id = %s",
            [bytes(before.chain), bytes(base.chain), stream_id],
        )
        seen["verify_log with an anchor"] = _named(_verify(folder), stream_id, 4, "an anchored event is gone")
        seen["the next anchor"] = _named(_job(folder), stream_id, 4, "rewound to version 3")
    _check("issue-31 tamper: last event removed, head rewound", seen)


def probe_tamper_stream_removed(port: int) -> None:
    """A whole stream removed: a sealed one (the seal sees it), an anchored one (the anchor does)."""
    seen = {}
    sealed = _stream("sealed-gone")
    seal(sealed, 3)
    owner("DELETE FROM rivals_event WHERE stream_id = %s", [sealed])
    owner("DELETE FROM rivals_stream WHERE id = %s", [sealed])
    seen["verify_log without an anchor"] = _named(_verify(None), sealed, 3, "a sealed stream is gone")
    stream_id = _stream("gone")
    with _anchors() as folder:
        owner("DELETE FROM rivals_event WHERE stream_id = %s", [stream_id])
        owner("DELETE FROM rivals_stream WHERE id = %s", [stream_id])
        seen["verify_log with an anchor"] = _named(_verify(folder), stream_id, 4, "an anchored stream is gone")
        seen["the next anchor"] = _named(_job(folder), stream_id, 4, "an anchored stream is gone")
    _check("issue-31 tamper: stream removed", seen)


def probe_tamper_sealed_data(port: int) -> None:
    """The data of two sealed events (no link of their own) swapped: named at the stream's seal."""
    seen = {}
    for anchored in (False, True):
        stream_id = _stream("swapped")
        seal(stream_id, 3)
        with _anchors() if anchored else _nothing() as folder:
            one, two, sealed = ev(stream_id, 1), ev(stream_id, 2), ev(stream_id, 3)
            owner("UPDATE rivals_event SET data = '{\"n\": 1}' WHERE position = %s", [one.position])
            owner("UPDATE rivals_event SET data = '{\"n\": 0}' WHERE position = %s", [two.position])
            label = "with an anchor" if anchored else "without an anchor"
            what = "the sealed history (versions 1…3"
            seen[f"verify_log {label}"] = _named(_verify(folder), stream_id, 3, what, sealed.position)
    _check("issue-31 tamper: sealed data swapped", seen)


PROBES = [probe_tamper_nulled_links, probe_tamper_tail_removed, probe_tamper_stream_removed, probe_tamper_sealed_data]
