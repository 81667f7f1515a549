"""Run the whole service in one terminal: web (API + admin + the live WebSocket), a Celery worker
and Celery beat.

Migrates, declares the periodic tasks, creates a development superuser (printed), then starts the
three processes and stops them all on Ctrl-C. Without ``DATABASE_URL`` the embedded PostgreSQL
(started by the settings) is shared with the children through ``DATABASE_URL``; without
``CELERY_BROKER_URL`` the filesystem broker under ``.data/broker`` is used.
"""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from config.embedded import DATA_DIR, release_embedded_database
from config.serving import uvicorn_ws_options


class Command(BaseCommand):
    help = "Run web + worker + beat (development and single-host installs)."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default=os.environ.get("RIVALS_BIND", "127.0.0.1:8000"))
        parser.add_argument("--web-workers", type=int, default=2)
        parser.add_argument("--no-superuser", action="store_true")

    def _step(self, text: str) -> None:
        self.stdout.write(f"==> {text}")
        self.stdout.flush()

    def handle(self, *args, **opts):
        embedded_db = not os.environ.get("DATABASE_URL")
        where = "embedded PostgreSQL under .data/pg" if embedded_db else "DATABASE_URL"
        self._step(f"database: {where}; broker: {settings.CELERY_BROKER_URL.split('://')[0]}")
        self._step("applying migrations")
        call_command("migrate", interactive=False, verbosity=0)
        self._step("declaring the periodic tasks")
        call_command("setup_periodic_tasks", verbosity=0)
        signin = ""
        if not opts["no_superuser"]:
            self._step("the development superuser")
            out = io.StringIO()
            call_command("dev_operator", stdout=out)  # rivals.accounts: an operator's creation is an event
            signin = out.getvalue().strip()
            self.stdout.write(signin)  # said again once everything answers, below the processes' start-up
        env = {**os.environ, "DATABASE_URL": settings.DATABASE_URL, "DJANGO_SETTINGS_MODULE": "config.settings"}
        env.setdefault("DJANGO_DEBUG", "0")
        py = sys.executable
        data = DATA_DIR
        data.mkdir(parents=True, exist_ok=True)
        host, _, port = opts["bind"].rpartition(":")
        self._step("starting web (uvicorn: HTTP API + live WebSocket), worker and beat")
        # --quiet: no start-up banners (the routine jobs' lines are DEBUG: config/logfilters.py)
        celery = [py, "-m", "celery", "-A", "config", "--quiet"]
        procs = {
            # config.asgi: the HTTP API and the live WebSocket (/api/v1/live) on one address;
            # each worker's hub takes the log's ranges over the channel layer (PostgreSQL's
            # LISTEN/NOTIFY unless RIVALS_LIVE_LAYER_URL names a Redis)
            "web": [
                py,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                host,
                "--port",
                port,
                "--workers",
                str(opts["web_workers"]),
                *uvicorn_ws_options(),  # websockets-sansio, and the live socket's message size limit
                "--timeout-graceful-shutdown",
                "10",
                # one line per request but static files, the clock of every line UTC (config/logfilters.py)
                "--log-config",
                str(Path(settings.BASE_DIR) / "config" / "uvicorn_logging.json"),
            ],
            "worker": [*celery, "worker", "--loglevel", "INFO", "--concurrency", "2"],
            "beat": [*celery, "beat", "--loglevel", "INFO", "-s", str(data / "celerybeat-schedule")],
        }
        running = {name: subprocess.Popen(cmd, env=env, start_new_session=True) for name, cmd in procs.items()}
        started, announced = time.monotonic(), False
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                if not announced and (_answers(host, int(port)) or time.monotonic() - started > 60):
                    self._ready(opts["bind"], signin)
                    announced = True
                for name, proc in running.items():
                    if proc.poll() is not None:
                        self.stderr.write(f"{name} exited with {proc.returncode}; stopping the others")
                        stopping = True
                time.sleep(0.5)
        finally:
            # SIGTERM to each main process (warm shutdown: a worker finishes its task, uvicorn
            # its requests and closes its sockets); whatever still runs after 20 s is killed with its children.
            for proc in running.values():
                if proc.poll() is None:
                    proc.terminate()
            deadline = time.monotonic() + 20
            for proc in running.values():
                try:
                    proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=5)
            if embedded_db:
                release_embedded_database()
            self.stdout.write("==> stopped")

    def _ready(self, bind: str, signin: str) -> None:
        """The lines a newcomer needs, last on the screen once the web answers: where everything
        is, and how to sign in to the admin (issue 22)."""
        self.stdout.write(
            self.style.SUCCESS(
                f"==> ready on http://{bind}/  — API docs http://{bind}/api/docs/  admin http://{bind}/admin/  "
                f"health http://{bind}/healthz  live socket ws://{bind}/api/v1/live"
            )
        )
        if signin:
            self.stdout.write(self.style.WARNING(f"==> {signin}"))
        self.stdout.write("==> Ctrl-C stops web, worker and beat")
        self.stdout.flush()


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host or "127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False
