"""The application's own keys that sign what the database's owner must not be able to forge: the
event log's hash chain (``rivals/eventchain.py``, ``RIVALS_EVENT_CHAIN_KEY``) and its anchors, the
signed checkpoints the log-anchor job writes outside the database (``rivals/eventanchor.py``,
``RIVALS_ANCHOR_KEY``, issue 31). Held by the application, never stored in the database, never
changed while events or anchors made with them are kept. Unset, each is derived from
``DJANGO_SECRET_KEY`` under its own label — then that key must not change either: production
should set both (docs/security.md)."""

from __future__ import annotations

import hashlib

LABELS = {"RIVALS_EVENT_CHAIN_KEY": b"rivals.event-chain", "RIVALS_ANCHOR_KEY": b"rivals.log-anchor"}


def derived(env, name: str, secret_key: str) -> str:
    return env.str(name, default="") or hashlib.sha256(LABELS[name] + b"\0" + secret_key.encode()).hexdigest()
