"""The limits one client may use on a server: sockets, request rates, rooms' lifetimes and chat (docs/server.md,
"Limits"). Every number is a field of :class:`Limits` (``Settings.limits``), so tests run with short ones.

A *client* here is a network address (an IPv6 address counts by its /64, what one subscriber usually holds), as
uvicorn sees it: the peer of the TCP connection, or, for the proxies named by ``deltav serve --trusted-proxy``, the
``X-Forwarded-For`` address they pass on. Without accounts that is all a server can tell clients apart by.

This module owns the numbers, the address key and the token buckets; ``app`` applies them to routes and sockets,
``rooms`` to chat, suggestions and spectators, ``hub`` to room expiry.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field

#: Requests per second and burst, per address, for each class of route (``route_class``).
RATES: dict[str, tuple[float, int]] = {
    "create": (0.2, 10),  # POST /rooms: 12 a minute, 10 at once
    "join": (1.0, 10),  # POST /rooms/{code}/join
    "list": (2.0, 10),  # GET /rooms (the lists)
    "replay": (5.0, 20),  # GET /rooms/{code}/replay and /record (a replay is built on a thread)
    "review": (2.0, 20),  # POST /rooms/{code}/review (starts a review on the bot workers) and GET (its progress)
    "socket": (2.0, 20),  # WebSocket connections opened
    "mcp": (10.0, 30),  # /mcp/ (each call may open a socket and make HTTP requests here)
    "read": (50.0, 200),  # everything else: pages, assets, GET /rooms/{code}, /games, /healthz, /metrics...
    "queue": (5.0, 30),  # /queue (quick match: joining, polling, cancelling)
    "miss": (10 / 60, 20),  # room codes that name no room (a 404, a socket closed 4004): guessing codes is slow
}


@dataclass
class Limits:
    outbox_bytes: int = 1024 * 1024  # characters queued to one socket before it is dropped (close 4008)
    close_seconds: float = 5.0  # a socket told to close that has not closed by then is aborted
    spectators_per_room: int = 100  # spectator sockets of one room (seats are never refused)
    sockets_per_address: int = 32  # open WebSockets from one address, seats and spectators together
    rates: dict[str, tuple[float, int]] = field(default_factory=lambda: dict(RATES))
    open_room_seconds: float = 24 * 3600.0  # an open room whose free seats nobody took for this long expires
    idle_room_seconds: float = 7 * 24 * 3600.0  # a live room with no move and no socket for this long expires
    finished_unload_seconds: float = 600.0  # a finished room nobody watches is unloaded from memory (one process)
    sweep_seconds: float = 60.0  # how often the hub looks for rooms to expire
    chat_per_second: float = 0.5  # chat lines per seat (30 a minute)...
    chat_burst: int = 5  # ...with bursts of this many
    suggest_per_second: float = 4.0  # suggest requests per seat (bots' candidates, hints, plans; 240 a minute)...
    suggest_burst: int = 40  # ...with bursts of this many
    chat_kept: int = 200  # chat lines kept per match (older ones are deleted)
    max_buckets: int = 100_000  # addresses remembered by the rate limiter (the idlest are forgotten first)
    queue_per_client: int = 1  # quick-match queue entries one address may hold at a time
    queue_entries: int = 10_000  # quick-match queue entries in all (the queue is refused beyond: queue_full)


    @classmethod
    def for_load_tests(cls) -> Limits:
        """No limit per address (``deltav serve --no-client-limits``): every client of a load test shares one
        address. Never on a server strangers reach."""
        return cls(rates={k: (1e9, 10**9) for k in RATES}, sockets_per_address=10**9, queue_per_client=10**9)


def duration_words(seconds: float) -> str:
    if seconds >= 86400 and seconds % 3600 == 0:
        days = seconds / 86400
        return f"{days:g} day{'s' if days != 1 else ''}" if days == int(days) else f"{seconds / 3600:g} hours"
    if seconds >= 3600:
        return f"{seconds / 3600:g} hours"
    if seconds >= 60:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} s"


def address_key(host: str | None) -> str:
    """The client an address stands for: an IPv4 address, or an IPv6 address's /64 (``local`` without one)."""
    if not host:
        return "local"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def client_id(key: str) -> str:
    """What the store keeps of a client's address key (for the leaderboard's distinct clients): a hash, so the
    database holds no address in clear (an IPv4 hash is easily reversed: this is tidiness, not anonymity)."""
    import hashlib

    return hashlib.sha256(f"deltav-client:{key}".encode()).hexdigest()[:16]


def client_key(scope: dict) -> str:
    client = scope.get("client")
    return address_key(client[0] if client else None)


class Bucket:
    """A token bucket: ``take()`` answers 0 (allowed) or the seconds until one more is allowed."""

    __slots__ = ("burst", "level", "rate", "t")

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, float(burst)
        self.level, self.t = float(burst), time.monotonic()

    def take(self) -> float:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.t) * self.rate)
        self.t = now
        if self.level < 1.0:
            return (1.0 - self.level) / self.rate
        self.level -= 1.0
        return 0.0

    def full(self) -> bool:
        return self.level + (time.monotonic() - self.t) * self.rate >= self.burst


class RateLimiter:
    """One bucket per (address, route class), the least recently used forgotten beyond ``max_buckets``."""

    def __init__(self, rates: dict[str, tuple[float, int]], max_buckets: int = 100_000):
        self.rates = rates
        self.max_buckets = max_buckets
        self.buckets: OrderedDict[tuple[str, str], Bucket] = OrderedDict()

    def take(self, key: str, kind: str) -> float:
        """0 when allowed, else the seconds to wait."""
        rate, burst = self.rates[kind]
        b = self.buckets.get((key, kind))
        if b is None:
            b = self.buckets[(key, kind)] = Bucket(rate, burst)
            while len(self.buckets) > self.max_buckets:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end((key, kind))
        return b.take()

    def wait(self, key: str, kind: str) -> float:
        """The seconds until one more of ``kind`` is allowed (0: now), taking nothing."""
        b = self.buckets.get((key, kind))
        if b is None:
            return 0.0
        level = min(b.burst, b.level + (time.monotonic() - b.t) * b.rate)
        return 0.0 if level >= 1.0 else (1.0 - level) / b.rate

    @staticmethod
    def retry_after(wait: float) -> int:
        return max(1, math.ceil(wait))
