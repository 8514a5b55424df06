"""Starting the server process: bind the socket, print the URL, run uvicorn with the app.

This module owns process start-up only (the ``deltav serve`` command calls :func:`serve`).
"""

from __future__ import annotations

import gc
import os
import socket
import sys

from deltav.server.rooms import Settings

#: The cyclic collector's thresholds in a server process. A pause of the collector stops every room, so it is
#: the latency tail. Python's defaults (700, 10, 10) run a full (generation 2) collection every 100 young ones:
#: with 1,000 live mining rooms that was 13 full collections in 75 s, up to 0.6 s each. A young collection costs
#: in proportion to the young objects alive, so a large first threshold (50,000, tried before) makes long young
#: pauses (25-90 ms). Small young and middle thresholds keep every pause short (about 0.4 ms and 4 ms with
#: 1,000 rooms) at the same total collector time, and the third keeps full collections rare (one every ~10,000
#: young ones; 0.3-0.4 s with 1,000 rooms). Measured with benchmarks/bench_server.py (docs/server.md); an operator
#: may set ``DELTAV_GC_THRESHOLDS``.
GC_THRESHOLDS = (1000, 10, 1000)

def gc_thresholds(text: str | None) -> tuple[int, int, int]:
    """The collector's thresholds: ``GC_THRESHOLDS``, or three positive integers from ``DELTAV_GC_THRESHOLDS``
    (``"5000,2,1000"``) for an operator tuning a server's pauses."""
    if not text:
        return GC_THRESHOLDS
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise SystemExit(f"DELTAV_GC_THRESHOLDS must be three positive integers like 5000,2,1000, not {text!r}")
    return int(parts[0]), int(parts[1]), int(parts[2])


#: WebSocket frames above this close the connection (1009); messages above ``Settings.max_message_bytes`` but
#: below this are refused with an error and the connection stays open.
WS_MAX_FRAME = 1024 * 1024


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # inherited by accepted sockets (Linux)
    sock.bind((host, port))
    sock.listen(512)
    sock.set_inheritable(True)
    return sock


def make_server(sock: socket.socket, db_url: str, settings: Settings, log_level: str = "warning",
                deflate: bool = False, web_dir: str | None = None, log_format: str | None = None):
    """The uvicorn server. Per-message compression is off by default: it halves the throughput on 2 cores
    (benchmarks/bench_server.py); ``deflate=True`` trades CPU for bandwidth on slow links."""
    import uvicorn

    from deltav.server.app import create_app
    from deltav.server.wsproto import BoundedCloseProtocol

    config = uvicorn.Config(create_app(db_url, settings, web_dir), ws=BoundedCloseProtocol, ws_max_size=WS_MAX_FRAME,
                            log_level=log_level, lifespan="on", ws_ping_interval=20.0, ws_ping_timeout=20.0,
                            ws_per_message_deflate=deflate,
                            # a client's address is the connection's peer, unless a named proxy passes it on
                            proxy_headers=bool(settings.trusted_proxies),
                            forwarded_allow_ips=list(settings.trusted_proxies) or None,
                            **({"log_config": None} if log_format else {}))
    return uvicorn.Server(config)


def serve(host: str, port: int, db_url: str, settings: Settings, log_level: str = "warning",
          deflate: bool = False, web_dir: str | None = None, log_format: str = "text", bus: str | None = None,
          advertise: str | None = None, lease_seconds: float = 10.0) -> None:
    """Run the server. ``bus`` (a ``redis://`` URL) makes this one of several processes sharing the database:
    ``advertise`` is the base URL its seats are sent to (default ``http://HOST:PORT``)."""
    from deltav.core.heap import freeze_startup
    from deltav.server import logs
    # the database driver runs in a thread: hand the interpreter over to it quickly when it has a result
    sys.setswitchinterval(0.0005)
    freeze_startup()  # what start-up made (modules, game data) is never scanned again
    gc.set_threshold(*gc_thresholds(os.environ.get("DELTAV_GC_THRESHOLDS")))
    sock = bind(host, port)
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    if bus:
        from deltav.server.cluster import ClusterConfig

        settings.cluster = ClusterConfig(bus, advertise or f"http://{shown}:{actual}", lease_seconds)
    logs.configure(log_format, log_level, settings.cluster.node if settings.cluster else None)
    print(f"deltav server on http://{shown}:{actual}/  (database {db_url}; Ctrl-C stops it)", flush=True)
    server = make_server(sock, db_url, settings, log_level, deflate, web_dir, log_format)
    server.run(sockets=[sock])
    sys.stdout.flush()
