"""Anchors of the event log outside the database (issue 31): what the hash chain of
``rivals.eventchain`` cannot see by itself — a stream's tail removed with its head rewound, a whole
stream removed — is seen against a signed checkpoint kept where the database's owner cannot write.

An anchor is one JSON file, ``<seq>.json`` (``0000000042.json``) in ``RIVALS_ANCHOR_DIR``
(embedded default ``.data/anchors/``), holding ``{"anchor": body, "signature": hex}`` in canonical
bytes (sorted keys, no spaces, ASCII), where ``signature = HMAC-SHA256(RIVALS_ANCHOR_KEY,
canonical(body))``. The body says when it was written, the log's last position, how many streams
and events, a SHA-256 digest over every stream head (``id ⏎ version ⏎ chain`` lines, sorted by
id) and the heads themselves: every one in a *full* anchor, only those that changed since the
previous anchor in a *delta* (a full one every ``RIVALS_ANCHOR_FULL_EVERY`` anchors, so reading
the latest state costs one full file and fewer deltas than that). Each body names the previous
file and its SHA-256 (the anchors are a chain of their own) and the full anchor it builds on.

Decisions:
- **Files, append-only**: written beside their name and linked into place (``os.link`` never
  replaces a name), so a file is whole or absent and never overwritten; two runs at once (two
  beats) race for one sequence number and the second gives up. The anchors are read before the
  database's snapshot is taken, so an anchor never claims more than the snapshot checked after it.
- **The key is not the chain's** (``RIVALS_ANCHOR_KEY``, else derived from ``DJANGO_SECRET_KEY``
  with another label) and, like it, never in the database. HMAC, not a public-key signature:
  whoever verifies the chain holds the application's secrets already.
- **The job checks before it signs** (``log_anchor_write``): every stream of the previous anchor
  still has its head, at the anchored version and chain or past it, and the events appended since
  link the anchored head to the new one (only those events are read). The first anchor verifies
  the whole log. A log that does not extend the previous anchor is never signed: the job fails,
  naming the stream and version, until an operator accepts it (``anchor_log --accept REASON``,
  e.g. after a restore from backup), which writes a full anchor recording what it accepted.
- What the job does not re-read — events below their stream's anchored head — ``verify_log``
  checks (the whole chain, against the latest anchor).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.utils import timezone

from rivals import eventchain
from rivals.eventchain import ROWS_SQL, Break, Head

FORMAT = "rivals-log-anchor/1"
NAME = re.compile(r"^(\d{10})\.json$")


class AnchorError(Exception):
    """The anchors themselves do not hold: a file missing, changed, or signed with another key."""


class AnchorRefused(Exception):
    """The log does not extend the latest anchor: nothing was written."""

    def __init__(self, breaks: list[Break]):
        self.breaks = breaks
        first = min((b for b in breaks if b.position is not None), key=lambda b: b.position, default=breaks[0])
        super().__init__(
            f"the log does not extend the latest anchor ({len(breaks)} breaks), first: {first}. "
            "No anchor written. If the database was restored or replaced on purpose: "
            "manage.py anchor_log --accept REASON"
        )


def anchor_key() -> bytes:
    return eventchain.hmac_key(settings.RIVALS["ANCHOR_KEY"])


def anchor_dir(directory: str | Path | None = None) -> Path:
    folder = directory or settings.RIVALS["ANCHOR_DIR"]
    if not folder:
        raise ImproperlyConfigured("RIVALS_ANCHOR_DIR is not set: the event log's anchors have nowhere to go")
    return Path(folder)


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def signature(body: dict) -> str:
    return hmac.new(anchor_key(), canonical(body), hashlib.sha256).hexdigest()


def heads_digest(heads: dict[str, Head]) -> str:
    digest = hashlib.sha256()
    for stream_id in sorted(heads):
        version, chain = heads[stream_id]
        digest.update(f"{stream_id}\n{version}\n{chain.hex()}\n".encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Anchor:
    name: str
    body: dict
    sha256: str

    @property
    def seq(self) -> int:
        return self.body["seq"]

    def heads(self) -> dict[str, Head]:
        return {s: (v, bytes.fromhex(c)) for s, v, c in self.body["heads"]}

    def __str__(self) -> str:
        b = self.body
        return f"anchor {b['seq']} ({b['kind']}, {b['written_at']}, position {b['position']})"


@dataclass
class Anchored:
    """The state the latest anchor signed: every stream's head."""

    latest: Anchor | None = None
    heads: dict[str, Head] = field(default_factory=dict)


