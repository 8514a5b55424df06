"""Server benchmark (run on demand, never as a test): N concurrent rooms played over real WebSockets on loopback.

A real ``deltav serve`` runs as a subprocess on a free port with a fresh SQLite file (``--processes N``: N of them
on a scratch PostgreSQL with a Redis bus, each owning the rooms made through it). The benchmark creates N
two-seat rooms, and for every seat a client (in a client process) plays random legal actions (a pure function of the
seat and step, so every match has a known reference record); a share of the clients drop their socket once
mid-match and reconnect with their token after a pause. It prints:

- accepted actions per second (all rooms, wall time from the first connect to the last match over);
- p50 / p99 / max submit-to-broadcast latency: from sending a submit to receiving the state message that shows
  it (step advanced, or this seat marked as decided at a simultaneous node);
- server memory per room: (server RSS with every room live - RSS before any room) / N;
- lost or duplicated actions: every finished record is compared with its reference (must be 0), and every
  action a client was told was accepted must be in its room's record.

- server CPU per action: the server process's user + system time over the run / actions (load from other jobs on
  the machine does not change it, unlike the wall-time figures);
- the clients' CPU per action, bytes received, collector pauses and peak memory (they share the cores: what
  they spend, the server cannot), and the share of the machine's CPU time its host took ("steal");
- from inside the server (``/metrics`` histograms over the measured window, as bucket bounds): a submission's
  arrival to its broadcast, the part spent waiting for the commit, and the event loop's lag.

The clients run without Python's cyclic collector (``--client-gc`` keeps it): its pauses, up to 280 ms in a
process holding 1,000 sockets, stopped every socket of that process and were counted in the latencies it timed.

Usage: ``python benchmarks/bench_server.py [--rooms 100] [--game mining] [--scenario standard] [--drop 0.1]
[--think 0] [--client-procs 1] [--client-gc] [--seconds 0] [--warmup 0]
[--profile FILE]`` (``PYTHONPATH=src`` from the repository root). The clients run in
their own process(es), apart from the server's interpreter, but on the same cores. ``--think 0`` submits at once
(every room as fast as the server can go: a saturation test whose latency is mostly queueing);
``--think 2`` waits 0..4 s before each submission, like a quick player. ``--profile FILE`` samples the server with
py-spy. ``--seconds N`` stops the clients after N seconds (a steady-state window: long matches, mining's 200-600
steps at ``--think 2``, need half an hour to finish at 1,000 rooms); the actions each room's database rows hold are
then checked against the start of its reference record.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from deltav.server.run import GC_THRESHOLDS  # noqa: E402

#: a client process with the collector off collects once its memory passes this (benchmarks only)
CLIENT_RSS_LIMIT_MIB = 2048
from tests.server.helpers import ProcessServer, choose, http, record_difference, reference_record  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (load on the machine does not change it, unlike wall time)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(steal, all) CPU ticks of the machine so far, from /proc/stat: a virtual machine's host can take CPU time
    from it ("steal"), which stretches every wall-time figure here and shows in none of the CPU ones."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.accepted = 0
        self.drops = 0
        self.errors: list[str] = []
        self.received = 0  # bytes of every message received
        self.states = 0  # state messages received
        self.state_bytes = 0  # their bytes


async def client(url: str, token: str, seat: int, seed: int, stats: Stats, drop_at: int | None,
                 think: float = 0.0, deadline: float | None = None, measure_from: float = 0.0) -> None:
    import orjson
    import websockets

    pending: tuple[int, float] | None = None  # (step submitted for, send time)
    submitted: set[int] = set()
    dropped = False
    while True:
        try:
            async with websockets.connect(url, max_size=2**24, open_timeout=60, compression=None) as ws:
                if token is not None:  # the seat's token goes in the first message (None: an older server's url has it)
                    await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                while True:
                    wait = 120.0 if deadline is None else max(0.1, min(120.0, deadline - time.time() + 1.0))
                    try:
                        raw = await asyncio.wait_for(ws.recv(), wait)
                        stats.received += len(raw)
                        msg = orjson.loads(raw)
                    except TimeoutError:
                        if deadline is not None and time.time() >= deadline:
                            return  # --seconds: window over while waiting for the other seat
                        raise
                    kind = msg["type"]
                    if kind == "accepted":
                        stats.accepted += 1
                        continue
                    if kind == "error":
                        if msg["code"] not in ("stale_step", "already_decided"):
                            stats.errors.append(f"seat {seat}: {msg}")
                        continue
                    if kind != "state":
                        continue
                    stats.states += 1
                    stats.state_bytes += len(raw)
                    snap = msg["snapshot"]
                    if pending is not None:
                        step, t0 = pending
                        mine = next((d for d in snap["deciding"] if d["seat"] == seat), None)
                        if snap["step"] > step or (mine is not None and mine["submitted"]):
                            if time.time() >= measure_from:  # --warmup: the connection burst is not counted
                                stats.latencies.append(time.perf_counter() - t0)
                            pending = None
                    if snap["status"] == "over" or msg["room"]["status"] == "finished":
                        return
                    if deadline is not None and time.time() >= deadline and pending is None:
                        return  # --seconds: the measured window is over (the match stays unfinished)
                    if drop_at is not None and not dropped and snap["step"] >= drop_at:
                        dropped = True
                        stats.drops += 1
                        break
                    if snap["to_act"] and snap["step"] not in submitted:
                        submitted.add(snap["step"])
                        action = choose(seed, seat, snap["step"], snap["legal"])
                        if think > 0:  # a player's thinking time (uniform, mean ``think``): not part of the latency
                            await asyncio.sleep(random.uniform(0, 2 * think))
                        pending = (snap["step"], time.perf_counter())
                        await ws.send(json.dumps({"type": "submit", "step": snap["step"], "action": action}))
        except (TimeoutError, OSError) as exc:
            stats.errors.append(f"seat {seat}: {type(exc).__name__}: {exc}")
            return
        except websockets.ConnectionClosed:
            pass
        pending = None
        await asyncio.sleep(0.2)  # then reconnect with the same token


def warm_up() -> None:
    import orjson  # noqa: F401
    import websockets  # noqa: F401


def client_process(jobs: list[tuple], think: float = 0.0, deadline: float | None = None,
                   measure_from: float = 0.0, client_gc: bool = False) -> dict:
    """One client process: every job (a seat's socket) on one event loop; returns its measurements.

    The clients run without the cyclic garbage collector (``client_gc`` turns it on): a process holding 500
    sockets spent up to 170 ms in one collection, and every socket of the process waits meanwhile, so its
    pauses counted in the latencies it timed (and took CPU from the server), although they are no part of the
    server. Messages are acyclic JSON, freed as they are dropped; what the sockets leave in cycles stays, so the
    process's memory is watched and it collects (a pause it reports) if it passes CLIENT_RSS_LIMIT_MIB."""
    import gc

    stats = Stats()
    pauses: list[float] = []
    started = [0.0]

    def on_gc(phase, info):
        if phase == "start":
            started[0] = time.perf_counter()
        elif time.time() >= measure_from:
            pauses.append(time.perf_counter() - started[0])

    async def watch_memory():
        while True:
            await asyncio.sleep(2.0)
            if rss_kib(os.getpid()) > CLIENT_RSS_LIMIT_MIB * 1024:
                gc.collect()

    async def main():
        watcher = asyncio.create_task(watch_memory())
        await asyncio.gather(*[client(url, token, seat, seed, stats, drop_at, think, deadline, measure_from)
                               for url, token, seat, seed, drop_at in jobs])
        watcher.cancel()

    gc.callbacks.append(on_gc)
    gc.collect()
    if client_gc:
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
    else:
        gc.disable()
    cpu0 = time.process_time()
    asyncio.run(main())
    return {"latencies": stats.latencies, "accepted": stats.accepted, "drops": stats.drops, "errors": stats.errors,
            "cpu": time.process_time() - cpu0, "received": stats.received, "gc_pauses": pauses,
            "states": stats.states, "state_bytes": stats.state_bytes,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


async def stored_actions(db: str, codes: list[str]) -> dict[str, list[tuple[int, dict]]]:
    """Every room's accepted actions as the database holds them, in order: (seat, action JSON) per submission
    of the room's first match (for --seconds, when matches end unfinished and have no record yet)."""
    query = "SELECT code, seat, action FROM submissions WHERE no = 1 ORDER BY code, seq"
    if db.startswith("sqlite"):
        import sqlite3

        con = sqlite3.connect(db.split(":///", 1)[1])
        try:
            rows = con.execute(query).fetchall()
        finally:
            con.close()
    else:
        import asyncpg

        con = await asyncpg.connect(db.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            rows = [tuple(r) for r in await con.fetch(query)]
        finally:
            await con.close()
    wanted = set(codes)
    out: dict[str, list[tuple[int, dict]]] = {}
    for code, seat, action in rows:
        if code in wanted:
            out.setdefault(code, []).append((seat, json.loads(action)))
    return out


def gc_pauses(bases: list[str]) -> dict[str, list[float]]:
    """The servers' collector pauses so far, from ``GET /metrics``: generation -> [count, total s, longest s]."""
    out: dict[str, list[float]] = {}
    for base in bases:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
            text = r.read().decode()
        for line in text.splitlines():
            for name, slot in (("deltav_gc_pause_seconds_count", 0), ("deltav_gc_pause_seconds_sum", 1),
                               ("deltav_gc_pause_max_seconds", 2)):
                if line.startswith(name + "{"):
                    gen = line.split('generation="')[1].split('"')[0]
                    got = out.setdefault(gen, [0.0, 0.0, 0.0])
                    value = float(line.split()[-1])
                    got[slot] = max(got[slot], value) if slot == 2 else got[slot] + value
    return out


def histograms(bases: list[str], names: tuple[str, ...] = ("deltav_submit_seconds", "deltav_store_write_seconds",
                                             "deltav_loop_lag_seconds")
               ) -> dict[str, dict[float, float]]:
    """The servers' cumulative histogram buckets so far (name -> upper bound -> count), summed over processes."""
    out: dict[str, dict[float, float]] = {n: {} for n in names}
    for base in bases:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
            text = r.read().decode()
        for line in text.splitlines():
            for name in names:
                if line.startswith(name + "_bucket{"):
                    le = line.split('le="')[1].split('"')[0]
                    bound = float("inf") if le == "+Inf" else float(le)
                    out[name][bound] = out[name].get(bound, 0.0) + float(line.split()[-1])
    return out


def bucket_quantile(before: dict[float, float], after: dict[float, float], q: float) -> float | None:
    """The upper bound (s) of the histogram bucket holding quantile ``q`` of what was observed in between."""
    bounds = sorted(after)
    total = after.get(float("inf"), 0.0) - before.get(float("inf"), 0.0)
    if total <= 0:
        return None
    for b in bounds:
        if after[b] - before.get(b, 0.0) >= q * total:
            return b
    return None


async def run(args) -> dict:
    tmp = tempfile.mkdtemp(prefix="deltav-bench-")
    db = f"sqlite+aiosqlite:///{tmp}/bench.db"
    backing: list = []
    servers: list[ProcessServer] = []
    common: tuple[str, ...] = ("--grace", "0", "--bot-workers", "0")
    if server_knows(args.server_src, "--no-client-limits"):  # every client here shares one address
        common += ("--no-client-limits",)
    if server_knows(args.server_src, "--chosen-seeds"):  # the matches between the clients are replayed by seed
        common += ("--chosen-seeds", "any")
    try:
        if args.processes > 1 or args.cluster:  # several processes: a scratch PostgreSQL and Redis, started here
            from tests.server import services

            backing.append(services.Redis())
            backing.append(services.Postgres())
            db = backing[1].new_database("bench")
            for _ in range(args.processes):
                servers.append(ProcessServer(db, *common, "--bus", backing[0].url, src=args.server_src))
        else:
            servers.append(ProcessServer(db, *common, src=args.server_src))
        srv = servers[0]
        pids = [s.proc.pid for s in servers]
        base_rss = sum(rss_kib(p) for p in pids)
        options = {"scenario": args.scenario} if args.scenario else {}
        rng = random.Random(args.seed)
        rooms = []
        t_create = time.perf_counter()
        for i in range(args.rooms):
            seed = 1000 + i
            home = servers[i % len(servers)]  # rooms spread over the processes: the one that makes a room owns it
            code, body = await asyncio.to_thread(http, home.base, "POST", "/rooms", {
                "game": args.game, "options": options, "seats": ["human", "human"], "seed": seed})
            assert code == 201, body
            status, joined = await asyncio.to_thread(http, home.base, "POST", f"/rooms/{body['code']}/join", {})
            assert status == 200, (status, joined)
            rooms.append((body["code"], seed, [body["token"], joined["token"]], home))
        create_s = time.perf_counter() - t_create
        jobs = []
        hello = server_takes_hello(args.server_src)
        for code, _seed, tokens, home in rooms:
            url = f"{home.ws}/ws/{code}"
            for seat in (0, 1):
                drop_at = rng.randint(5, 40) if rng.random() < args.drop else None
                jobs.append((url, tokens[seat], seat, args.client_seed, drop_at) if hello else
                            (f"{url}?token={tokens[seat]}", None, seat, args.client_seed, drop_at))
        # the clients run in their own processes (--client-procs), so they do not share the server's interpreter
        loop = asyncio.get_running_loop()
        procs = max(1, args.client_procs)
        pool = ProcessPoolExecutor(procs, mp_context=multiprocessing.get_context("spawn"))
        await asyncio.gather(*[loop.run_in_executor(pool, warm_up) for _ in range(procs)])  # imports done
        profiler = None
        if args.profile:  # py-spy samples the server process while the matches run
            import subprocess
            spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))  # the venv's own
            profiler = subprocess.Popen([spy, "record", "-p", str(srv.proc.pid), "-f", "raw", "-o", args.profile,
                                         "-d", str(args.profile_seconds)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        peak_rss = base_rss

        async def sample():
            nonlocal peak_rss
            while True:
                peak_rss = max(peak_rss, sum(rss_kib(p) for p in pids))
                await asyncio.sleep(0.2)

        sampler = asyncio.create_task(sample())
        gc0 = await asyncio.to_thread(gc_pauses, [x.base for x in servers])
        hist0: dict = {}
        cpu0 = sum(cpu_seconds(p) for p in pids)
        ticks0 = machine_ticks()
        t0 = time.perf_counter()
        deadline = time.time() + args.seconds if args.seconds else None
        measure_from = time.time() + args.warmup
        async def at_warmup_end():
            await asyncio.sleep(max(0.0, measure_from - time.time()))
            hist0.update(await asyncio.to_thread(histograms, [x.base for x in servers]))

        hist_task = asyncio.create_task(at_warmup_end())
        parts = await asyncio.gather(*[loop.run_in_executor(pool, client_process, jobs[i::procs], args.think,
                                                            deadline, measure_from, args.client_gc)
                                       for i in range(procs)])
        if not hist_task.done():
            hist_task.cancel()
        hist1 = await asyncio.to_thread(histograms, [x.base for x in servers])
        server_side = {name: {f"p{int(q * 100)}_ms": (None if (b := bucket_quantile(hist0.get(name, {}), h, q)) is None
                                                        else 1000 * b) for q in (0.5, 0.99)}
                       for name, h in hist1.items()}
        wall = time.perf_counter() - t0
        cpu = sum(cpu_seconds(p) for p in pids) - cpu0
        ticks1 = machine_ticks()
        steal = (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1])
        gc1 = await asyncio.to_thread(gc_pauses, [x.base for x in servers])
        collections = {gen: {"count": int(v[0] - gc0.get(gen, [0, 0, 0])[0]),
                             "total_ms": 1000 * (v[1] - gc0.get(gen, [0, 0, 0])[1]), "longest_ms": 1000 * v[2]}
                       for gen, v in sorted(gc1.items())}
        pool.shutdown()
        if profiler is not None:
            profiler.wait()
        stats = Stats()
        client_cpu = 0.0
        client_pauses: list[float] = []
        client_rss = 0.0
        received = states = state_bytes = 0
        for part in parts:
            stats.latencies += part["latencies"]
            stats.accepted += part["accepted"]
            stats.drops += part["drops"]
            stats.errors += part["errors"]
            client_cpu += part["cpu"]
            client_pauses += part["gc_pauses"]
            client_rss = max(client_rss, part["peak_rss_mib"])
            received += part["received"]
            states += part["states"]
            state_bytes += part["state_bytes"]
        sampler.cancel()
        lost = dup = mismatched = 0
        steps = 0
        stored = await stored_actions(db, [code for code, *_ in rooms]) if args.seconds else {}
        for code, seed, _tokens, _home in rooms:
            if args.seconds:  # matches may be unfinished: what the database holds must be the reference's start
                got = stored.get(code, [])
                ref = reference_record(args.game, options, seed, ["human", "human"], args.client_seed,
                                       max_steps=len(got))
                want = [(st["player"], st["action"]) for st in ref["steps"]][:len(got)]
                steps += len(got)
                if got != want:
                    mismatched += 1
                    dup += max(0, len(got) - len(ref["steps"]))
                continue
            ref = reference_record(args.game, options, seed, ["human", "human"], args.client_seed)
            status, record = await asyncio.to_thread(http, srv.base, "GET", f"/rooms/{code}/record")
            if status != 200:
                mismatched += 1
                continue
            steps += len(record["steps"])
            diff = record_difference(record, ref)
            if diff is not None:
                mismatched += 1
                if len(record["steps"]) < len(ref["steps"]):
                    lost += len(ref["steps"]) - len(record["steps"])
                elif len(record["steps"]) > len(ref["steps"]):
                    dup += len(record["steps"]) - len(ref["steps"])
        lat = sorted(stats.latencies)

        def pct(q):
            return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

        return {
            "rooms": args.rooms, "think": args.think, "seconds_limit": args.seconds, "warmup": args.warmup, "game": args.game,
            "scenario": args.scenario, "create_seconds": create_s,
            "wall_seconds": wall, "actions": steps,
            "server_cpu_ms_per_action": 1000 * cpu / max(1, steps), "server_cores_used": cpu / wall,
            "load_average": os.getloadavg()[0], "steal_share": steal, "actions_per_second": steps / wall,
            "client_cpu_ms_per_action": 1000 * client_cpu / max(1, steps), "client_cores_used": client_cpu / wall,
            "client_gc_longest_ms": 1000 * max(client_pauses, default=0.0),
            "client_gc_total_ms": 1000 * sum(client_pauses), "client_peak_rss_mib": client_rss,
            "client_gc": args.client_gc,
            "received_kib_per_action": received / 1024 / max(1, steps),
            "state_messages": states, "state_message_bytes_mean": state_bytes / max(1, states),
            "accepted_messages": stats.accepted, "p50_ms": pct(0.50), "p99_ms": pct(0.99), "max_ms": pct(1.0),
            "mean_ms": statistics.fmean(lat) * 1000 if lat else None, "latency_samples": len(lat),
            "drops": stats.drops, "server_rss_base_mib": base_rss / 1024, "server_rss_peak_mib": peak_rss / 1024,
            "memory_per_room_kib": (peak_rss - base_rss) / args.rooms, "records_mismatched": mismatched,
            "lost_actions": lost, "duplicated_actions": dup, "client_errors": stats.errors[:5],
            "cores": os.cpu_count(), "gc_pauses": collections, "server_side": server_side,
            "processes": len(servers), "database": "postgresql" if backing else "sqlite",
            "server_errors": [ln for s in servers for ln in s.output().splitlines() if "Error" in ln or "ERROR" in ln][:5],
        }
    finally:
        for s in servers:
            s.stop()
        for b in backing:
            b.stop()


def server_takes_hello(src: str | None) -> bool:
    """Whether that tree's server (None: this one) takes a seat's token in a first ``hello`` message (older ones
    took it in the socket's address)."""
    app = Path(src or ROOT / "src") / "deltav" / "server" / "app.py"
    return '"hello"' in app.read_text()


def server_knows(src: str | None, flag: str) -> bool:
    """Whether ``deltav serve`` of that tree (None: this one) takes ``flag``."""
    env = {**os.environ, "PYTHONPATH": str(src or ROOT / "src")}
    out = subprocess.run([sys.executable, "-m", "deltav.cli", "serve", "--help"], capture_output=True, text=True,
                         env=env, cwd=str(ROOT))
    return flag in out.stdout


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--game", default="mining")
    ap.add_argument("--scenario", default="standard")
    ap.add_argument("--drop", type=float, default=0.1, help="share of clients that drop once and reconnect")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--client-seed", type=int, default=7)
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes on one scratch PostgreSQL + Redis (more than 1 implies --cluster)")
    ap.add_argument("--cluster", action="store_true", help="PostgreSQL + Redis even for one process")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds a client waits before it submits (0: at once, which measures saturation)")
    ap.add_argument("--client-gc", action="store_true",
                    help="keep the cyclic collector on in the client processes (its pauses count in the latencies)")
    ap.add_argument("--client-procs", type=int, default=1, help="processes running the clients (not the server's)")
    ap.add_argument("--server-src", help="run the server from this source tree (its root or its src/ folder; to "
                                          "compare two versions, e.g. one exported with git archive)")
    ap.add_argument("--seconds", type=float, default=0.0,
                    help="stop the clients after this many seconds (matches left unfinished; the stored actions of "
                         "each room are checked against the start of its reference record)")
    ap.add_argument("--warmup", type=float, default=0.0,
                    help="latencies of submissions sent in the first N seconds (every socket connecting and getting "
                         "its first snapshot at once) are not counted")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", help="sample the server with py-spy into this file (raw folded stacks)")
    ap.add_argument("--profile-seconds", type=int, default=10)
    args = ap.parse_args(argv)
    if args.server_src:  # a tree's root or its src/ folder; never silently the installed package instead
        src = Path(args.server_src)
        src = src / "src" if (src / "src" / "deltav").is_dir() else src
        if not (src / "deltav" / "server").is_dir():
            ap.error(f"--server-src {args.server_src}: no deltav/server package there (nor in its src/)")
        args.server_src = str(src)
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stopped (a timeout): still stop the servers
    from deltav.games import load_all

    load_all()
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{out['rooms']} rooms of {out['game']} {out['scenario']} over WebSockets on loopback ({out['cores']} cores, "
              f"{out['processes']} server process(es) on {out['database']}, think {out['think']:g} s)")
        print(f"  {out['actions']} actions in {out['wall_seconds']:.1f}s: {out['actions_per_second']:.0f} accepted actions/s; "
              f"server CPU {out['server_cpu_ms_per_action']:.2f} ms per action, {out['server_cores_used']:.2f} cores used "
              f"(machine load average {out['load_average']:.1f}, {100 * out['steal_share']:.0f}% of its CPU time "
              "stolen by the host)")
        print(f"  clients: {out['client_cpu_ms_per_action']:.2f} ms CPU per action, {out['client_cores_used']:.2f} cores "
              f"used; {out['received_kib_per_action']:.1f} KiB received per action (every seat's messages; a state message "
              f"{out['state_message_bytes_mean'] / 1024:.2f} KiB on average, {out['state_messages']} of them); collector "
              + ("on" if out["client_gc"] else "off") + f", its pauses {out['client_gc_total_ms']:.0f} ms in all, longest "
              f"{out['client_gc_longest_ms']:.1f} ms; peak memory {out['client_peak_rss_mib']:.0f} MiB a process")
        print(f"  submit-to-broadcast latency: p50 {out['p50_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms, "
              f"max {out['max_ms']:.1f} ms ({out['latency_samples']} samples"
              + (f", after a {out['warmup']:.0f} s warm-up" if out["warmup"] else "") + ")")
        ss = out["server_side"]

        def bound(v):
            return "n/a" if v is None else f"<= {v:g} ms"

        print(f"  inside the server (histogram buckets): arrival to broadcast p50 {bound(ss['deltav_submit_seconds']['p50_ms'])}"
              f", p99 {bound(ss['deltav_submit_seconds']['p99_ms'])}; of which the commit p50 "
              f"{bound(ss['deltav_store_write_seconds']['p50_ms'])}, p99 {bound(ss['deltav_store_write_seconds']['p99_ms'])}"
              "; event loop lag p50 "
              f"{bound(ss['deltav_loop_lag_seconds']['p50_ms'])}, p99 {bound(ss['deltav_loop_lag_seconds']['p99_ms'])}")
        print(f"  server memory: {out['server_rss_base_mib']:.0f} MiB idle, {out['server_rss_peak_mib']:.0f} MiB peak, "
              f"{out['memory_per_room_kib']:.0f} KiB per room")
        print("  collector pauses while the clients played: " + ("; ".join(
            f"generation {g}: {v['count']} ({v['total_ms']:.0f} ms in all, longest {v['longest_ms']:.1f} ms)"
            for g, v in out["gc_pauses"].items()) or "none"))
        print(f"  drops and reconnects: {out['drops']}; records differing from the reference: {out['records_mismatched']}; "
              f"lost actions: {out['lost_actions']}, duplicated: {out['duplicated_actions']}")
        for e in out["client_errors"]:
            print(f"  client error: {e}")
        for e in out["server_errors"]:
            print(f"  server log: {e}")
    return 0 if out["records_mismatched"] == 0 and not out["client_errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
