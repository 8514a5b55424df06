"""A database that refuses writes for a while, on a real ``deltav serve`` and a real SQLite file.

The fault: the write-ahead log made immutable (``chattr +i``) for a few seconds. The tests run as root, where a
``chmod`` does not stop writes; the immutable flag does, even through the file descriptors SQLite already holds
(``write`` fails with EPERM, which SQLite reports as a disk I/O error, and a connection opened meanwhile opens the
file read-only), which is what a file system remounted read-only or a failing disk does to the server. Before the
fix every later write failed until a restart (the pooled connections stayed read-only), the bot rooms retried in a
tight loop (hundreds of failed writes and megabytes of tracebacks in seconds) and ``/readyz`` said ready.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
from pathlib import Path

from tests.server.helpers import ProcessServer, hello_connect, http

FAULT_SECONDS = 4.0


def immutable(path: Path, on: bool) -> None:
    subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True)


def metric(base: str, name: str) -> float:
    import urllib.request

    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise AssertionError(f"no metric {name}")


def wait_for(pred, what: str, timeout: float = 60.0):
    t0 = time.time()
    while time.time() - t0 < timeout:
        got = pred()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting for {what}")


async def submit_first_legal(ws_url: str, token: str) -> dict:
    """Connect a seat, submit its first legal action, return the answer to it (accepted or error)."""

    async with hello_connect(f"{ws_url}?token={token}", max_size=2**24, open_timeout=30) as ws:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "state" and msg["snapshot"]["to_act"]:
                snap = msg["snapshot"]
                await ws.send(json.dumps({"type": "submit", "step": snap["step"], "action": snap["legal"][0]["action"],
                                          "id": "s1"}))
                break
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg.get("id") == "s1":
                return msg


def test_a_write_ahead_log_read_only_for_a_while_backs_off_reports_not_ready_and_recovers(tmp_path):
    db = tmp_path / "faults.db"
    wal = Path(f"{db}-wal")
    srv = ProcessServer(f"sqlite+aiosqlite:///{db}", "--bot-workers", "0", "--log-level", "info")
    try:
        bots = []
        for _ in range(2):
            # bot:hard, not bot:random: a random mining game ends in a few seconds (some 150 steps at 30 a second),
            # and a room that finished before the fault never "moves on" after it
            status, made = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["bot:hard", "bot:hard"]})
            assert status == 201, made
            bots.append(made["code"])
        status, mine = http(srv.base, "POST", "/rooms", {"game": "tactical", "scenario": "duel",
                                                         "seats": ["human", "bot:easy"], "name": "ann"})
        assert status == 201, mine

        def steps() -> list[int]:
            return [http(srv.base, "GET", f"/rooms/{c}")[1]["step"] for c in bots]

        wait_for(lambda: all(s > 3 for s in steps()) and wal.exists(), "the bot rooms to play")
        log_before = len(srv.output())
        failed_before = metric(srv.base, "deltav_store_failed_writes_total")
        immutable(wal, True)
        try:
            down = wait_for(lambda: (lambda r: r if r[0] == 503 else None)(http(srv.base, "GET", "/readyz")),
                            "/readyz to say not ready")
            assert any("refuses writes" in p for p in down[1]["problems"]), down
            assert metric(srv.base, "deltav_store_writable") == 0
            answer = asyncio.run(submit_first_legal(f"{srv.ws}/ws/{mine['code']}", mine["token"]))
            assert answer["type"] == "error" and answer["code"] == "store_unavailable", answer
            assert "try again" in answer["message"]
            status, refused = http(srv.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:easy"]})
            assert status == 503 and refused["error"] == "store_unavailable", refused
            stuck = steps()
            live = [http(srv.base, "GET", f"/rooms/{c}")[1]["status"] for c in bots]
            assert live == ["live", "live"], (live, stuck)
            time.sleep(FAULT_SECONDS)
            assert steps() == stuck  # nothing was applied that could not be stored
        finally:
            immutable(wal, False)
        # the bots waited instead of retrying: a handful of probe writes, not hundreds of failed ones
        failed = metric(srv.base, "deltav_store_failed_writes_total") - failed_before
        assert 1 <= failed <= 20, failed
        wait_for(lambda: http(srv.base, "GET", "/readyz")[0] == 200, "/readyz to say ready again")
        try:
            wait_for(lambda: all(a > b for a, b in zip(steps(), stuck, strict=True)), "the bot rooms to move on")
        except AssertionError as exc:
            raise AssertionError(f"{exc}: steps {stuck} then {steps()}; the server said:\n"
                                 f"{srv.output()[log_before:][-6000:]}") from None
        answer = asyncio.run(submit_first_legal(f"{srv.ws}/ws/{mine['code']}", mine["token"]))
        assert answer["type"] == "accepted", answer
        status, made = http(srv.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:easy"]})
        assert status == 201, made
        during = srv.output()[log_before:]
        assert during.count("Traceback") == 0, during[-3000:]
        assert len(during) < 20_000, len(during)  # said once, not once per failed write
        assert "refuses writes" in during and "takes writes again" in during
    finally:
        if wal.exists():
            immutable(wal, False)
        srv.stop()
    assert not os.path.exists(f"{db}-journal")
