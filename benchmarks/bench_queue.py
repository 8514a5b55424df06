"""Quick-match benchmark (run on demand, never as a test): many players joining and polling the queue at once.

A real ``deltav serve`` runs as a subprocess on a free port with a fresh SQLite file (``--no-client-limits``: every
player comes from this machine). ``--players N`` players (N even) join the Duel queue from ``--threads T`` client
threads (T players in the queue at a time) and poll every ``--poll`` seconds (the client's 1.5 s by default)
until each is matched. It prints:

- requests per second the server answered (joins and polls) over the run;
- p50 / p99 / max of a poll's and a join's latency (the client's wall time for the HTTP request);
- rooms made and whether every player got exactly one seat of a room made for two (must be yes).

Usage: ``PYTHONPATH=src python benchmarks/bench_queue.py [--players 200] [--threads 16] [--poll 1.5]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import ProcessServer  # noqa: E402


def request(base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict, float]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            out = r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        out = e.code, json.loads(e.read())
    return out[0], out[1], time.perf_counter() - t0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--poll", type=float, default=1.5)
    args = ap.parse_args()
    import tempfile

    tmp = tempfile.mkdtemp(prefix="deltav-bench-queue-")
    server = ProcessServer(f"sqlite+aiosqlite:///{tmp}/q.db", "--bot-workers", "0", "--no-client-limits",
                           "--quick-match-wait", "3600")
    joins: list[float] = []
    polls: list[float] = []
    lock = threading.Lock()

    def player(i: int) -> dict:
        status, out, dt = request(server.base, "POST", "/queue", {"game": "tactical", "scenario": "duel", "name": f"p{i}"})
        assert status == 201, out
        ticket = out["ticket"]
        with lock:
            joins.append(dt)
        while out["status"] != "matched":
            time.sleep(args.poll)
            status, out, dt = request(server.base, "POST", "/queue/poll", {"ticket": ticket})
            assert status == 200, out
            with lock:
                polls.append(dt)
        return out

    try:
        t0 = time.perf_counter()
        with ThreadPoolExecutor(args.threads) as pool:
            outs = list(pool.map(player, range(args.players)))
        wall = time.perf_counter() - t0
    finally:
        server.stop()
    rooms: dict[str, list[int]] = {}
    for o in outs:
        rooms.setdefault(o["code"], []).append(o["seat"])
    ok = all(sorted(s) == [0, 1] for s in rooms.values()) and len(rooms) * 2 == args.players
    n = len(joins) + len(polls)
    print(f"{args.players} players, {args.threads} client threads, poll every {args.poll:g} s: {wall:.1f} s wall")
    print(f"requests answered: {n} ({n / wall:.0f}/s)")
    for name, xs in (("join", joins), ("poll", polls)):
        if xs:
            print(f"{name}: n={len(xs)} p50 {pct(xs, 0.5):.1f} ms, p99 {pct(xs, 0.99):.1f} ms, max {max(xs) * 1000:.1f} ms, "
                  f"mean {statistics.mean(xs) * 1000:.1f} ms")
    print(f"rooms made: {len(rooms)}; every player seated once in a room of two: {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
