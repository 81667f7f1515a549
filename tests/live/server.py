"""A real ASGI server for the live tests: uvicorn serving ``config.asgi`` in a process group of
its own, on the test database, stopped (SIGTERM, then SIGKILL) by whoever started it; and a real
WebSocket client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests
from websockets.sync.client import connect

from config.serving import uvicorn_ws_options

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(
        self,
        *,
        database_url: str,
        folder: Path,
        workers: int = 1,
        ws_max_size: bool = True,
        ws_ping_interval: float | None = None,
        **env: str,
    ):
        """``ws_max_size``: started as ``make run`` starts it (``config.serving``); False: with
        uvicorn's own limit (16 MiB), so that the consumer alone refuses big messages.
        ``ws_ping_interval``: uvicorn's keepalive ping every so many seconds (its default 20, and
        20 more for the pong: a client that reads nothing for 40 s is closed with 1011)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/api/v1/live"
        self.log = folder / f"uvicorn-{self.port}.log"
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "RIVALS_DATA_DIR": str(folder),
            "RIVALS_ROUND_LAYOUTS": "L08",
            "RIVALS_LIVE_POLL_MS": "5",
            **env,
        }
        self.env.pop("CELERY_TASK_ALWAYS_EAGER", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(self.port)]
            + ["--workers", str(workers), *(uvicorn_ws_options() if ws_max_size else ["--ws", "websockets-sansio"])]
            + ["--timeout-graceful-shutdown", "5"]
            + ([] if ws_ping_interval is None else ["--ws-ping-interval", str(ws_ping_interval)]),
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(self.url + "/healthz", timeout=2).status_code < 600:
                    break
            except requests.RequestException:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("uvicorn did not start: " + self.log.read_text(errors="replace")[-3000:])
            time.sleep(0.2)

    def logs(self) -> str:
        return self.log.read_text(errors="replace")[-5000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


class Client:
    """A player of the live server over HTTP (its token) and WebSocket."""

    def __init__(self, server: LiveServer, label: str):
        from tests.factories import device_id_for

        self.server = server
        res = requests.post(server.url + "/api/v1/auth/guest", json={"device_id": device_id_for(label)}, timeout=10)
        assert res.status_code in (200, 201), res.text
        self.account_id = res.json()["account_id"]
        self.headers = {"Authorization": f"Token {res.json()['token']}"}

    def get(self, path: str):
        return requests.get(self.server.url + "/api/v1" + path, headers=self.headers, timeout=10)

    def post(self, path: str, body: dict | None = None):
        return requests.post(self.server.url + "/api/v1" + path, json=body, headers=self.headers, timeout=10)

    def ticket(self) -> str:
        res = self.post("/live/ticket")
        assert res.status_code == 201, res.text
        return res.json()["ticket"]

    def socket(self, **kwargs):
        return connect(f"{self.server.ws}?ticket={self.ticket()}", **kwargs)


def send(ws, **message) -> None:
    ws.send(json.dumps(message))


def recv(ws, timeout: float = 10) -> dict:
    return json.loads(ws.recv(timeout=timeout))


def until(ws, predicate, timeout: float = 30) -> list[dict]:
    """Messages received until one satisfies ``predicate`` (included)."""
    got, deadline = [], time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"not received within {timeout} s; got {got[-5:]}"
        got.append(recv(ws, timeout=left))
        if predicate(got[-1]):
            return got


def closed_with(ws, payload) -> int | None:
    """Send ``payload`` and read until the server closes: the close code it sent (None: no close
    frame)."""
    from websockets.exceptions import ConnectionClosed

    try:
        ws.send(payload)
        while True:
            ws.recv(timeout=30)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def quiet(ws, seconds: float = 0.5) -> list[dict]:
    """Whatever arrives within ``seconds`` (nothing, usually)."""
    got = []
    while True:
        try:
            got.append(json.loads(ws.recv(timeout=seconds)))
        except TimeoutError:
            return got


class RawSocket:
    """A WebSocket client that reads only when asked (a slow client): the handshake and frames by
    hand over a socket with a small receive window, so that what the server writes waits in the
    server's buffers."""

    def __init__(self, url: str, port: int):
        import base64
        import secrets

        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        path = url.split(str(port), 1)[1]
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(1)
        assert self.buffer.startswith(b"HTTP/1.1 101"), self.buffer
        self.buffer = b""

    def send(self, **message) -> None:
        import secrets

        payload = json.dumps(message).encode()
        assert len(payload) < 126
        mask = secrets.token_bytes(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def frame(self) -> tuple[int, bytes]:
        head = self._read(2)
        length = head[1] & 0x7F
        if length == 126:
            length = int.from_bytes(self._read(2), "big")
        elif length == 127:
            length = int.from_bytes(self._read(8), "big")
        return head[0] & 0x0F, self._read(length)

    def messages(self, timeout: float = 10) -> tuple[list[dict], int | None]:
        """Everything until the close frame: (messages, close code)."""
        self.sock.settimeout(timeout)
        got = []
        while True:
            opcode, payload = self.frame()
            if opcode == 0x8:
                return got, int.from_bytes(payload[:2], "big") if payload else None
            if opcode == 0x1:
                got.append(json.loads(payload))

    def close(self) -> None:
        self.sock.close()