def _names(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    return sorted(n for n in os.listdir(folder) if NAME.match(n))


def _read(folder: Path, name: str) -> Anchor:
    raw = (folder / name).read_bytes()
    try:
        whole = json.loads(raw)
        body, signed = whole["anchor"], whole["signature"]
    except (ValueError, KeyError, TypeError) as exc:
        raise AnchorError(f"anchor {name} is not an anchor file ({exc})") from None
    if body.get("format") != FORMAT or body.get("seq") != int(name[:10]):
        raise AnchorError(f"anchor {name} is not anchor {int(name[:10])} of format {FORMAT}")
    if not hmac.compare_digest(signature(body), str(signed)):
        raise AnchorError(f"anchor {name}: its signature does not hold (changed, or signed with another key)")
    return Anchor(name, body, hashlib.sha256(raw).hexdigest())


def _tip(folder: Path, names: list[str]) -> dict | None:
    """The previous-file reference of the next anchor."""
    if not names:
        return None
    return {"name": names[-1], "sha256": hashlib.sha256((folder / names[-1]).read_bytes()).hexdigest()}


def anchors_load(directory: str | Path | None = None) -> Anchored:
    """The latest anchor and the heads it signed (its full anchor and the deltas since), each file
    checked: signature, sequence without a gap, the previous file's digest, the state's digest.

    Anchors before the latest full one may be archived away; that one and every delta after it
    must stay."""
    folder = anchor_dir(directory)
    names = _names(folder)
    if not names:
        return Anchored()
    latest = _read(folder, names[-1])
    base = latest.body["base"]
    by_seq = {int(name[:10]): name for name in names}
    for seq in range(base, latest.seq):
        if seq not in by_seq:
            later = min(s for s in by_seq if s > seq)
            raise AnchorError(f"anchor {seq} is missing (the next one present is {later})")
    previous = _tip(folder, [by_seq[base - 1]]) if base - 1 in by_seq else None
    heads: dict[str, Head] = {}
    for seq in range(base, latest.seq + 1):
        anchor = latest if seq == latest.seq else _read(folder, by_seq[seq])
        if seq == base and previous is None:
            previous = anchor.body["previous"]  # the anchor before it was archived: nothing to compare
        if anchor.body["previous"] != previous:
            raise AnchorError(
                f"anchor {anchor.name} does not follow the anchor before it ({previous and previous['name']})"
            )
        if (anchor.body["kind"] == "full") != (seq == base):
            raise AnchorError(
                f"anchor {anchor.name} is {anchor.body['kind']} but anchor {latest.name} builds on {base}"
            )
        if seq == base:
            heads = {}
        heads.update(anchor.heads())
        previous = {"name": anchor.name, "sha256": anchor.sha256}
    if heads_digest(heads) != latest.body["digest"]:
        raise AnchorError(f"anchor {latest.name}: the heads of anchors {base}…{latest.seq} do not make its digest")
    return Anchored(latest, heads)


def _write(folder: Path, body: dict) -> str | None:
    """Write the anchor as ``<seq>.json``, whole or not at all, never over an existing file;
    None when that name was taken meanwhile (another run)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{body['seq']:010d}.json"
    partial = folder / f".{name}.{os.getpid()}.partial"
    with open(partial, "xb") as f:
        f.write(canonical({"anchor": body, "signature": signature(body)}) + b"\n")
        f.flush()
        os.fsync(f.fileno())
    try:
        os.link(partial, folder / name)
    except FileExistsError:
        return None
    finally:
        partial.unlink()
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return name


# --- the job -------------------------------------------------------------------------------------


def _read_seals() -> dict[str, Head]:
    with connection.cursor() as cur:
        cur.execute("SELECT stream_id, version, chain FROM rivals_event_seal")
        return {s: (v, bytes(c)) for s, v, c in cur.fetchall()}


# The job's read: from each stream's anchored event on (its link only: no content to hash), or a
# new stream's whole history. ``recorded_at >= first_at`` lets each probe skip the partitions older
# than the stream (migration 0011).
SINCE_SQL = (
    "SELECT e.stream_id, e.version, e.position, e.type, e.schema_version, "
    "CASE WHEN e.version > a.since THEN e.data::text END, CASE WHEN e.version > a.since THEN e.metadata::text END, "
    "e.recorded_at, e.chain FROM unnest(%s::text[], %s::int[]) AS a(stream_id, since) "
    "JOIN rivals_stream s ON s.id = a.stream_id "
    "JOIN rivals_event e ON e.stream_id = a.stream_id AND e.version >= a.since "
    "AND e.recorded_at >= coalesce(s.first_at, '-infinity') "
    "ORDER BY e.stream_id, e.version"
)
# Events without a link outside the sealed history (migration 0013's partial index holds only the
# unlinked events, so this reads the sealed history's size, not the log's).
UNLINKED_SQL = (
    "SELECT e.position, e.stream_id, e.version, s.version FROM rivals_event e "
    "LEFT JOIN rivals_event_seal s ON s.stream_id = e.stream_id "
    "WHERE e.chain IS NULL AND e.version > coalesce(s.version, 0) ORDER BY e.position LIMIT 100"
)


def _since(anchored: dict[str, Head], heads: dict, seals: dict[str, Head]) -> list[Break]:
    """Does the log extend the anchored heads? Each anchored stream still has its head, at the
    anchored version and chain or past it; its anchored event still has the anchored link; the
    events past it link that chain to the head's; no event lost its link outside the sealed history."""
    breaks: list[Break] = []
    start: dict[str, Head] = {}
    for stream_id, (version, chain) in anchored.items():
        head = heads.get(stream_id)
        if head is None:
            breaks.append(Break(None, stream_id, version, "an anchored stream is gone"))
        elif head[0] < version:
            says = f"an anchored event is gone: the stream head was rewound to version {head[0]}"
            breaks.append(Break(None, stream_id, version, says))
        elif head[0] == version and head[1] is not None and head[1] != chain:
            breaks.append(Break(None, stream_id, version, "the stream head's chain differs from the anchored one"))
        else:
            start[stream_id] = (version, chain)
    for stream_id, (version, _) in heads.items():
        if stream_id not in anchored and version > 0:
            start[stream_id] = (0, b"")  # a new stream: from its genesis
    with connection.cursor() as cur:
        cur.execute(UNLINKED_SQL)
        for position, stream_id, version, sealed in cur.fetchall():
            if any(b.stream_id == stream_id for b in breaks):
                continue
            seal = (sealed, b"") if sealed is not None else None
            breaks.append(Break(position, stream_id, version, eventchain.unlinked_reason(None, seal, version)))
            start.pop(stream_id, None)  # named: its first unlinked event is where it broke
    if start:
        params = [list(start), [v for v, _ in start.values()]]
        changed = {s: heads[s] for s in start}
        breaks += eventchain.verify_rows(SINCE_SQL, params, seals=seals, stream_heads=changed, start=start).breaks
    return breaks


def log_anchor_write(*, now: datetime | None = None, accept: str = "", directory: str | Path | None = None) -> str:
    """The periodic job (``log-anchor``): check that the log extends the latest anchor, then write
    the next one. Raises ``AnchorRefused`` (nothing written) when it does not, unless ``accept``
    gives the operator's reason to anchor the log as it is (a full anchor that records the breaks)."""
    now = now or timezone.now()
    folder = anchor_dir(directory)
    names = _names(folder)  # read before the snapshot: an anchor never runs ahead of what is checked
    accepted: list[str] = []
    try:
        before = anchors_load(folder)
    except AnchorError as exc:
        if not accept:
            raise
        before, accepted = Anchored(), [str(exc)]
    with eventchain.log_snapshot():
        heads = eventchain.read_heads()
        seals = _read_seals()
        with connection.cursor() as cur:
            cur.execute("SELECT max(position) FROM rivals_event")
            position = cur.fetchone()[0]
        if before.latest is None:  # the first anchor (or one past unreadable anchors) verifies the whole log
            breaks = eventchain.verify_rows(ROWS_SQL, seals=seals, stream_heads=heads).breaks
        else:
            breaks = _since(before.heads, heads, seals)
    if breaks and not accept:
        raise AnchorRefused(breaks)
    accepted += [str(b) for b in breaks]
    signed = {s: h for s, h in heads.items() if h[1] is not None}  # a NULL head is a break: never signed
    seq = int(names[-1][:10]) + 1 if names else 1
    base = before.latest.body["base"] if before.latest is not None else seq
    full = before.latest is None or bool(accept) or seq - base >= settings.RIVALS["ANCHOR_FULL_EVERY"]
    listed = signed if full else {s: h for s, h in signed.items() if before.heads.get(s) != h}
    body = {
        "format": FORMAT,
        "seq": seq,
        "kind": "full" if full else "delta",
        "base": seq if full else base,
        "written_at": now.isoformat(),
        "position": position,
        "streams": len(signed),
        "events": sum(v for v, _ in signed.values()),
        "digest": heads_digest(signed),
        "previous": _tip(folder, names),
        "heads": [[s, v, c.hex()] for s, (v, c) in sorted(listed.items())],
    }
    if accept:
        body["accepted"] = {"reason": accept, "breaks": accepted[:1000], "count": len(accepted)}
    name = _write(folder, body)
    if name is None:
        return f"anchor {seq} was written by another run meanwhile: nothing to do"
    return f"anchor {seq} ({body['kind']}): {len(signed)} streams, {len(listed)} heads listed, position {position}"


def log_verify_anchored(
    directory: str | Path | None = None, *, use_anchors: bool = True
) -> tuple[eventchain.Report, Anchored | None, str]:
    """``verify_log``: the whole chain, against the latest anchor when there is one (read before
    the snapshot); with the anchors' own problem in words, or ""."""
    anchored, problem = None, ""
    folder = directory or settings.RIVALS["ANCHOR_DIR"]
    if use_anchors and folder:
        try:
            anchored = anchors_load(folder)
        except AnchorError as exc:
            problem = str(exc)
    return eventchain.log_verify(anchored=anchored.heads if anchored else None), anchored, problem
