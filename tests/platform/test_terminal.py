"""``make run``'s terminal (issue 40): one line per request that is not a static file, one clock
across web, worker and beat (UTC, the zone written), and a favicon served rather than a 404 and
its line on every admin page. ``tests/live/test_serve.py`` reads the real terminal."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from config.logfilters import NoStaticFiles, UTCFormatter, utc_clock

ROOT = Path(__file__).resolve().parents[2]
ACCESS = '%s - "%s %s HTTP/%s" %d'  # uvicorn's access line


def _access(path: str) -> logging.LogRecord:
    return logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, ACCESS, ("127.0.0.1:5000", "GET", path, "1.1", 200), None
    )


def test_one_clock_utc_with_its_zone():
    record = logging.LogRecord("celery.beat", logging.INFO, "", 0, "Scheduler: Sending due task %s", ("x",), None)
    record.created, record.msecs = 1780336805.25, 250.0  # 2026-06-01 18:00:05.250 UTC (21:00 in Bucharest)
    assert (
        UTCFormatter().format(record) == "2026-06-01 18:00:05.250 UTC INFO celery.beat: Scheduler: Sending due task x"
    )


def test_static_files_and_the_favicon_are_not_logged_and_pages_are():
    quiet = NoStaticFiles()
    assert not quiet.filter(_access("/static/admin/css/base.css"))
    assert not quiet.filter(_access("/favicon.ico"))
    assert quiet.filter(_access("/admin/rivals/account/?q=jade"))
    assert quiet.filter(logging.LogRecord("uvicorn.error", logging.INFO, "", 0, "Started server process", (), None))


def test_uvicorns_config_and_celerys_loggers_use_the_one_clock():
    config = json.loads((ROOT / "config" / "uvicorn_logging.json").read_text())
    assert config["formatters"]["utc"]["()"] == "config.logfilters.UTCFormatter"
    assert config["handlers"]["access"]["filters"] == ["no_static"]
    assert all(h["formatter"] == "utc" for h in config["handlers"].values())
    logger = logging.Logger("celery-like")
    logger.addHandler(logging.StreamHandler())
    utc_clock(logger=logger)  # Celery's after_setup_logger
    assert isinstance(logger.handlers[0].formatter, UTCFormatter)


@pytest.mark.django_db
def test_a_favicon_is_served(client):
    res = client.get("/favicon.ico")
    assert res.status_code == 200 and res["Content-Type"] == "image/svg+xml" and b"<svg" in res.content
