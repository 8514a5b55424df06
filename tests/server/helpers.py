"""Test helpers for the server: a deterministic socket client, a live uvicorn server (in a thread or a
subprocess), and the secret check applied to every message a seat received."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from deltav.core.protocol import get_game
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import Session
from tests.secret_check import leaks, secret_history

ROOT = Path(__file__).resolve().parents[2]


def choose(seed: int, seat: int, step: int, legal: list) -> dict:
    """The client's choice: a pure function of (seed, seat, step, legal list), so a client that lost a reply
    in a crash chooses the same again and a match's record is the same however often it was interrupted."""
    return Rng(derive_seed(seed, "client", seat, step)).choice(legal)["action"]


def reference_record(gid: str, options: dict, seed: int, labels: list[str], client_seed: int,
                     max_steps: int | None = None, names: list[str] | None = None) -> dict:
    """The record of the same match played without any server (the uninterrupted reference); with
    ``max_steps``, only its first steps (at least that many, unless the match ends sooner). ``names``: the
    seats' names the server gave (its records keep them in ``meta.names``; default "Player 1", "Player 2")."""
    s = Session(get_game(gid), options, seed, labels, names or [f"Player {i + 1}" for i in range(len(labels))])
    while not s.is_over() and (max_steps is None or len(s.record.steps) < max_steps):
        for p in s.deciding():
            env = s.snapshot(p)
            s.submit(p, choose(client_seed, p, env["step"], env["legal"]), expected_step=env["step"])
    return s.record.to_json()


