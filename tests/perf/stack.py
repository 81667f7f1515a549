"""The service as production runs it, for the load and fault runs: gunicorn (gthread), one Celery
worker and one beat, on a database and a Redis broker and cache given by URL — never the
embedded defaults. Every process is its own process group, so a run can SIGKILL one of them (or
one gunicorn worker) and stop all of them at the end.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from config.serving import uvicorn_ws_options

ROOT = Path(__file__).resolve().parents[2]
MACHINE_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
MACHINE_REDIS = "redis://127.0.0.1:6379"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(proc: subprocess.Popen | None, sig=signal.SIGTERM) -> None:
    """Stop a process and its group (a prefork pool, gunicorn's workers)."""
    if proc is None:
        return
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    try:  # children of a main process that is gone share its process group
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


CLAIM_KEY = "rivals:bench:claimed-by"


def free_redis_dbs(count: int, base: str = MACHINE_REDIS) -> list[str]:
    """``count`` empty databases of the machine's Redis (highest numbers first), as URLs: a run of
    our own beside whatever else uses that server. Each is claimed with ``SET NX`` of a key naming
    this process, so that two runs starting at once never share one (an empty database is only a
    candidate; the claim decides); flushing it at the end releases it. Raises if Redis does not
    answer or too few are free."""
    import redis

    found = []
    owner = f"{socket.gethostname()}:{os.getpid()}"
    for db in range(15, 0, -1):
        client = redis.Redis.from_url(f"{base}/{db}", socket_timeout=2)
        if client.dbsize() == 0 and client.set(CLAIM_KEY, owner, nx=True):
            found.append(f"{base}/{db}")
            if len(found) == count:
                return found
    for url in found:  # not enough: give back what was claimed
        redis.Redis.from_url(url, socket_timeout=2).delete(CLAIM_KEY)
    raise RuntimeError(f"no {count} empty Redis databases on {base}")


class Stack:
    """gunicorn + worker + beat; ``env`` is what every process of it (and ``manage``) sees."""

    def __init__(
        self,
        *,
        database_url: str,
        broker_url: str,
        cache_url: str,
        folder: Path,
        web_workers: int = 2,
        threads: int = 4,
        **extra: str,
    ):
        self.folder = folder
        self.port = free_port()
        self.live_port = free_port()  # the live WebSocket's uvicorn (start_live), as deploy/ runs it
        self.web_workers, self.threads = web_workers, threads
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            "CACHE_URL": cache_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "RIVALS_DATA_DIR": str(folder),
            "THROTTLE_USER": "1000000/minute",
            "THROTTLE_ANON": "1000000/minute",
            "LOG_LEVEL": "WARNING",
            "RIVALS_LIVE_URL": f"ws://127.0.0.1:{self.live_port}/api/v1/live",
            **extra,
        }
        self.env.pop("CELERY_TASK_ALWAYS_EAGER", None)
        self.web = self.worker = self.beat = self.live = None

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True, stdout=subprocess.DEVNULL
        )

    def prepare(self) -> None:
        self.manage("migrate", "--noinput", "-v0")
        self.manage("setup_periodic_tasks")

    def start_web(self) -> None:
        self.web = spawn(
            [
                "-m",
                "gunicorn",
                "config.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.web_workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(self.threads),
                "--keep-alive",
                "30",
                "--log-level",
                "warning",
                "--control-socket",
                str(self.folder / "gunicorn.ctl"),
            ],
            self.env,
            self.folder / "web.log",
        )
        self.wait_healthy()

    def start_live(self) -> None:
        """The live WebSocket on its own uvicorn (config.asgi; deploy/'s ``live`` service), one
        worker: its hub, and the relay (the embedded channel layer: PostgreSQL's LISTEN/NOTIFY)."""
        self.live = spawn(
            [
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.live_port),
                "--workers",
                "1",
                *uvicorn_ws_options(),
                "--log-level",
                "warning",
            ],
            self.env,
            self.folder / "live.log",
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.live_port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline or self.live.poll() is not None:
                    raise RuntimeError(
                        "uvicorn did not answer: " + (self.folder / "live.log").read_text()[-2000:]
                    ) from None
                time.sleep(0.2)

    def start_worker(self, name: str = "load") -> None:
        self.worker = spawn(
            [
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel",
                "WARNING",
                "--concurrency",
                "2",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"{name}@%h",
            ],
            self.env,
            self.folder / "worker.log",
        )

    def start_beat(self) -> None:
        self.beat = spawn(
            ["-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING", "-s", str(self.folder / "beat-schedule")],
            self.env,
            self.folder / "beat.log",
        )

    def start(self) -> None:
        self.start_worker()
        self.start_beat()
        self.start_web()

    def healthz(self, timeout: float = 5) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", "/healthz")
            return conn.getresponse().status
        finally:
            conn.close()

    def wait_healthy(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                if self.healthz() in (200, 503):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline or (self.web and self.web.poll() is not None):
                raise RuntimeError("gunicorn did not answer: " + (self.folder / "web.log").read_text()[-2000:])
            time.sleep(0.2)

    def web_worker_pids(self) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(self.web.pid)], capture_output=True, text=True).stdout
        return [int(p) for p in out.split()]

    def rest_pids(self) -> list[int]:
        """Every process of the service but the web workers: gunicorn's master, the Celery worker
        (its pool too), beat and the live socket's uvicorn — each started in a process group of its
        own (``spawn``), so a group is read whole, children started since included."""
        web = set(self.web_worker_pids())
        pids: list[int] = []
        for proc in (self.web, self.worker, self.beat, self.live):
            if proc is not None and proc.poll() is None:
                out = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout
                pids += [int(p) for p in out.split() if int(p) not in web]
        return pids

    def stop(self) -> None:
        for proc in (self.web, self.live, self.worker, self.beat):
            stop(proc)


