"""What ``GET /rooms`` costs the server: CPU per call with many rooms in the database.

A scratch SQLite file gets ``--rooms N`` rooms (tactical duels between people; a third each open, live and finished; a fraction
``--public`` of them open to anyone), then a real ``deltav serve`` on it answers ``--calls K`` requests of each list
(``GET /rooms``, ``?status=open|live|finished``) back to back; the server process's CPU time (user + system, from
/proc) over those calls divided by K is the cost of one call. ``--spaced S`` waits S seconds between calls (longer
than the server's list cache, so every call is computed).

Usage: ``PYTHONPATH=src python benchmarks/bench_room_list.py --rooms 3000 --calls 50 [--spaced 1.1]``
(``--server-src DIR`` runs another tree's server, e.g. one exported with ``git archive``, for a before/after).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the tree whose server runs also makes the database (its own schema revision)
_SRC = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--server-src"), None)
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(_SRC).resolve()) if _SRC else str(ROOT / "src"))

from tests.server.helpers import ProcessServer  # noqa: E402


def get(base: str, path: str, n: int) -> tuple[int, list]:
    """``GET path`` from loopback address 127.0.0.(2 + n % 250): many clients, so that no one address meets the
    server's rate limit."""
    import http.client
    import json

    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60, source_address=(f"127.0.0.{2 + n % 250}", 0))
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, json.loads(r.read())
    finally:
        conn.close()


async def fill(url: str, n: int, public: float) -> None:
    import dataclasses

    from deltav.server.store import MatchRow, SeatRow, Store

    store = await Store.open(url)
    fields = {f.name for f in dataclasses.fields(MatchRow)}
    for i in range(n):
        status = ("open", "live", "finished")[i % 3]
        # people only: no bot plays while the lists are measured
        seats = [SeatRow(0, "human", "a" * 64, f"p{i}"), SeatRow(1, "human", None if status == "open" else "b" * 64)]
        code = "".join("ABCDEFGHJKLMNPRSTWXYZ"[(i // 21**k) % 21] for k in range(5))
        row = MatchRow(code, 1, "tactical", {"scenario": "duel"}, i, status, seats)
        if "public" in fields:
            row.public = (i % 100) < public * 100
        await store.create_room(row)
        if status == "finished":
            await store.set_status(row.code, 1, "finished", record={"format": "deltav-record/1", "steps": []})
    await store.close()


def cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=3000)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--public", type=float, default=0.5, help="the share of rooms open to anyone")
    ap.add_argument("--spaced", type=float, default=0.0, help="seconds between calls")
    ap.add_argument("--server-src", help="the src folder of the server to run (default: this tree's)")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="deltav-bench-list-")
    url = f"sqlite+aiosqlite:///{folder}/list.db"
    asyncio.run(fill(url, args.rooms, args.public))
    srv = ProcessServer(url, "--bot-workers", "0", src=args.server_src)
    try:
        print(f"{args.rooms} rooms, {args.calls} calls each" + (f", {args.spaced:g} s apart" if args.spaced else ""))
        idle = 0.0  # the server's own CPU per second with no request (timers), taken off spaced measurements
        if args.spaced:
            c0, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
            time.sleep(5)
            idle = (cpu_seconds(srv.proc.pid) - c0) / (time.monotonic() - t0)
            print(f"idle server: {idle * 1000:.1f} ms of CPU a second (subtracted)")
        n = 0
        for query in ("", "?status=open", "?status=live", "?status=finished"):
            status, body = get(srv.base, "/rooms" + query, n)
            assert status == 200, body
            before, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
            for _ in range(args.calls):
                n += 1
                status, _ = get(srv.base, "/rooms" + query, n)
                assert status == 200, status
                if args.spaced:
                    time.sleep(args.spaced)
            per = (cpu_seconds(srv.proc.pid) - before - idle * (time.monotonic() - t0)) / args.calls
            print(f"GET /rooms{query:<17} {len(body):>4} rooms listed   server CPU {per * 1000:7.2f} ms a call")
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
