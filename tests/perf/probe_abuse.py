"""Issue 31, "abuse that still works", as probes of ``make security-probe``
(``tests/perf/security_probe.py`` runs them after issue 19's findings, on its production-shaped
stack: gunicorn with ``DJANGO_PRODUCTION=1``, Redis as cache, a worker that prints the emails to
its log). Each prints PASS/FAIL with what was seen.

- ``probe_reset_not_blocked``: four strangers name the owner's verified address in ``POST
  /account/credentials``; the owner's reset code still arrives (read from the worker's console
  mail) and works; the owner got one "already has an account" notice, not four.
- ``probe_mailbox_tags``: ``name+tag@`` in any case is one mailbox: a sixth request for one
  mailbox from one client is throttled whatever the tag.
- ``probe_live_frames`` and ``probe_shared_counters`` start ASGI processes as ``make run`` does
  (uvicorn with ``config.serving``'s options; no ``CACHE_URL``: the database's cache table) on the
  probe's database: a frame of 1,000 ``[`` is ``invalid`` on a socket that stays open, frames of
  4 KiB + 1, 1 MiB and 8 MiB are closed with 1009; two such processes let 10 wrong logins
  through, not 20.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from tests.live.server import LiveServer, closed_with
from tests.perf.faults import raw_call, verdict, wait_for

MIB = 1024 * 1024
SEPARATOR = "-" * 79  # between two emails of Django's console backend


def _guest(port: int) -> dict:
    return raw_call(port, "POST", "/api/v1/auth/guest", {"device_id": str(uuid.uuid4())})[2]


def _fresh_sign_in_window() -> None:
    """Wait for the next minute: ``probe_throttles`` spent this minute's 30 sign-in and email
    requests of 127.0.0.1 (``THROTTLE_LOGIN_IP``, fixed windows of a minute)."""
    time.sleep(60 - time.time() % 60 + 0.5)


def _emails(to: str, subject: str) -> list[str]:
    """The emails to ``to`` with ``subject`` that the stack's worker printed (console backend)."""
    log = Path(os.environ["RIVALS_DATA_DIR"]) / "worker.log"
    text = log.read_text(errors="replace") if log.exists() else ""
    return [m for m in text.split(SEPARATOR) if f"\nTo: {to}\n" in m and f"Subject: Mahjong Rivals: {subject}" in m]


def _code(email: str) -> str:
    match = re.search(r"enter this code[^\n]*\n\n(\S+)\n", email)
    return match.group(1) if match else ""


def probe_reset_not_blocked(port: int) -> None:
    from rivals.accounts.credentials import credentials_add
    from rivals.models import Account

    _fresh_sign_in_window()
    owner = f"owner-{uuid.uuid4().hex[:10]}@example.org"
    account = _guest(port)
    # the owner set the account up earlier, from home (not from this probe's one client address)
    credentials_add(account=Account.objects.get(pk=account["account_id"]), email=owner, password="owner-pass-7731")
    wait_for(lambda: _emails(owner, "confirm your email"), 30)
    code = _code((_emails(owner, "confirm your email") or [""])[0])
    verified = raw_call(port, "POST", "/api/v1/account/verify", {"token": code})[0]
    strangers = [
        raw_call(
            port,
            "POST",
            "/api/v1/account/credentials",
            {"email": owner, "password": "stranger-pass-31"},
            _guest(port)["token"],
        )[0]
        for _ in range(4)
    ]
    reset = raw_call(port, "POST", "/api/v1/auth/password-reset", {"email": owner})[0]
    arrived = wait_for(lambda: _emails(owner, "reset your password"), 30)
    codes = [_code(m) for m in _emails(owner, "reset your password")]
    confirm = raw_call(
        port,
        "POST",
        "/api/v1/auth/password-reset/confirm",
        {"token": codes[0] if codes else "", "password": "owner-new-7731"},
    )[0]
    notices = len(_emails(owner, "this address already has an account"))
    ok = verified == 200 and strangers == [202] * 4 and reset == 202 and arrived and confirm == 200 and notices == 1
    verdict(
        "issue-31 reset not blocked",
        ok,
        f"4 strangers naming the owner's address: {strangers}, notices to the owner {notices}; the owner's reset "
        f"{reset}, its code arrived {arrived} and works: {confirm}",
    )


