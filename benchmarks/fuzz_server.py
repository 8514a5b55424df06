"""Fuzz the server: every HTTP route and every WebSocket message type, with malformed input, against a real
``deltav serve`` on loopback (run on demand through ``benchmarks/fuzz.py --server``; a short run is the test
``tests/server/test_fuzz_server.py``).

It starts ``deltav serve`` (port 0, a scratch SQLite file, one bot worker), makes rooms of every game (two people
playing each other, a person against a bot, a spectator), then throws at it, in a seeded order:

- **HTTP**: every route (the pages, assets, ``/healthz``, ``/readyz``, ``/metrics``, ``/games``, the boards,
  room lists, ``POST /rooms``, a room, ``join``, ``record``, ``replay``, ``review``, the quick-match queue, the
  leaderboard, ``/mcp/``) with mutated
  path parameters (junk, huge, percent-encoded, unicode), query parameters (odd, huge and repeated values), and
  bodies: valid bodies with a field dropped, retyped or replaced by odd values, and hostile texts (deep nesting,
  5,000-digit integers, NaN, lone surrogates, bytes that are not UTF-8, not JSON, too large), and other methods;
- **WebSocket**: every message type (``submit``, ``chat``, ``sync``, ``ping``, ``rematch``, ``suggest``,
  ``resign``, ``claim`` and unknown ones) from seats and spectators: valid messages mutated (a field dropped,
  retyped, replaced by odd, huge or deep values, the action mutated), hostile texts as above, binary frames,
  messages over the size limits, odd connection parameters (tokens, the old ``candidates`` query). The seats also play legal
  moves between probes, so the probes meet every phase of the matches; a finished match is rematched.

What counts as a crash: ``http_5xx`` (any 5xx answer, except 503 from ``/healthz``, ``/readyz`` and
``/metrics``, which mean "not ready"), ``http_no_answer`` (a connection closed without an answer),
``ws_dropped`` (a socket closed without a close code, or with 1006 or 1011), ``ws_silent`` (a ``ping`` that got
no answer in time: the socket hangs), ``traceback`` (a traceback in the server's log). Each kind prints its first
example (what was sent). A run that counts 0 of every kind is what ``tests/server/test_fuzz_server.py`` asks.

Usage::

    PYTHONPATH=src python benchmarks/fuzz.py --server --seconds 120
    PYTHONPATH=src python benchmarks/fuzz.py --server --probes 3000 --seed 2

This module owns the server fuzzer only; the engine fuzzer is ``benchmarks/fuzz.py``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.fuzz import _ODD_NUMBERS, _ODD_STRINGS, mutate_action_json, random_json

from deltav.core.rng import Rng

ROOT = Path(__file__).resolve().parents[1]
CRASHES = ("http_5xx", "http_no_answer", "ws_dropped", "ws_silent", "traceback")
#: close codes the server sends on purpose (docs/server.md); anything else, or none, is a dropped socket
CLOSE_CODES = {1000, 1001, 1009, 1012, 4000, 4001, 4003, 4004, 4008, 4010, 4029}
GAMES = {"tactical": {"scenario": "duel"}, "mining": {"scenario": "standard"},
         "deepspace": {"scenario": "design-duel"}, "knighthawks": {"scenario": "skirmish"}}
MESSAGE_TYPES = ("submit", "chat", "sync", "ping", "rematch", "suggest", "resign", "claim", "hello")
READINESS = ("/healthz", "/readyz", "/metrics")
#: routes whose 503 is an answer, not a failure: the readiness probes, and a review while the server's reviews are
#: all busy (``review_busy``: docs/server.md)
BUSY_IS_AN_ANSWER = (*READINESS, "/rooms/{code}/review")
BIG_DIGITS = "9" * 5000
PONG_WAIT = 60.0  # seconds a ping may wait for its pong on a loaded machine


@dataclass
class ServerReport:
    probes: Counter = field(default_factory=Counter)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CRASHES, 0))
    first: dict[str, str] = field(default_factory=dict)
    statuses: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    def crash(self, kind: str, example: str) -> None:
        self.counts[kind] += 1
        self.first.setdefault(kind, example[:600])

    @property
    def total(self) -> int:
        return sum(self.probes.values())

    def summary(self) -> str:
        http_n = sum(v for k, v in self.probes.items() if k.startswith("http "))
        lines = [f"server: {self.total} probes ({http_n} HTTP, {self.total - http_n} WebSocket) in "
                 f"{self.seconds:.0f} s",
                 "  probes: " + ", ".join(f"{k} {v}" for k, v in sorted(self.probes.items())),
                 "  HTTP answers: " + ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items())),
                 "  WebSocket refusals: " + ", ".join(f"{k} {v}" for k, v in self.codes.most_common())]
        for kind in CRASHES:
            lines.append(f"  {kind:<16} {self.counts[kind]:>6}")
            if kind in self.first:
                lines.append(f"      first: {self.first[kind]}")
        return "\n".join(lines)


class Server:
    """``deltav serve`` as a subprocess on a free port, its output in a log file."""

    def __init__(self, src: str | Path | None = None, args: tuple[str, ...] = ()):
        self.dir = tempfile.mkdtemp(prefix="deltav-fuzz-")
        self.log_path = Path(self.dir) / "server.log"
        env = {**os.environ, "PYTHONPATH": str(src or ROOT / "src")}
        self.log = open(self.log_path, "w")  # noqa: SIM115 - open while the server runs
        db = f"sqlite+aiosqlite:///{Path(self.dir) / 'fuzz.db'}"
        helptext = subprocess.run([sys.executable, "-m", "deltav.cli", "serve", "--help"], capture_output=True,
                                  text=True, env=env, cwd=str(ROOT), timeout=180).stdout
        # one client on one address: without the per-address limits (where the server has them) the fuzzer's
        # probes reach the rooms instead of being turned away
        extra = ["--no-client-limits"] if "--no-client-limits" in helptext else []
        self.proc = subprocess.Popen([sys.executable, "-m", "deltav.cli", "serve", "--port", "0", "--db", db,
                                      "--bot-workers", "1", "--grace", "0", *extra, *args],
                                     stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=str(ROOT))
        t0 = time.time()
        line = ""
        while "http://" not in line:
            if self.proc.poll() is not None or time.time() - t0 > 180:
                raise RuntimeError(f"the server did not start: {self.log_path.read_text()}")
            time.sleep(0.05)
            line = self.log_path.read_text().split("\n")[0]
        url = line.split()[3].rstrip("/")
        self.host, port = url.removeprefix("http://").split(":")
        self.port = int(port)
        self.ws = f"ws://{self.host}:{self.port}"
        while time.time() - t0 < 180:
            with contextlib.suppress(OSError):
                if request(self, "GET", "/healthz")[0] == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server never became healthy")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


#: seconds an HTTP answer may take, from the request to its last byte (a stream that never ends is a hang)
ANSWER_WAIT = 60.0


def request(srv: Server, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One HTTP request; raises OSError / http.client errors when the server gives no complete answer within
    :data:`ANSWER_WAIT` seconds."""
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=ANSWER_WAIT)
    try:
        t0 = time.monotonic()
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        data = bytearray()
        while chunk := r.read1(65536):
            data += chunk
            if time.monotonic() - t0 > ANSWER_WAIT:
                raise TimeoutError(f"the answer ({r.status}, {r.getheader('content-type')}) did not end within "
                                   f"{ANSWER_WAIT:g} s")
        return r.status, bytes(data)
    finally:
        conn.close()


