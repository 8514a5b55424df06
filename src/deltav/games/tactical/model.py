"""The mutable pieces of a Delta-V tactical state: ships, ordnance and per-player records, as small ``__slots__``
objects with hand-written ``copy()`` and JSON forms (search clones them millions of times).

This module owns the data layout only; the rules live in movement.py, the state machine in state.py.
"""

from __future__ import annotations

import re

from .shiptypes import ShipType, ship_types

Hex = tuple[int, int]


_HKEYS: dict = {}


def hkey(h: Hex) -> str:
    try:
        k = _HKEYS.get(h)
    except TypeError:  # a list
        return f"{h[0]},{h[1]}"
    if k is None:
        k = f"{h[0]},{h[1]}"
        if len(_HKEYS) < 100_000:
            _HKEYS[h] = k
    return k


def hparse(s: str) -> Hex:
    """A trusted ``"q,r"`` key back to a hex (keys the engine wrote; untrusted text goes through
    :func:`parse_hex_key` first)."""
    a, b = s.split(",")
    return (int(a), int(b))


_HEX_KEY = re.compile(r"-?[0-9]{1,6},-?[0-9]{1,6}")


def parse_hex_key(s: object) -> Hex | None:
    """An untrusted hex key: ``"q,r"`` with two plain decimal integers (an optional minus sign, no spaces,
    signs, underscores or leading zeros beyond the integer's own digits), or None if it is not one."""
    if type(s) is not str or _HEX_KEY.fullmatch(s) is None:
        return None
    h = hparse(s)
    return h if hkey(h) == s else None


class Ship:
    __slots__ = (
        "id", "owner", "type", "pos", "vel", "fuel", "pending", "landed", "destroyed", "cause", "disabled",
        "overload_used", "cargo_used", "passengers", "nukes", "detected", "heroic", "control", "resupplied",
        "path", "hidden", "fugitive", "revealed", "carrying_base", "emplaced",
        "view_rec",  # visibility.py's last record template of the ship, with the values it was made of (its only user)
    )

    def __init__(self, sid: str, owner: int, stype: ShipType, pos: Hex, vel: Hex = (0, 0), fuel: int | None = None):
        self.id = sid
        self.owner = owner
        self.type = stype
        self.pos = pos
        self.vel = vel
        self.fuel = stype.fuel if fuel is None else fuel
        self.pending: tuple[int, ...] = ()
        self.landed = False
        self.destroyed = False
        self.cause: str | None = None
        self.disabled = 0
        self.overload_used = False
        self.cargo_used = 0
        self.passengers = 0
        self.nukes = 0  # nukes launched by a non-warship since its last resupply
        self.detected = False
        self.heroic = False
        self.control = "own"  # "own", "captured" or "surrendered"
        self.resupplied = False
        self.path: tuple[Hex, ...] = ()  # contact hexes of this player-turn's move (start included)
        self.hidden = False  # hidden identity (Escape)
        self.fugitive = False
        self.revealed = False
        self.carrying_base = False
        self.emplaced = False  # an emplaced orbital base (immobile)
        self.view_rec = None

    def copy(self) -> Ship:
        s = Ship.__new__(Ship)
        s.id = self.id
        s.owner = self.owner
        s.type = self.type
        s.pos = self.pos
        s.vel = self.vel
        s.fuel = self.fuel
        s.pending = self.pending
        s.landed = self.landed
        s.destroyed = self.destroyed
        s.cause = self.cause
        s.disabled = self.disabled
        s.overload_used = self.overload_used
        s.cargo_used = self.cargo_used
        s.passengers = self.passengers
        s.nukes = self.nukes
        s.detected = self.detected
        s.heroic = self.heroic
        s.control = self.control
        s.resupplied = self.resupplied
        s.path = self.path
        s.hidden = self.hidden
        s.fugitive = self.fugitive
        s.revealed = self.revealed
        s.carrying_base = self.carrying_base
        s.emplaced = self.emplaced
        s.view_rec = self.view_rec
        return s

    @property
    def active(self) -> bool:
        """On the map and flying (not destroyed, not landed)."""
        return not self.destroyed and not self.landed

    def free_cargo(self) -> int | None:
        if self.type.cargo is None:
            return None
        return self.type.cargo - self.cargo_used - self.passengers

    def to_json(self, identity: bool = True) -> dict:
        """The ship's record (saved states and views: a fresh dict and fresh lists on every call); ``identity``
        False hides whether a hidden-identity ship carries the fugitives."""
        path = self.path
        out = {
            "id": self.id,
            "owner": self.owner,
            "type": self.type.name,
            "position": [self.pos[0], self.pos[1]],
            "velocity": [self.vel[0], self.vel[1]],
            "fuel": self.fuel,
            "pending_gravity": list(self.pending),
            "landed": self.landed,
            "destroyed": self.destroyed,
            "cause": self.cause,
            "disabled": self.disabled,
            "overload_used": self.overload_used,
            "cargo_used": self.cargo_used,
            "passengers": self.passengers,
            "nukes": self.nukes,
            "detected": self.detected,
            "heroic": self.heroic,
            "control": self.control,
            "resupplied": self.resupplied,
            "path": list(map(list, path)) if path else [],
            "carrying_base": self.carrying_base,
            "emplaced": self.emplaced,
        }
        if self.hidden:
            out["hidden_identity"] = True
            out["revealed"] = self.revealed
            out["identity"] = ("fugitives" if self.fugitive else "decoy") if identity else "unknown"
        return out

    @classmethod
    def from_json(cls, o: dict) -> Ship:
        s = cls(o["id"], o["owner"], ship_types()[o["type"]], tuple(o["position"]), tuple(o["velocity"]), 0)
        s.fuel = o["fuel"]
        s.pending = tuple(o["pending_gravity"])
        s.landed = o["landed"]
        s.destroyed = o["destroyed"]
        s.cause = o["cause"]
        s.disabled = o["disabled"]
        s.overload_used = o["overload_used"]
        s.cargo_used = o["cargo_used"]
        s.passengers = o["passengers"]
        s.nukes = o["nukes"]
        s.detected = o["detected"]
        s.heroic = o["heroic"]
        s.control = o["control"]
        s.resupplied = o["resupplied"]
        s.path = tuple(tuple(h) for h in o["path"])
        s.carrying_base = o["carrying_base"]
        s.emplaced = o["emplaced"]
        if o.get("hidden_identity"):
            s.hidden = True
            s.revealed = o["revealed"]
            s.fugitive = o["identity"] == "fugitives"
        return s