def probe_mailbox_tags(port: int) -> None:
    name = f"victim{uuid.uuid4().hex[:8]}"
    answers = [
        raw_call(
            port,
            "POST",
            "/api/v1/account/credentials",
            {"email": f"{name.upper() if i % 2 else name}+{i}@Example.org", "password": "tagger-pass-31"},
            _guest(port)["token"],
        )[0]
        for i in range(6)
    ]
    ok = answers == [202] * 5 + [429]
    verdict("issue-31 name+tag is one mailbox", ok, f"6 requests for 6 tags of one mailbox from one client: {answers}")


@contextmanager
def _make_run_servers(count: int):
    """``count`` ASGI processes started as ``make run`` starts its web process (uvicorn on
    config.asgi with ``config.serving``'s WebSocket options), with the embedded default's cache
    (no ``CACHE_URL``: the database's table), on the probe's database."""
    servers = []
    try:
        for _ in range(count):
            folder = Path(os.environ["RIVALS_DATA_DIR"])
            servers.append(LiveServer(database_url=os.environ["DATABASE_URL"], folder=folder, CACHE_URL=""))
        yield servers
    finally:
        for server in servers:
            server.stop()


def _socket(port: int):
    from websockets.sync.client import connect

    guest = _guest(port)
    ticket = raw_call(port, "POST", "/api/v1/live/ticket", None, guest["token"])[2]["ticket"]
    return connect(f"ws://127.0.0.1:{port}/api/v1/live?ticket={ticket}", open_timeout=10)


def _closed(port: int, payload: str) -> int | None:
    with _socket(port) as ws:
        return closed_with(ws, payload)


def probe_live_frames(port: int) -> None:
    with _make_run_servers(1) as (server,):
        live = server.port
        with _socket(live) as ws:
            ws.send("[" * 1000)
            brackets = json.loads(ws.recv(timeout=10))
            ws.send(json.dumps({"op": "subscribe", "topic": "account"}))
            after = json.loads(ws.recv(timeout=10))
        big = {
            size: _closed(live, '{"op": "subscribe", "topic": "' + "x" * size + '"}') for size in (4097, MIB, 8 * MIB)
        }
        log = server.log.read_text(errors="replace")
    ok = (
        brackets.get("code") == "invalid"
        and after.get("op") == "subscribed"
        and set(big.values()) == {1009}
        and "Exception in ASGI application" not in log
    )
    seen = f"1,000 '[': {brackets.get('code')}, then a subscribe: {after.get('op')}"
    verdict("issue-31 live frames", ok, f"{seen}; close codes of frames over 4 KiB, 1 and 8 MiB: {list(big.values())}")


def probe_shared_counters(port: int) -> None:
    email = f"ghost-{uuid.uuid4().hex[:8]}@example.org"
    with _make_run_servers(2) as servers:
        a, b = (server.port for server in servers)
        answers = [
            raw_call((a, b)[i % 2], "POST", "/api/v1/auth/login", {"email": email, "password": "wrong-pass-31"})[0]
            for i in range(20)
        ]
    ok = answers == [401] * 10 + [429] * 10
    verdict(
        "issue-31 throttles shared by make run's processes",
        ok,
        f"20 wrong logins alternating between two processes: {answers.count(401)} answered, {answers.count(429)} throttled",
    )


PROBES = [probe_reset_not_blocked, probe_mailbox_tags, probe_live_frames, probe_shared_counters]

if __name__ == "__main__":
    sys.exit("run through tests/perf/security_probe.py (make security-probe)")
