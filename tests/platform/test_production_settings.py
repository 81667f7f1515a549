"""Production settings, checked the way an operator starts the service."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_DEBUG")}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


PRODUCTION = {
    "DJANGO_PRODUCTION": "1",
    "DJANGO_SECRET_KEY": "k" * 20 + "-ProductionOnly-" + "9Xq!z" * 6,
    "DJANGO_ALLOWED_HOSTS": "rivals.example",
}


def test_check_deploy_with_production_settings_passes_without_security_warnings(tmp_path):
    res = _manage(
        "check",
        "--deploy",
        "--tag",
        "security",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
        DATABASE_URL="postgres://rivals@db.invalid:5432/rivals",
        RIVALS_DATA_DIR=str(tmp_path),
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "no issues" in res.stdout


def test_production_without_database_url_refuses_to_start_instead_of_embedding_a_database(tmp_path):
    res = _manage("check", **PRODUCTION, RIVALS_DATA_DIR=str(tmp_path))
    assert res.returncode != 0
    assert "needs DATABASE_URL" in res.stderr
    assert not (tmp_path / "pg").exists()  # no embedded server was started


def test_production_without_a_secret_key_refuses_to_start(tmp_path):
    env = {k: v for k, v in PRODUCTION.items() if k != "DJANGO_SECRET_KEY"}
    res = _manage("check", **env, DATABASE_URL="postgres://rivals@db.invalid/rivals", RIVALS_DATA_DIR=str(tmp_path))
    assert res.returncode != 0 and "DJANGO_SECRET_KEY" in res.stderr


def test_production_refuses_the_benchmark_floor_endpoint(tmp_path):
    res = _manage(
        "check",
        **PRODUCTION,
        RIVALS_BENCH_FLOOR="1",
        DATABASE_URL="postgres://rivals@db.invalid/rivals",
        RIVALS_DATA_DIR=str(tmp_path),
    )
    assert res.returncode != 0 and "RIVALS_BENCH_FLOOR" in res.stderr