class OwnRedis:
    """A redis-server of the caller's own on a Unix socket (no TCP port, no persistence), which
    a fault run may kill; never the machine's shared one. ``url`` is its broker/cache URL."""

    def __init__(self, folder: Path):
        import shutil

        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server is not installed (apt-get install redis-server)")
        self.socket = folder / "redis.sock"
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                "0",
                "--unixsocket",
                str(self.socket),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while not self.socket.exists():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.1)
        self.url = f"redis+socket://{self.socket}"

    def stop(self) -> None:
        stop(self.proc)


# --- the topology's balancer and pooler (tests/perf/topology.py; deploy/topology/ for real hosts) ---

TOPOLOGY = ROOT / "deploy" / "topology"


def render(template: Path, target: Path, **values) -> Path:
    """A deploy/topology/ template with its ``${NAME}`` placeholders filled."""
    from string import Template

    target.write_text(Template(template.read_text()).substitute({k: str(v) for k, v in values.items()}))
    return target


def _wait_port(port: int, proc: subprocess.Popen, what: str, log: Path, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                text = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"{what} did not answer on {port}: {text}") from None
            time.sleep(0.1)


class PgBouncer:
    """Debian's PgBouncer of the caller's own (deploy/topology/pgbouncer.ini rendered into
    ``folder``) on a free port of 127.0.0.1, in transaction mode, in front of one database of the
    server ``server_host:server_port`` (trust authentication: the machine's server). Its files
    are in a temporary folder of its own (removed by ``stop``): PgBouncer refuses to run as root,
    so then it runs as ``postgres`` (or ``nobody``), which must reach them."""

    def __init__(self, *, server_host: str, server_port: int, dbname: str, pool_size: int = 5):
        import pwd
        import shutil
        import tempfile

        binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
        if not os.path.exists(binary):
            raise FileNotFoundError("pgbouncer is not installed (apt-get install pgbouncer)")
        folder = Path(tempfile.mkdtemp(prefix="rivals-pgbouncer-"))
        folder.chmod(0o755)
        self.folder, self.dbname, self.port = folder, dbname, free_port()
        (folder / "users.txt").write_text('"postgres" ""\n')
        self.log = folder / "pgbouncer.log"
        ini = render(
            TOPOLOGY / "pgbouncer.ini",
            folder / "pgbouncer.ini",
            DB_NAME=dbname,
            DB_HOST=server_host,
            DB_PORT=server_port,
            LISTEN_ADDR="127.0.0.1",
            LISTEN_PORT=self.port,
            LOG_FILE=self.log,
            PID_FILE=folder / "pgbouncer.pid",
            AUTH_TYPE="trust",
            AUTH_FILE=folder / "users.txt",
            ADMIN_USER="postgres",
            POOL_SIZE=pool_size,
            RESERVE_POOL_SIZE=0,
            MAX_CLIENT_CONN=1000,
        )
        args = [binary]
        if os.geteuid() == 0:
            user = next((u for u in ("postgres", "nobody") if _user_exists(u)), None)
            entry = pwd.getpwnam(user)
            for path in (folder, *folder.iterdir()):
                os.chown(path, entry.pw_uid, entry.pw_gid)
            args += ["-u", user]
        self.proc = subprocess.Popen(
            [*args, str(ini)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
        )
        _wait_port(self.port, self.proc, "pgbouncer", self.log)

    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.dbname}"

    def admin(self, command: str) -> list[dict]:
        """A command of the admin console (``SHOW POOLS``, ``SHOW STATS``): its rows as dicts.
        The console speaks the simple query protocol only: a client-side-binding cursor."""
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=pgbouncer",
            autocommit=True,
            cursor_factory=psycopg.ClientCursor,
        ) as conn:
            cur = conn.execute(command)
            names = [c.name for c in cur.description]
            return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def stop(self) -> None:
        import shutil

        stop(self.proc)
        shutil.rmtree(self.folder, ignore_errors=True)


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


