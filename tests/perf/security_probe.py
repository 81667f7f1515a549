"""Issue 19's findings, re-run against the service as in production (``make security-probe``):
gunicorn with ``DJANGO_PRODUCTION=1``, a PostgreSQL and a Redis broker of the probe's own, the
cache on Redis, a worker and beat (``tests/perf/faults.py``'s world). Each finding prints
PASS/FAIL with what was seen; exit 1 if any fails. Not part of ``make test``.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import threading
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.perf import faults, probe_abuse
from tests.perf.faults import World, raw_call, verdict
from tests.perf.probe_tamper import PROBES as TAMPER_PROBES

PRODUCTION = {
    "DJANGO_PRODUCTION": "1",
    "DJANGO_SECRET_KEY": "probe-" + uuid.uuid4().hex,
    "DJANGO_SECURE_SSL_REDIRECT": "0",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
}


def _device() -> str:
    return str(uuid.uuid4())


def _guest(port: int, **headers):
    return raw_call(port, "POST", "/api/v1/auth/guest", {"device_id": _device()}, headers=headers)


def probe_takeover(port: int) -> None:
    _, _, body = _guest(port)
    token = body["token"]
    first = raw_call(
        port, "POST", "/api/v1/account/credentials", {"email": "o@example.org", "password": "owner-pass-77"}, token
    )
    second = raw_call(
        port, "POST", "/api/v1/account/credentials", {"email": "t@example.org", "password": "thief-pass-77"}, token
    )
    verdict(
        "finding-1 takeover",
        first[0] == 202 and second[0] == 400,
        f"add {first[0]}, replace without the password {second[0]}",
    )


def probe_device_secret(port: int) -> None:
    weak = raw_call(port, "POST", "/api/v1/auth/guest", {"device_id": "phone-1"})
    verdict("finding-2 device id", weak[0] == 400, f"a short new device id: {weak[0]}")


def probe_replay(port: int) -> None:
    from rivals.models import AccessToken

    key = {"Idempotency-Key": uuid.uuid4().hex}
    device = _device()
    first = raw_call(port, "POST", "/api/v1/auth/guest", {"device_id": device}, headers=key)
    replay = raw_call(port, "POST", "/api/v1/auth/guest", {"device_id": device}, headers=key)
    token = first[2]["token"]
    stored = AccessToken.objects.filter(key=token).exists()
    # docs/security.md: a replayed guest sign-in is the first answer with a fresh token, never the first
    ok = replay[0] == first[0] and token not in str(replay[2]) and not stored
    verdict(
        "finding-3 secrets at rest", ok, f"replay {replay[0]} (first {first[0]}), token stored in the clear: {stored}"
    )


def probe_metadata(port: int) -> None:
    from rivals.models import Event

    _, _, body = _guest(port)
    headers = {"X-Request-ID": "someone@example.org", "Idempotency-Key": "someone@example.org" + "k" * 200}
    raw_call(port, "POST", "/api/v1/daily-bonus/claim", None, body["token"], headers=headers)
    raw_call(port, "POST", "/api/v1/auth/logout", None, body["token"], headers=headers)
    leaked = [
        e.position
        for e in Event.objects.filter(stream_id=f"account-{body['account_id']}")
        if "example.org" in str(e.metadata)
    ]
    too_long = raw_call(
        port, "POST", "/api/v1/daily-bonus/claim", None, _guest(port)[2]["token"], {"Idempotency-Key": "k" * 6000}
    )
    verdict(
        "finding-4 client text in events",
        not leaked and too_long[0] == 400,
        f"events with client text {leaked}, 6000-char key {too_long[0]}",
    )


def probe_throttles(port: int) -> None:
    answers = [
        raw_call(
            port,
            "POST",
            "/api/v1/auth/login",
            {"email": f"p{i}@example.org", "password": "x" * 12},
            headers={"X-Forwarded-For": f"198.51.100.{i}"},
        )[0]
        for i in range(35)
    ]
    admin = [_admin_sign_in(port) for _ in range(30)]
    ok = answers.count(429) >= 5 and admin.count(429) >= 15
    verdict(
        "finding-5 throttles",
        ok,
        f"35 logins with a new X-Forwarded-For each: {answers.count(429)} throttled; 30 admin sign-ins: {admin.count(429)} throttled",
    )


def _admin_sign_in(port: int) -> int:
    """A wrong admin sign-in with a CSRF token (without one, CSRF refuses it before the throttle)."""
    token = "probe" * 6 + "ab"  # a CSRF secret of 32 characters, sent as the cookie and in the form
    conn = faults.fresh_connection(port)
    try:
        body = f"username=probe&password=wrong-password&csrfmiddlewaretoken={token}"
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={token}"}
        conn.request("POST", "/admin/login/", body, headers)
        return conn.getresponse().status
    finally:
        conn.close()


def probe_club_races(port: int, rounds: int = 10) -> None:
    statuses: list[int] = []
    for _ in range(rounds):
        owner = _guest(port)[2]["token"]
        heir = _guest(port)[2]["token"]
        joiner = _guest(port)[2]["token"]
        club = raw_call(port, "POST", "/api/v1/clubs", {"name": f"Race {uuid.uuid4().hex[:8]}"}, owner)[2]["id"]
        raw_call(port, "POST", f"/api/v1/clubs/{club}/join", None, heir)
        barrier = threading.Barrier(3)

        def go(method_path_token, barrier=barrier):
            path, token, body = method_path_token
            barrier.wait()
            statuses.append(raw_call(port, "POST", path, body, token)[0])

        jobs = [
            (f"/api/v1/clubs/{club}/leave", owner, None),
            (f"/api/v1/clubs/{club}/join", joiner, None),
            (f"/api/v1/clubs/{club}/join", heir, None),
        ]
        threads = [threading.Thread(target=go, args=(j,)) for j in jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    bad = [s for s in statuses if s >= 500]
    verdict(
        "finding-6 races", not bad, f"{len(statuses)} concurrent club calls, 5xx: {len(bad)} ({sorted(set(statuses))})"
    )


def probe_names(port: int) -> None:
    a = _guest(port)[2]["token"]
    b = _guest(port)[2]["token"]
    invisible = raw_call(port, "POST", "/api/v1/clubs", {"name": "\u200b\u3164\u2800"}, a)[0]
    name = f"Tile Masters {uuid.uuid4().hex[:4]}"
    raw_call(port, "POST", "/api/v1/clubs", {"name": name}, a)
    alike = raw_call(port, "POST", "/api/v1/clubs", {"name": name.upper().replace("A", "\u0410")}, b)[0]
    verdict("finding-7 names", invisible == 400 and alike == 409, f"invisible {invisible}, look-alike {alike}")


def probe_log(port: int) -> None:
    from django.core.management import CommandError, call_command
    from django.db import connection

    from rivals.models import Event

    _guest(port)
    victim = Event.objects.order_by("-position").first()
    call_command("verify_log", stdout=io.StringIO())
    with connection.cursor() as cur:  # the table's owner switches its triggers off and rewrites
        cur.execute("ALTER TABLE rivals_event DISABLE TRIGGER USER")
        cur.execute("UPDATE rivals_event SET data = '{}' WHERE position = %s", [victim.position])
        cur.execute("ALTER TABLE rivals_event ENABLE TRIGGER USER")
    try:
        call_command("verify_log", stdout=io.StringIO())
        named = ""
    except CommandError as exc:
        named = str(exc)
    verdict("finding-8 log rewrite", f"event #{victim.position}" in named, named[:160] or "not detected")


PROBES = [
    probe_takeover,
    probe_device_secret,
    probe_replay,
    probe_metadata,
    probe_throttles,
    probe_club_races,
    probe_names,
    probe_log,
    *probe_abuse.PROBES,  # issue 31: abuse that still worked
]
PROBES += TAMPER_PROBES  # issue 31: the event log's tampers, after probe_log (they break the log)


def main() -> int:
    os.environ.update(PRODUCTION)
    original = faults.Stack

    def production_stack(**kwargs):
        return original(**kwargs, **PRODUCTION)

    faults.Stack = production_stack
    with tempfile.TemporaryDirectory(prefix="rivals-security-") as tmp:
        world = World(Path(tmp))
        try:
            for probe in PROBES:
                try:
                    probe(world.stack.port)
                except Exception as exc:  # a probe that breaks is a failure, the others run
                    verdict(probe.__name__, False, f"raised {exc!r}")
        finally:
            world.close()
    failed = [n for n, ok, _ in faults.RESULTS if not ok]
    print(f"{len(faults.RESULTS) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
