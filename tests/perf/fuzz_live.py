"""schemathesis' own CLI, with every check (its default; schemathesis.toml says where "accepted"
means more than 2xx), against the service as it runs (gunicorn) on a database
seeded with the states clients meet (tests/platform/seeded.py): the last step of ``make fuzz``.

A database of its own is created on the server of ``DATABASE_URL`` (else the embedded one) and
dropped at the end; gunicorn is stopped whatever happens. The run is bounded by ``--seconds``
(``RIVALS_FUZZ_SECONDS`` × its share) and ``--examples`` per operation; it passes when schemathesis
finds nothing (exit 0) and prints schemathesis' own report.

    python tests/perf/fuzz_live.py [--seconds 120] [--examples 100] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    share = 0.3  # of make fuzz's time (the in-process fuzz tests take the rest)
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("RIVALS_FUZZ_SECONDS") or 400) * share)
    parser.add_argument("--examples", type=int, default=int(os.environ.get("RIVALS_FUZZ_EXAMPLES") or 100))
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"  # the seeding's own tasks go nowhere
    # the store's purchase reports are accepted (unsigned, each is 401), not refused as unconfigured (503)
    os.environ.setdefault("PURCHASES_WEBHOOK_SECRET", "fuzz-store-secret")
    from tests.perf.benchdb import bench_database
    from tests.perf.stack import Stack

    with bench_database("fuzz_live", os.environ.get("DATABASE_URL")), tempfile.TemporaryDirectory() as folder:
        stack = Stack(
            database_url=os.environ["DATABASE_URL"],
            broker_url="memory://",
            cache_url="locmemcache://",
            folder=Path(folder),
            web_workers=2,
            threads=2,
            # the run fuzzes the logic behind the throttles, not the throttles (their tests do)
            THROTTLE_EMAIL_SEND="1000000/hour",
            THROTTLE_LOGIN_ACCOUNT="1000000/hour",
            THROTTLE_LOGIN_IP="1000000/minute",
        )
        stack.prepare()
        token = _seed(stack.env)
        try:
            stack.start_web()
            command = [
                str(Path(sys.executable).with_name("schemathesis")),
                "--config-file",
                str(ROOT / "schemathesis.toml"),
                "run",
                f"http://127.0.0.1:{stack.port}/api/schema/",
                "--header",
                f"Authorization: Token {token}",
                "--max-examples",
                str(args.examples),
                "--max-time",
                str(int(args.seconds)),
                # one worker: hypothesis in several threads trips CPython 3.11's AST recursion check
                "--workers",
                "1",
                # a logout revokes the run's own token (the suite's fuzz covers it, with a token a test)
                "--exclude-operation-id",
                "auth_logout",
            ]
            if args.seed is not None:
                command += ["--seed", str(args.seed)]
            print("==> " + " ".join(c if "Token " not in c else "Authorization: Token …" for c in command), flush=True)
            # tests/platform/schemathesis_checks.py: negative_data_rejection read against the whole schema
            hooks = {"SCHEMATHESIS_HOOKS": "tests.platform.schemathesis_checks", "PYTHONPATH": str(ROOT)}
            code = subprocess.run(command, cwd=ROOT, env={**os.environ, **hooks}).returncode
        finally:
            stack.stop()
    print("PASS" if code == 0 else f"FAIL (schemathesis exit {code})", flush=True)
    return code


def _seed(env: dict) -> str:
    """A guest of its own, with everything ``seeded.seed`` makes around it; its token (made with
    the stack's settings: its data folder holds the development secret key tokens are hashed with)."""
    import django

    os.environ["RIVALS_DATA_DIR"] = env["RIVALS_DATA_DIR"]
    django.setup()
    from rivals.accounts.services import account_guest_signin
    from tests.platform.seeded import seed

    account, token, _ = account_guest_signin(device_id="fuzz-live-device-0123456789")
    seed(account)
    return token


if __name__ == "__main__":
    sys.exit(main())