class HAProxy:
    """Debian's HAProxy of the caller's own (deploy/topology/haproxy.cfg rendered into ``folder``)
    on a free port: ``web`` and ``live`` are the nodes' (name, port) pairs; health checks on
    ``/healthz`` every second; its stats socket answers ``servers()``."""

    def __init__(self, folder: Path, *, web: list[tuple[str, int]], live: list[tuple[str, int]]):
        import shutil

        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not os.path.exists(binary):
            raise FileNotFoundError("haproxy is not installed (apt-get install haproxy)")
        folder.mkdir(parents=True, exist_ok=True)
        self.port, self.socket, self.log = free_port(), folder / "haproxy.sock", folder / "haproxy.log"
        cfg = render(
            TOPOLOGY / "haproxy.cfg",
            folder / "haproxy.cfg",
            GLOBAL_EXTRA=f"    stats socket {self.socket} mode 600 level admin",
            BIND=f"127.0.0.1:{self.port}",
            NODE_MAXCONN=64,
            WEB_SERVERS="\n".join(f"    server {n} 127.0.0.1:{p} check" for n, p in web),
            LIVE_SERVERS="\n".join(f"    server {n} 127.0.0.1:{p} check" for n, p in live),
        )
        self.proc = subprocess.Popen(
            [binary, "-db", "-f", str(cfg)],
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        _wait_port(self.port, self.proc, "haproxy", self.log)

    def command(self, line: str) -> str:
        """One command of the stats socket (``disable server web/node2``, ``show stat``)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(str(self.socket))
            s.sendall(line.encode() + b"\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return data.decode()

    def servers(self) -> dict[str, str]:
        """``backend/server`` → its state as the balancer sees it (UP, DOWN, …)."""
        lines = self.command("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(header, line.split(","), strict=False))
            if row.get("svname") not in ("FRONTEND", "BACKEND", None):
                out[f"{row['pxname']}/{row['svname']}"] = row.get("status", "?")
        return out

    def stop(self) -> None:
        stop(self.proc)