def http(base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def split_token(path: str) -> tuple[str, str | None]:
    """``/ws/CODE?token=T&candidates=...`` as tests write a seat's socket: the address without the token, and the
    token (which a client sends in its first message, never in the address)."""
    url = urllib.parse.urlsplit(path)
    query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
    token = query.pop("token", [None])[0]
    rest = urllib.parse.urlencode({k: v[0] for k, v in query.items()})
    return urllib.parse.urlunsplit((url.scheme, url.netloc, url.path, rest, "")), token


@contextlib.contextmanager
def room_socket(c, path: str):
    """A room's socket on Starlette's test client ``c``, opened as every client does: the address without the
    token, then ``{"type": "hello", "token": ...}`` (``?token=`` in ``path`` names the seat; none: a spectator)."""
    address, token = split_token(path)
    with c.websocket_connect(address) as ws:
        ws.send_json({"type": "hello", "token": token})
        yield ws


@contextlib.asynccontextmanager
async def hello_connect(url: str, **kwargs):
    """``websockets.connect`` to a room's socket, then its hello (the token of ``?token=`` in ``url``)."""
    ws = await hello_open(url, **kwargs)
    try:
        yield ws
    finally:
        await ws.close()


async def hello_open(url: str, **kwargs):
    """:func:`hello_connect` without the context: the open socket, hello sent (a socket the server refuses at
    once, before any hello, keeps its refusal to read)."""
    import websockets

    address, token = split_token(url)
    ws = await websockets.connect(address, **kwargs)
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def hello_connect_sync(url: str, **kwargs):
    """``websockets.sync.client.connect`` to a room's socket, hello sent (the token of ``?token=`` in ``url``)."""
    from websockets.sync.client import connect

    address, token = split_token(url)
    # entered as its context manager (websockets 17.1 warns on a bare connect()); the caller closes it
    ws = connect(address, **kwargs).__enter__()
    with contextlib.suppress(Exception):  # a socket refused at once keeps its refusal to read
        ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


@dataclass
class Seen:
    """Every message one viewer received, with the match step it was sent at (for the secret check)."""

    seat: int | None
    messages: list[tuple[int, dict]] = field(default_factory=list)
    last: dict | None = None


async def play_seat(ws_url: str, token: str | None, seat: int | None, client_seed: int, seen: Seen,
                    stop_at_step: int | None = None, timeout: float = 60.0) -> str:
    """Connect and play (seat) or watch (seat None) until the match is over ("over"), or until the match
    reached ``stop_at_step`` ("stopped"; the socket is dropped), or the server went away ("lost")."""
    import websockets

    submitted: set[int] = set()
    try:
        async with websockets.connect(ws_url, max_size=2**24, open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                raw = await asyncio.wait_for(ws.recv(), timeout)
                msg = json.loads(raw)
                step = seen.last["snapshot"]["step"] if seen.last else 0
                if msg["type"] == "state":
                    seen.last = msg
                    step = msg["snapshot"]["step"]
                seen.messages.append((step, msg))
                if msg["type"] == "error" and msg["code"] not in ("stale_step", "already_decided"):
                    raise AssertionError(f"seat {seat}: unexpected error {msg}")
                if msg["type"] != "state":
                    continue
                snap = msg["snapshot"]
                if snap["status"] == "over" or msg["room"]["status"] == "finished":
                    return "over"
                if stop_at_step is not None and snap["step"] >= stop_at_step:
                    return "stopped"
                if seat is not None and snap["to_act"] and snap["step"] not in submitted:
                    submitted.add(snap["step"])
                    action = choose(client_seed, seat, snap["step"], snap["legal"])
                    await ws.send(json.dumps({"type": "submit", "action": action, "step": snap["step"]}))
    except (OSError, websockets.ConnectionClosed):
        return "lost"


def received_log(states: list[dict]) -> list[dict]:
    """The log a client keeps from one socket's state messages, in order (as ``deltav.client.seat`` and the
    browser's connection keep it): a snapshot that carries its log replaces the entries from its first step on;
    any other message's new entries (``events``) are appended. Nothing is de-duplicated."""
    got: list[dict] = []
    for m in states:
        log = m["snapshot"].get("log")
        if log is None:
            got += m["events"]
        else:
            got = [e for e in got if log and e["step"] < log[0]["step"]] + log
    return got


def visible_events(record: dict, viewer: int | None) -> list[tuple[int, dict]]:
    """(step, event) of every event of a record ``viewer`` (a seat, None: a spectator) may see, in order."""
    return [(i, e) for i, st in enumerate(record["steps"]) for e in st["events"]
            if e.get("to") is None or (viewer is not None and viewer in e["to"])]


def secret_leaks(record: dict, seen: list[Seen]) -> list[str]:
    """Every message each viewer got, checked against its secret tokens (see tests/secret_check.py)."""
    history = secret_history(record, {v.seat for v in seen})
    return [f"viewer {v.seat}: {x}" for v in seen for step, msg in v.messages for x in leaks(msg, step, v.seat, history)]


class ThreadServer:
    """A real uvicorn server on 127.0.0.1 (port 0) in a thread of the test process."""

    def __init__(self, db_url: str, settings):
        from deltav.server.run import bind, make_server

        self.sock = bind("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.server = make_server(self.sock, db_url, settings)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        wait_healthy(self.base)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def wait_healthy(base: str, timeout: float = 120.0) -> None:  # generous: a machine shared by many jobs is slow
    t0 = time.time()
    while time.time() - t0 < timeout:
        with contextlib.suppress(OSError):
            code, _ = http(base, "GET", "/healthz")
            if code == 200:
                return
        time.sleep(0.05)
    raise TimeoutError(f"{base} never became healthy")


class ProcessServer:
    """``deltav serve`` as a real subprocess (so it can be killed with SIGKILL)."""

    def __init__(self, db_url: str, *args: str, src: str | Path | None = None):
        env = {**os.environ, "PYTHONPATH": str(src or ROOT / "src")}
        fd, self.log_path = tempfile.mkstemp(prefix="deltav-serve-", suffix=".log")
        os.close(fd)
        self.log = open(self.log_path, "w")  # noqa: SIM115 - a file (not a pipe nobody reads: it would block the server), open while it runs
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "deltav.cli", "serve", "--port", "0", "--db", db_url, *args],
            stdout=self.log, stderr=subprocess.STDOUT, text=True, env=env, cwd=str(ROOT))
        line = ""
        t0 = time.time()
        while "http://" not in line:
            if self.proc.poll() is not None or time.time() - t0 > 120:
                raise RuntimeError(f"server did not start: {Path(self.log_path).read_text()}")
            time.sleep(0.05)
            line = Path(self.log_path).read_text().split("\n")[0]
        self.base = line.split()[3].rstrip("/")
        self.ws = self.base.replace("http://", "ws://")
        wait_healthy(self.base)

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()

    def output(self) -> str:
        return Path(self.log_path).read_text()


def record_difference(got: dict, want: dict) -> str | None:
    """None when two records are equal, else a short description (pytest's own diff of two large records is
    unreadable and slow)."""
    if got == want:
        return None
    for key in sorted(set(got) | set(want)):
        if key != "steps" and got.get(key) != want.get(key):
            return f"field {key!r}: {json.dumps(got.get(key))[:200]} != {json.dumps(want.get(key))[:200]}"
    a, b = got.get("steps", []), want.get("steps", [])
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"step {i}: {json.dumps(x)[:300]} != {json.dumps(y)[:300]}"
    return f"{len(a)} steps != {len(b)} steps"
