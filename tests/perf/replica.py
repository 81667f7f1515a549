"""PostgreSQL servers of the caller's own for replication: a primary, and a streaming replica of it
made the way a real host makes one (``pg_basebackup -R``: a copy of the primary's data folder,
``standby.signal`` and ``primary_conninfo`` written for it, a physical replication slot on the
primary so that WAL waits for a replica that is stopped or slow).

pgserver's bundled binaries (initdb, pg_ctl, pg_basebackup, postgres), a folder per server (its
data folder ``data/``, its log and its Unix socket); a TCP port on 127.0.0.1 only when one is asked for
(a pooler or another host's client). Never the machine's shared servers. Used by the suite's
replica tests (tests/platform/test_replica.py) and meant for the topology script::

    primary = Postgres.primary(folder / "primary", port=free_port())  # port: optional
    primary.create_database("rivals")            # then migrate through DATABASE_URL=primary.url("rivals")
    replica = primary.replica(folder / "replica", port=free_port())
    env["DATABASE_REPLICA_URL"] = replica.url("rivals")
    ...
    replica.pause_replay() / replica.resume_replay() / replica.stop() / replica.start()
    replica.remove(); primary.remove()

Running as root (CI, containers), the servers run as pgserver's system user ``pgserver``, as the
embedded server does.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import time
from pathlib import Path

import psycopg

# Settings of the caller's own servers. ``fsync = off``: a server of a test or a benchmark run is
# thrown away, never recovered after a crash of the machine; everything else is PostgreSQL's
# default behaviour (``synchronous_commit = on``: rivals.replica's read-your-writes relies on it).
PRIMARY_SETTINGS = {
    "wal_level": "replica",
    "max_wal_senders": "8",
    "max_replication_slots": "8",
    "hot_standby": "on",
    "fsync": "off",
    "max_connections": "200",
}


def _bin(name: str) -> str:
    from config.embedded import import_pgserver

    return str(Path(import_pgserver().__file__).parent / "pginstall" / "bin" / name)


def _system_user() -> str | None:
    """The user the servers run as: ``pgserver`` when we are root (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return None
    from pgserver.utils import ensure_user_exists

    ensure_user_exists("pgserver")
    return "pgserver"


def _conf_lines(settings: dict[str, str]) -> str:
    return "".join(f"{name} = '{value}'\n" for name, value in settings.items())


class Postgres:
    """One server of the caller's own (a primary or a replica): its folder, socket and port."""

    def __init__(self, folder: Path, *, port: int | None = None):
        self.folder = Path(folder)
        self.pgdata = self.folder / "data"
        self.port = port or 5432  # without a TCP listener the number only names the socket file
        self.tcp = port is not None
        self.user = _system_user()
        self.slot: str | None = None  # a replica's slot on its primary

    # --- making servers ---------------------------------------------------------------------

    @classmethod
    def primary(cls, folder: Path, *, port: int | None = None, settings: dict[str, str] | None = None) -> Postgres:
        """initdb (trust authentication, local and 127.0.0.1 replication allowed: initdb's
        defaults) and start."""
        server = cls(folder, port=port)
        server._own_folder()
        server._run(
            [_bin("initdb"), "-D", str(server.pgdata), "-U", "postgres", "--auth=trust", "--encoding=utf8", "--no-sync"]
        )
        server._append_conf({**PRIMARY_SETTINGS, **(settings or {}), **server._where()})
        server.start()
        return server

    def replica(self, folder: Path, *, port: int | None = None, slot: str | None = None) -> Postgres:
        """A streaming replica of this server: ``pg_basebackup -R`` (WAL streamed during the copy,
        a replication slot created for it), its own socket and port, then started; returns once
        it accepts connections (as a hot standby)."""
        server = Postgres(folder, port=port)
        server._own_folder()
        slot = slot or f"replica_{server.folder.name}".replace("-", "_").lower()
        server._run(
            [
                _bin("pg_basebackup"),
                "-D",
                str(server.pgdata),
                "-d",
                self.conninfo(),
                "-R",  # standby.signal + primary_conninfo in postgresql.auto.conf
                "-X",
                "stream",
                "-C",
                "-S",
                slot,
                "--no-sync",
                "-c",
                "fast",
            ]
        )
        server._append_conf(server._where())  # the copy's postgresql.conf names the primary's socket
        server.start()
        server.slot = slot
        return server

    def _own_folder(self) -> None:
        """The server's folder, its user's: the data folder (made by initdb or pg_basebackup),
        the socket and the log go in it."""
        self.folder.mkdir(parents=True, exist_ok=False, mode=0o700)
        if self.user:
            from pgserver.utils import ensure_prefix_permissions

            ensure_prefix_permissions(self.folder)
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)

    def _where(self) -> dict[str, str]:
        return {
            "port": str(self.port),
            "listen_addresses": "127.0.0.1" if self.tcp else "",
            "unix_socket_directories": str(self.folder),
        }

    def _append_conf(self, settings: dict[str, str]) -> None:
        with (self.pgdata / "postgresql.conf").open("a") as conf:  # later lines win
            conf.write("\n# tests/perf/replica.py\n" + _conf_lines(settings))

    def _run(self, args: list[str], timeout: float = 60) -> str:
        done = subprocess.run(args, user=self.user, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{Path(args[0]).name} failed ({done.returncode}): {done.stderr or done.stdout}")
        return done.stdout

    # --- running ----------------------------------------------------------------------------

    def start(self) -> None:
        self._run(
            [_bin("pg_ctl"), "-D", str(self.pgdata), "-l", str(self.folder / "server.log"), "-w", "-t", "60", "start"]
        )

    def stop(self, mode: str = "fast") -> None:
        """``fast`` (clients disconnected, clean shutdown) or ``immediate`` (a crash: every
        process quits at once, the next start recovers)."""
        if self.running():
            self._run([_bin("pg_ctl"), "-D", str(self.pgdata), "-w", "-t", "60", "-m", mode, "stop"])

    def running(self) -> bool:
        try:
            pid = int((self.pgdata / "postmaster.pid").read_text().split()[0])
            os.kill(pid, 0)
        except (OSError, ValueError, IndexError):
            return False
        return True

    def remove(self) -> None:
        """Stop (immediately: nothing of it is kept) and delete the data folder."""
        with contextlib.suppress(Exception):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    # --- talking to it ----------------------------------------------------------------------

    def conninfo(self, database: str = "postgres") -> str:
        return f"host={self.folder} port={self.port} user=postgres dbname={database}"

    def url(self, database: str = "postgres") -> str:
        """A DATABASE_URL: over TCP when the server listens on a port, else on its socket."""
        if self.tcp:
            return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    def query(self, sql: str, params=(), database: str = "postgres") -> list[tuple]:
        with psycopg.connect(self.conninfo(database), autocommit=True) as conn:
            cur = conn.execute(sql, params)
            return cur.fetchall() if cur.description else []

    def create_database(self, name: str) -> None:
        self.query(f'CREATE DATABASE "{name}"')

    # --- a replica's replay -----------------------------------------------------------------

    def pause_replay(self, timeout: float = 10) -> None:
        """Stop applying WAL (it is still received): the replica's data stays as it is now."""
        self.query("SELECT pg_wal_replay_pause()")
        deadline = time.monotonic() + timeout
        while self.query("SELECT pg_get_wal_replay_pause_state()")[0][0] != "paused":
            if time.monotonic() > deadline:
                raise RuntimeError("the replica's replay did not pause")
            time.sleep(0.02)

    def resume_replay(self) -> None:
        self.query("SELECT pg_wal_replay_resume()")

    def wait_caught_up(self, primary: Postgres, timeout: float = 30) -> None:
        """Until this replica has applied everything the primary has written so far."""
        target = primary.query("SELECT pg_current_wal_lsn()")[0][0]
        deadline = time.monotonic() + timeout
        while not self.query("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target])[0][0]:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the replica did not reach {target}")
            time.sleep(0.02)
