"""``make run`` (``manage.py serve``) serves the live socket beside the HTTP API on one address,
with the embedded defaults' channel layer (PostgreSQL LISTEN/NOTIFY), and Ctrl-C stops it all.
Its terminal (issue 22): the admin's sign-in is said last once everything answers, the routine
jobs' lines stay at DEBUG, an admin 403 is one line and nothing prints a traceback; (issue 40) one
line per request but static files, every line of web, worker and beat on one clock (UTC)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest
import requests
from django.db import connection

from config.embedded import database_url
from tests.live.server import ROOT, free_port, recv, send

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


def test_manage_py_serve_serves_the_socket_and_stops_everything(tmp_path):
    from websockets.sync.client import connect

    from tests.factories import device_id_for

    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "RIVALS_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.pop("RIVALS_LIVE_LAYER_URL", None)
    env["RIVALS_ADMIN_PASSWORD"] = "serve-admin-password-7"
    log = tmp_path / "serve.log"
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                res = requests.post(base + "/auth/guest", json={"device_id": device_id_for("serve")}, timeout=5)
                break
            except requests.RequestException:
                assert serve.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
                time.sleep(0.5)
        headers = {"Authorization": f"Token {res.json()['token']}"}
        ticket = requests.post(base + "/live/ticket", headers=headers, timeout=10).json()
        assert ticket["url"] == f"ws://127.0.0.1:{port}/api/v1/live?ticket={ticket['ticket']}"
        with connect(ticket["url"]) as ws:
            send(ws, op="subscribe", topic="account")
            assert recv(ws, timeout=30)["op"] == "subscribed"
        admin = requests.Session()
        root = f"http://127.0.0.1:{port}/admin"
        admin.get(f"{root}/login/", timeout=10)
        signin = {"username": "admin", "password": env["RIVALS_ADMIN_PASSWORD"], "next": "/admin/"}
        admin.post(f"{root}/login/", {**signin, "csrfmiddlewaretoken": admin.cookies["csrftoken"]}, timeout=10)
        assert admin.get(f"{root}/rivals/event/add/", timeout=10).status_code == 403  # read-only for everyone
        page = admin.get(f"{root}/rivals/account/", timeout=10)  # an admin page: ~20 static files with it
        for path in re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text):
            admin.get(f"http://127.0.0.1:{port}{path}", timeout=10)
        assert admin.get(f"http://127.0.0.1:{port}/favicon.ico", timeout=10).status_code == 200
        while "matches.sweep" not in _job_runs() and time.monotonic() < deadline:
            time.sleep(0.5)  # the 2-second sweeper has run at least once
    finally:
        children = subprocess.run(["pgrep", "-P", str(serve.pid)], capture_output=True, text=True).stdout.split()
        os.killpg(serve.pid, signal.SIGINT)  # Ctrl-C
        try:
            serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(timeout=10)
    text = log.read_text(errors="replace")
    assert "==> stopped" in text
    ready = text.index("==> ready on")
    assert "==> admin sign-in: admin / serve-admin-password-7" in text[ready:]
    assert "Sending due task matches-sweep" not in text and "matches.sweep[" not in text, text[-3000:]
    assert "Forbidden (Permission denied): /admin/rivals/event/add/" in text
    assert "Traceback" not in text, text[-3000:]
    # issue 40: one line per request that is not a static file, one clock (UTC, with the zone)
    assert '"GET /admin/rivals/account/ HTTP/1.1" 200' in text and "GET /static/" not in text
    assert "/favicon.ico" not in text and "Not Found" not in text
    timed = [line for line in text.splitlines() if re.match(r"\[?\d{4}-\d\d-\d\d", line)]
    utc = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC "
    assert timed and all(re.match(utc, line) for line in timed), timed[:10]
    assert any("celery" in line for line in timed) and any("config.beat" in line for line in timed)  # worker, beat
    assert len(children) == 3  # web (uvicorn), worker, beat
    assert not [pid for pid in children if os.path.exists(f"/proc/{pid}")], "serve left processes running"


def _job_runs() -> set[str]:
    from rivals.models import JobRun

    return set(JobRun.objects.filter(runs__gt=0).values_list("task", flat=True))