def _json(srv: Server, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    status, data = request(srv, method, path, json.dumps(body).encode() if body is not None else None,
                           {"content-type": "application/json"})
    try:
        return status, json.loads(data)
    except ValueError:
        return status, None


# --- hostile values and texts --------------------------------------------------------------------------------

def hostile_texts(rng: Rng, template: dict) -> list[str]:
    """JSON texts no reader should choke on, built around a valid message or body."""
    t = json.dumps(template)
    key = rng.choice(sorted(template)) if template else "x"
    return [
        "", "{", "[]", "null", "42", '"text"', "{not json}", "\x00\x01",
        t[: max(1, len(t) // 2)],
        t.replace("}", ', "deep": ' + "[" * 8000 + "]" * 8000 + "}", 1),
        t.replace("}", ', "deep": ' + '{"a":' * 3000 + "1" + "}" * 3000 + "}", 1),
        t.replace("}", f', "{key}": {BIG_DIGITS}}}', 1) if key != "type" else t,
        t.replace("}", f', "{key}": -{BIG_DIGITS}}}', 1),
        t.replace("}", f', "{key}": 1e99999}}', 1),
        t.replace("}", f', "{key}": NaN}}', 1),
        t.replace("}", f', "{key}": "\\ud800"}}', 1),
        t.replace("}", ', "\\udfff": 1}', 1),
        t.replace("}", f', "{key}": "{"z" * 20000}"}}', 1),
        t.replace("}", f', "{key}": [{",".join(["1"] * 3000)}]}}', 1),
        t + t,
        t.replace('"', "'"),
    ]


def mutated(rng: Rng, template: dict, tokens: list[str]) -> Any:
    """``template`` with one field dropped, retyped or replaced by an odd value (or mutated twice)."""
    out = mutate_action_json(dict(template), rng, tokens)
    if rng.below(3) == 0 and isinstance(out, dict):
        out = mutate_action_json(out, rng, tokens)
    return out


def encode(value: Any) -> str:
    """JSON text of a generated value (huge integers and NaN included, as Python writes them)."""
    try:
        return json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        return json.dumps(str(type(value)))


def odd_path_part(rng: Rng, valid: str) -> str:
    return rng.choice([valid, valid.lower(), "", "A", "ZZZZZ", "IOQUV", "x" * 5000, "%00", "%ff%fe", "..",
                       "%2e%2e%2fadmin", urllib.parse.quote("é✓"), urllib.parse.quote("\ud800", errors="surrogatepass"),
                       urllib.parse.quote(BIG_DIGITS[:200]), "AAAAA?x=1", valid + "/extra"])


def odd_query_value(rng: Rng) -> str:
    v = rng.choice([*_ODD_STRINGS, *map(str, _ODD_NUMBERS[:12]), BIG_DIGITS, "-" + BIG_DIGITS, "1_0", " 1", "0x10",
                    "9223372036854775808", "%", "%ff", "a" * 5000, "\ud800", "true", "[1]", "{}"])
    return urllib.parse.quote(v, safe="", errors="surrogatepass")


# --- the fuzzer -----------------------------------------------------------------------------------------------

@dataclass
class Seat:
    code: str
    token: str | None
    seat: int | None
    game: str
    ws: Any = None
    last: dict | None = None
    pending: int = 0


class ServerFuzzer:
    def __init__(self, seed: int = 1, probes: int | None = None, seconds: float | None = None,
                 src: str | Path | None = None, server_args: tuple[str, ...] = ()):
        self.rng = Rng(seed)
        self.probes = probes
        self.seconds = seconds if seconds is not None or probes is not None else 30.0
        self.src = src
        self.server_args = server_args
        self.report = ServerReport()
        self.srv: Server | None = None
        self.rooms: list[dict] = []
        self.seats: list[Seat] = []
        self.tokens: list[str] = []
        self.ids = 0
        self.t0 = 0.0

    # --- running ------------------------------------------------------------------------------------------
    def run(self) -> ServerReport:
        self.t0 = time.time()
        self.srv = Server(self.src, self.server_args)
        try:
            self._setup()
            asyncio.run(self._main())
        finally:
            self.srv.stop()
            self.report.seconds = time.time() - self.t0
        log = self.srv.output()
        n = log.count("Traceback (most recent call last)")
        if n:
            self.report.counts["traceback"] += n
            at = log.index("Traceback (most recent call last)")
            self.report.first.setdefault("traceback", log[max(0, at - 300): at + 1500])
        return self.report

    def _done(self) -> bool:
        if self.probes is not None and self.report.total >= self.probes:
            return True
        return self.seconds is not None and time.time() - self.t0 > self.seconds

    def _setup(self) -> None:
        srv = self.srv
        assert srv is not None
        for gid, options in GAMES.items():
            status, made = _json(srv, "POST", "/rooms", {"game": gid, "options": options, "seats": ["human", "human"],
                                                       "name": "ann"})
            assert status == 201, (status, made)
            status, joined = _json(srv, "POST", f"/rooms/{made['code']}/join", {"name": "ben"})
            assert status == 200, (status, joined)
            status, vsbot = _json(srv, "POST", "/rooms", {"game": gid, "options": options,
                                                        "seats": ["human", "bot:random"]})
            assert status == 201, (status, vsbot)
            self.rooms += [made, vsbot]
            self.tokens += [made["token"], joined["token"], vsbot["token"]]
            self.seats += [Seat(made["code"], made["token"], 0, gid), Seat(made["code"], joined["token"], 1, gid),
                           Seat(vsbot["code"], vsbot["token"], 0, gid), Seat(made["code"], None, None, gid)]

    async def _main(self) -> None:
        import websockets

        for s in self.seats:
            await self._connect(s)
        while not self._done():
            if self.rng.below(3) == 0:
                await asyncio.to_thread(self._http_probe)
            else:
                await self._ws_probe(self.rng.choice(self.seats))
        for s in self.seats:
            if s.ws is not None:
                with contextlib.suppress(websockets.ConnectionClosed, OSError):
                    await s.ws.close()

    # --- HTTP ---------------------------------------------------------------------------------------------
    def _http_probe(self) -> None:
        rng = self.rng
        room = rng.choice(self.rooms)
        code = room["code"]
        gid = rng.choice(sorted(GAMES))
        routes = [
            ("GET", "/"), ("GET", "/play/{code}"), ("GET", "/watch/{code}"), ("GET", "/replay/{code}"),
            ("GET", "/board"), ("GET", "/app.js"), ("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics"),
            ("GET", "/games"), ("GET", "/games/{game}/board"), ("GET", "/rooms"), ("POST", "/rooms"),
            ("GET", "/rooms/{code}"), ("POST", "/rooms/{code}/join"), ("GET", "/rooms/{code}/record"),
            ("GET", "/rooms/{code}/replay"), ("GET", "/rooms/{code}/briefing"), ("GET", "/leaderboard"),
            ("GET", "/leaderboard.html"), ("POST", "/mcp/"), ("GET", "/mcp/"),
            ("GET", "/rooms/{code}/review"), ("POST", "/rooms/{code}/review"),
            ("POST", "/queue"), ("POST", "/queue/poll"), ("POST", "/queue/cancel"), ("POST", "/queue/bots"),
        ]
        method, template = rng.choice(routes)
        label = f"http {method} {template}"
        path = template.replace("{code}", odd_path_part(rng, code) if rng.below(3) == 0 else code)
        path = path.replace("{game}", odd_path_part(rng, gid) if rng.below(3) == 0 else gid)
        query = self._query(template, gid)
        if query:
            path += "?" + query
        body, headers = None, {"content-type": "application/json"}
        if method == "POST":
            body = self._body(template, gid)
        if rng.below(12) == 0:  # another method, or an odd content type
            method = rng.choice(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "POST", "GET"])
            headers = rng.choice([{}, {"content-type": "text/plain"}, {"content-type": "application/json; charset=latin1"},
                                  {"content-type": "multipart/form-data; boundary=x"}])
        if template == "/mcp/" and rng.below(4):
            headers = {**headers, "accept": "application/json, text/event-stream"}
        self.report.probes[label] += 1
        try:
            status, data = request(self.srv, method, path, body, headers)  # type: ignore[arg-type]
        except (OSError, http.client.HTTPException) as exc:  # TimeoutError is an OSError
            self.report.crash("http_no_answer", f"{method} {path[:300]} body {(body or b'')[:300]!r}: {exc!r}")
            return
        self.report.statuses[str(status)] += 1
        if status >= 500 and not (status == 503 and template in BUSY_IS_AN_ANSWER):
            self.report.crash("http_5xx", f"{status} on {method} {path[:300]} body {(body or b'')[:300]!r}: "
                                          f"{data[:300]!r}")

    def _query(self, template: str, gid: str) -> str:
        rng = self.rng
        params: list[tuple[str, str]] = []
        if template.endswith(("/record", "/replay", "/briefing", "/review")):
            for key in ("match", "step", "view", "seat"):
                if rng.below(2):
                    params.append((key, odd_query_value(rng) if rng.below(2) else str(rng.randint(-2, 5))))
        elif template == "/rooms":
            params.append(("status", rng.choice(["open", "live", "finished", "", "x" * 3000, "%ff"])))
        elif template == "/games/{game}/board":
            params += [("scenario", rng.choice(["duel", "standard", "/etc/passwd", "../x", "%00"]))]
            params += [(rng.choice(["players", "seed", "fog", "x"]), odd_query_value(rng)) for _ in range(rng.below(3))]
        elif template.startswith("/leaderboard"):
            params.append(("game", rng.choice([gid, "x", "", "%ff", "a" * 3000])))
        if rng.below(6) == 0:
            params.append((odd_query_value(rng)[:50], odd_query_value(rng)))
        return "&".join(f"{k}={v}" for k, v in params)

    def _body(self, template: str, gid: str) -> bytes:
        rng = self.rng
        if template == "/mcp/":
            valid: dict = rng.choice([
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
                {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_games", "arguments": {}}},
            ])
        elif template == "/rooms":
            valid = {"game": gid, "options": dict(GAMES[gid]), "seats": ["human", rng.choice(["human", "bot:random"])],
                     "seat": 0, "name": "eve", "seed": rng.below(1000),
                     "clock": {"turn_seconds": 60, "on_timeout": "forfeit"}}
        elif template == "/queue":
            valid = {"game": gid, "scenario": rng.choice(["duel", "standard", "skirmish", "x"]), "players": rng.below(6),
                     "name": "eve"}
        elif template.startswith("/queue/"):
            valid = {"ticket": rng.choice([*self.tokens, "t" * 43]) if self.tokens else "t" * 43}
        else:
            valid = {"seat": rng.below(3), "name": "mallory"}
        r = rng.below(10)
        if r < 5:
            return encode(mutated(rng, valid, self.tokens)).encode()
        if r < 8:
            text = rng.choice(hostile_texts(rng, valid))
            return text.encode("utf-8", "surrogatepass")
        if r == 8:
            return rng.choice([b'{"game": "\xff\xfe"}', b"\xff" * 10, b"x" * (70 * 1024), b'{"a": "' + b"\x80" * 20 + b'"}'])
        return encode(random_json(rng, 0, self.tokens)).encode()

    # --- WebSocket ----------------------------------------------------------------------------------------
    async def _connect(self, s: Seat, query: str = "") -> None:
        import websockets

        base = f"{self.srv.ws}/ws/{s.code}"  # type: ignore[union-attr]
        url = base + ("?" + query if query else "")
        s.ws = await websockets.connect(url, max_size=2**26, open_timeout=60, ping_interval=None)
        await s.ws.send(json.dumps({"type": "hello", "token": s.token}))  # the seat's token: never in the address
        s.pending = 0
        await self._drain(s, 0.05)

    async def _drain(self, s: Seat, wait: float, until: Any = None) -> list[dict]:
        """Read what the server sent, until ``wait`` seconds pass without a message (or a message satisfies
        ``until``)."""
        out = []
        while True:
            try:
                raw = await asyncio.wait_for(s.ws.recv(), wait)
            except TimeoutError:
                return out
            msg = json.loads(raw)
            out.append(msg)
            if msg.get("type") == "state":
                s.last = msg
            elif msg.get("type") == "error":
                self.report.codes[msg.get("code", "?")] += 1
            if until is not None and until(msg):
                return out

    def _templates(self, s: Seat) -> dict[str, dict]:
        snap = (s.last or {}).get("snapshot") or {}
        legal = snap.get("legal") or []
        action = self.rng.choice(legal)["action"] if legal else {"type": "pass"}
        self.ids += 1
        ref: Any = self.ids if self.rng.below(2) else f"f{self.ids}"
        return {
            "submit": {"type": "submit", "step": snap.get("step", 0), "action": action, "id": ref},
            "chat": {"type": "chat", "text": "good luck", "id": ref},
            "sync": {"type": "sync", "since": 0, "id": ref},
            "ping": {"type": "ping", "id": ref},
            "rematch": {"type": "rematch", "id": ref},
            "suggest": self.rng.choice([
                {"type": "suggest", "id": ref, "plan": {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}}},
                {"type": "suggest", "id": ref}, {"type": "suggest", "id": ref, "bots": ["bot:easy", "bot:random"]},
                {"type": "suggest", "id": ref, "bots": ["bot:mcts:iterations=2000000000"], "plan": {"kind": "reach"}},
                {"type": "suggest", "id": ref, "bots": "bot:easy" * 40, "plan": [1] * 20}]),
            "resign": {"type": "resign", "id": ref},
            "claim": {"type": "claim", "id": ref},
            "hello": {"type": "hello", "token": s.token},  # a second hello, on a socket already seated
            "unknown": {"type": self.rng.choice(["launch", "", "SUBMIT", "x" * 200]), "id": ref},
        }

    async def _ws_probe(self, s: Seat) -> None:
        import websockets

        rng = self.rng
        if s.ws is None:
            await self._reconnect(s)
        kind = rng.choice([*MESSAGE_TYPES, "unknown"])
        template = self._templates(s)[kind]
        r = rng.below(12)
        frame: str | bytes
        if r < 2:
            frame = encode(template)  # valid as it is
        elif r < 7:
            frame = encode(mutated(rng, template, self.tokens))
        elif r < 10:
            frame = rng.choice(hostile_texts(rng, template))
        elif r == 10:
            frame = rng.choice([b"\x00binary", json.dumps(template).encode(), b"\xff" * 100])
        else:
            frame = rng.choice([json.dumps({**template, "pad": "z" * 17_000}),
                                json.dumps({**template, "pad": "z" * (1024 * 1024 + 10)})] if rng.below(4) == 0 else
                               [json.dumps({**template, "pad": "z" * 17_000})])
        self.report.probes[f"ws {kind}" + (" (spectator)" if s.seat is None else "")] += 1
        try:
            await s.ws.send(frame)
            await self._drain(s, 0.02)
            if rng.below(4) == 0:
                await self._check_alive(s, frame)
            await self._play(s)
        except websockets.ConnectionClosed as exc:
            self._closed(s, exc, frame)
        if rng.below(40) == 0:
            await self._odd_connection(s)

    def _closed(self, s: Seat, exc: Any, frame: Any) -> None:
        code = exc.rcvd.code if exc.rcvd is not None else None
        if code not in CLOSE_CODES:
            self.report.crash("ws_dropped", f"close code {code} after {str(frame)[:400]!r} on {s.game} seat {s.seat}")
        s.ws = None

    async def _reconnect(self, s: Seat) -> None:
        import websockets

        try:
            await self._connect(s)
        except (TimeoutError, websockets.InvalidStatus, OSError) as exc:
            self.report.crash("ws_dropped", f"could not reconnect {s.game} seat {s.seat}: {exc!r}")

    async def _check_alive(self, s: Seat, after: Any) -> None:
        """A ping must be answered (by a pong, or a refusal such as rate_limited carrying its id)."""
        self.ids += 1
        ref = f"alive{self.ids}"
        await s.ws.send(json.dumps({"type": "ping", "id": ref}))
        t0 = time.time()
        while time.time() - t0 < PONG_WAIT:
            got = await self._drain(s, PONG_WAIT, until=lambda m: m.get("id") == ref)
            if got and got[-1].get("id") == ref:
                return
        self.report.crash("ws_silent", f"no answer to a ping after {str(after)[:400]!r} on {s.game} seat {s.seat}")

    async def _play(self, s: Seat) -> None:
        """Move the match on: a legal move now and then, a rematch when it is over."""
        if s.seat is None or s.last is None:
            return
        snap, room = s.last["snapshot"], s.last["room"]
        if room["status"] == "finished":
            await s.ws.send(json.dumps({"type": "rematch"}))
        elif snap.get("to_act") and snap.get("legal") and self.rng.below(2) == 0:
            await s.ws.send(json.dumps({"type": "submit", "step": snap["step"],
                                        "action": self.rng.choice(snap["legal"])["action"]}))
        await self._drain(s, 0.02)

    async def _odd_connection(self, s: Seat) -> None:
        """Connect with odd parameters (a bad token, odd candidates, a bad room), then put the seat back."""
        import websockets

        rng = self.rng
        query = rng.choice([
            "candidates=" + urllib.parse.quote(rng.choice(["bot:mcts:iterations=2000000000", "bot:mcts:c=nan",
                                                           "bot:easy," * 10, "bot:" + "x" * 500, "bot:easy", "%ff",
                                                           "bot:ismcts:max_seconds=inf", "bot:hard:epsilon=-1"])),
            "token=" + odd_query_value(rng), "candidates=", "token=&token=x",
        ])
        code = s.code if rng.below(4) else odd_path_part(rng, s.code)
        url = f"{self.srv.ws}/ws/{code}?{query}"  # type: ignore[union-attr]
        hello: str | bytes = rng.choice([
            json.dumps({"type": "hello", "token": s.token}), json.dumps({"type": "hello", "token": odd_query_value(rng)}),
            json.dumps({"type": "hello", "token": 7}), json.dumps({"type": "hello"}), json.dumps({"type": "submit"}),
            '{"type": "hello", "token": "' + "x" * 5000 + '"}', b"\xff\xfe", "[" * 100, "not json"])
        self.report.probes["ws connect (odd parameters)"] += 1
        try:
            async with websockets.connect(url, max_size=2**26, open_timeout=60) as ws:
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(hello)  # the first message: a hello, or something posing as one
                t0 = time.monotonic()
                with contextlib.suppress(TimeoutError):
                    while time.monotonic() - t0 < 5:
                        await asyncio.wait_for(ws.recv(), 0.3)
        except websockets.ConnectionClosed as exc:
            code_ = exc.rcvd.code if exc.rcvd is not None else None
            if code_ not in CLOSE_CODES:
                self.report.crash("ws_dropped", f"close code {code_} connecting to {url[:300]}")
        except websockets.InvalidStatus as exc:
            status = exc.response.status_code
            if status >= 500:
                self.report.crash("http_5xx", f"{status} on the WebSocket upgrade {url[:300]}")
        except (TimeoutError, OSError) as exc:
            self.report.crash("http_no_answer", f"connecting to {url[:300]}: {exc!r}")


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="fuzz a real deltav serve (see benchmarks/fuzz_server.py)")
    ap.add_argument("--server", action="store_true", help="(what this mode is)")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--probes", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    report = ServerFuzzer(args.seed, args.probes, args.seconds).run()
    if args.json:
        print(json.dumps({"probes": report.probes, "counts": report.counts, "seconds": report.seconds}, indent=2))
    else:
        print(report.summary())
    return 1 if any(report.counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