class Ordnance:
    __slots__ = ("id", "owner", "kind", "pos", "vel", "pending", "turns", "ship", "path", "destroyed", "detected")

    def __init__(self, oid: str, owner: int, kind: str, pos: Hex, vel: Hex, turns: int, ship: str,
                 detected: bool = True):
        self.id = oid
        self.owner = owner
        self.kind = kind
        self.pos = pos
        self.vel = vel
        self.pending: tuple[int, ...] = ()
        self.turns = turns
        self.ship = ship
        self.path: tuple[Hex, ...] = ()
        self.destroyed = False
        self.detected = detected  # has the enemy detected it (ruling 7, ``ordnance_detection``)?

    def copy(self) -> Ordnance:
        o = Ordnance.__new__(Ordnance)
        o.id = self.id
        o.owner = self.owner
        o.kind = self.kind
        o.pos = self.pos
        o.vel = self.vel
        o.pending = self.pending
        o.turns = self.turns
        o.ship = self.ship
        o.path = self.path
        o.destroyed = self.destroyed
        o.detected = self.detected
        return o

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "owner": self.owner,
            "kind": self.kind,
            "position": list(self.pos),
            "velocity": list(self.vel),
            "pending_gravity": list(self.pending),
            "turns_remaining": self.turns,
            "launched_by": self.ship,
            "detected": self.detected,
        }

    @classmethod
    def from_json(cls, o: dict) -> Ordnance:
        x = cls(o["id"], o["owner"], o["kind"], tuple(o["position"]), tuple(o["velocity"]), o["turns_remaining"],
                o["launched_by"], o["detected"])
        x.pending = tuple(o["pending_gravity"])
        return x


class Player:
    __slots__ = ("home", "target", "escape_wins", "bases", "credits", "visited", "ready", "spent",
                 "view_rec")  # visibility.py's last record of the player, with the values it was made of (its only user)

    def __init__(self, home: str, target: str, escape_wins: bool, bases: tuple[Hex, ...], credits: int):
        self.home = home
        self.target = target
        self.escape_wins = escape_wins
        self.bases = bases
        self.credits = credits
        self.visited: tuple[str, ...] = ()
        self.ready = False
        self.spent = 0
        self.view_rec = None

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.home = self.home
        p.target = self.target
        p.escape_wins = self.escape_wins
        p.bases = self.bases
        p.credits = self.credits
        p.visited = self.visited
        p.ready = self.ready
        p.spent = self.spent
        p.view_rec = self.view_rec
        return p

    def to_json(self) -> dict:
        return {
            "home": self.home,
            "target": self.target,
            "escape_wins": self.escape_wins,
            "bases": [hkey(h) for h in self.bases],
            "credits": self.credits,
            "spent": self.spent,
            "visited": list(self.visited),
            "ready": self.ready,
        }

    @classmethod
    def from_json(cls, o: dict) -> Player:
        p = cls(o["home"], o["target"], o["escape_wins"], tuple(hparse(h) for h in o["bases"]), o["credits"])
        p.visited = tuple(o["visited"])
        p.ready = o["ready"]
        p.spent = o["spent"] or 0
        return p
