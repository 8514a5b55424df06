"""The solar-system map of Delta-V tactical: loading ``data/map.json`` (or a user map), validating it, and the
fast lookup tables the rules use (gravity per hex, body surfaces, bases, asteroids, bounds).

This module owns terrain only: it knows nothing of ships, turns or scenarios. A malformed map raises
``ScenarioError(field_path, reason, file)`` (read through :mod:`deltav.core.datafile`). Hexes not listed in the
file are empty space.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn, get_args

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.core.shape import MinLen, Range

Hex = tuple[int, int]
Terrain = Literal["space", "asteroid", "planetSurface", "sunSurface"]
TERRAINS: tuple[str, ...] = get_args(Terrain)


class Body:
    """A sun, planet or moon: its centre, surface hexes, base hexes (in map order) and gravity kind."""

    __slots__ = ("name", "center", "surface_radius", "gravity", "destructive", "bases", "surface")

    def __init__(self, name, center, surface_radius, gravity, destructive, bases):
        self.name: str = name
        self.center: Hex = center
        self.surface_radius: int = surface_radius
        self.gravity: str = gravity  # "full", "weak" or "none"
        self.destructive: bool = destructive
        self.bases: tuple[Hex, ...] = bases
        self.surface: tuple[Hex, ...] = ()

    @property
    def has_gravity(self) -> bool:
        return self.gravity != "none"


class GameMap:
    """Lookup tables over the map. Every table is keyed by ``(q, r)`` tuples.

    - ``gravity[h] = (direction, body_name, weak)`` for gravity hexes;
    - ``surface[h] = body_name`` for body hexes (planet, moon or sun surface); ``destructive`` is the set of
      sun hexes;
    - ``base[h] = body_name`` for base hexes (planetary, moon, asteroid or clandestine bases);
    - ``asteroids`` the set of asteroid hexes;
    - ``bounds = (min_q, max_q, min_r, max_r)`` and ``margin`` (a ship or ordnance ending a move more than
      ``margin`` hexes outside the bounds is eliminated).
    """

    def __init__(self, bodies: list[Body], stations: dict[str, tuple[Hex, ...]], hexes: list[dict], bounds, margin):
        self.bodies: dict[str, Body] = {b.name: b for b in bodies}
        self.body_order: tuple[str, ...] = tuple(b.name for b in bodies)
        self.gravity: dict[Hex, tuple[int, str, bool]] = {}
        self.surface: dict[Hex, str] = {}
        self.destructive: set[Hex] = set()
        self.base: dict[Hex, str] = {}
        self.asteroids: set[Hex] = set()
        self.terrain: dict[Hex, str] = {}
        self.hex_records = hexes
        for h in hexes:
            key = (h["q"], h["r"])
            self.terrain[key] = h["terrain"]
            if h["terrain"] == "asteroid":
                self.asteroids.add(key)
            if "body" in h:
                self.surface[key] = h["body"]
                if h["terrain"] == "sunSurface" or self.bodies[h["body"]].destructive:
                    self.destructive.add(key)
            if "gravity" in h:
                g = h["gravity"]
                self.gravity[key] = (g["dir"], g["body"], g["strength"] == "weak")
            if "base" in h:
                self.base[key] = h["base"]
        for b in bodies:
            b.surface = tuple(sorted(k for k, n in self.surface.items() if n == b.name))
        self.stations = stations
        #: every base hex of each base owner (bodies and stations) in map order
        self.bases_of: dict[str, tuple[Hex, ...]] = {b.name: b.bases for b in bodies}
        self.bases_of.update(stations)
        self.bounds: tuple[int, int, int, int] = bounds
        self.margin: int = margin
        lo_q, hi_q, lo_r, hi_r = bounds
        self.elim_bounds = (lo_q - margin, hi_q + margin, lo_r - margin, hi_r + margin)
        #: planetary-defense fire zone of each base on a body with gravity: that body's gravity hexes within 1
        self.fire_zone: dict[Hex, frozenset[Hex]] = {}
        for h, body in self.base.items():
            if body in self.bodies and self.bodies[body].has_gravity:
                self.fire_zone[h] = frozenset(
                    g for g, (_, gb, _) in self.gravity.items()
                    if gb == body and max(abs(g[0] - h[0]), abs(g[1] - h[1]), abs(g[0] + g[1] - h[0] - h[1])) <= 1
                )
        self.weak_hexes: tuple[Hex, ...] = tuple(sorted(k for k, g in self.gravity.items() if g[2]))
        self._weak_dist: dict[Hex, int] = {}
        #: body -> set of its gravity hexes
        self.gravity_hexes_of: dict[str, frozenset[Hex]] = {
            name: frozenset(k for k, g in self.gravity.items() if g[1] == name) for name in self.bodies
        }
        #: every base hex of each base owner in the reference game's hex order (ruling 8's alternative)
        self.reference_bases_of: dict[str, tuple[Hex, ...]] = _reference_base_order(self)

    def weak_within(self, h: Hex, radius: int) -> bool:
        """Is some weak-gravity hex within ``radius`` of ``h``? (Distances are cached per hex.)"""
        d = self._weak_dist.get(h)
        if d is None:
            q, r = h
            d = 1 << 30
            for wq, wr in self.weak_hexes:
                dq = wq - q
                dr = wr - r
                e = max(abs(dq), abs(dr), abs(dq + dr))
                if e < d:
                    d = e
            if len(self._weak_dist) < 100_000:
                self._weak_dist[h] = d
        return d <= radius

    def body_has_gravity(self, name: str) -> bool:
        b = self.bodies.get(name)
        return b is not None and b.has_gravity

    def off_map(self, h: Hex) -> bool:
        lo_q, hi_q, lo_r, hi_r = self.elim_bounds
        return h[0] < lo_q or h[0] > hi_q or h[1] < lo_r or h[1] > hi_r

    def to_json(self) -> dict:
        lo_q, hi_q, lo_r, hi_r = self.bounds
        return {
            "bounds": {"minQ": lo_q, "maxQ": hi_q, "minR": lo_r, "maxR": hi_r},
            "off_map_margin": self.margin,
            "bodies": [
                {
                    "name": b.name,
                    "center": list(b.center),
                    "surface_radius": b.surface_radius,
                    "gravity": b.gravity,
                    "destructive": b.destructive,
                    "bases": [list(h) for h in b.bases],
                }
                for b in self.bodies.values()
            ],
            "stations": [{"name": n, "bases": [list(h) for h in hs]} for n, hs in self.stations.items()],
            "hexes": [dict(h) for h in self.hex_records],
        }


# --- the file layout (read by core.datafile) and the cross-field checks -------------------------------------


@dataclass(frozen=True)
class BoundsFile:
    minQ: int  # noqa: N815 (the file's key)
    maxQ: int  # noqa: N815
    minR: int  # noqa: N815
    maxR: int  # noqa: N815


@dataclass(frozen=True, kw_only=True)
class BodyFile:
    name: Annotated[str, MinLen(1)]
    center: Hex
    surface_radius: Annotated[int, Range(0)] = 0
    gravity: Literal["full", "weak", "none"] = "none"
    destructive: bool = False
    bases: tuple[Hex, ...] = ()


@dataclass(frozen=True, kw_only=True)
class StationFile:
    name: Annotated[str, MinLen(1)]
    bases: tuple[Hex, ...] = ()


@dataclass(frozen=True)
class GravityFile:
    body: str
    dir: Annotated[int, Range(0, 5)]
    strength: Literal["full", "weak"]


@dataclass(frozen=True, kw_only=True)
class HexFile:
    q: int
    r: int
    terrain: Terrain
    body: str | None = None
    gravity: GravityFile | None = None
    base: str | None = None
    destructive: bool | None = None  # accepted and ignored (the body says whether it destroys)


@dataclass(frozen=True, kw_only=True)
class MapFile:
    format: Literal["deltav-tactical-map/1"] = "deltav-tactical-map/1"
    source: str = ""
    bounds: BoundsFile
    off_map_margin: Annotated[int, Range(0)] = 2
    bodies: Annotated[tuple[BodyFile, ...], MinLen(1)]
    stations: tuple[StationFile, ...] = ()
    hexes: tuple[HexFile, ...]


def _reference_base_order(m: GameMap) -> dict[str, tuple[Hex, ...]]:
    """The bases of each body in the order of the reference's map (its ``findBaseHexes``: the insertion order
    of its hex table). The reference builds the table body by body (map order): the surface (the centre, then
    its rings), the bases (in the listed directions), then the gravity rings (each ring from its SW corner, sides
    E, NE, NW, W, SW, SE; ``hexgrid.ring`` walks them so); a hex keeps the place of its first insertion. So a
    base that an earlier body's gravity ring already created comes first: Mercury's W base (0,3) and Venus'
    (-5,5) lie in Sol's outer ring."""
    from deltav.core.hexgrid import ring

    order: dict[Hex, int] = {}

    def ensure(h: Hex) -> None:
        if h not in order:
            order[h] = len(order)

    for name in m.body_order:
        b = m.bodies[name]
        for k in range(b.surface_radius + 1):
            for h in ring(b.center, k):
                ensure(h)
        for h in b.bases:
            ensure(h)
        grav = m.gravity_hexes_of[name]
        rings = max((_dist(h, b.center) - b.surface_radius for h in grav), default=0)
        for k in range(b.surface_radius + 1, b.surface_radius + rings + 1):
            for h in ring(b.center, k):
                if m.surface.get(h) is None:
                    ensure(h)
    out = {name: tuple(sorted(bases, key=lambda h: order.get(h, len(order)))) for name, bases in m.bases_of.items()}
    return out


def _dist(a: Hex, b: Hex) -> int:
    q = a[0] - b[0]
    r = a[1] - b[1]
    return max(abs(q), abs(r), abs(q + r))


def parse_map(obj: Any, source: str | None = None) -> GameMap:
    """A parsed map document (the JSON form of ``data/map.json``) read, checked and turned into lookup tables;
    a bad field raises ``ScenarioError(field path, reason, source)``."""
    return _check_map(datafile.read_as(MapFile, obj, source), source)


def _check_map(m: MapFile, source: str | None) -> GameMap:
    def fail(field: str, reason: str) -> NoReturn:
        datafile.fail(field, reason, source)

    b = m.bounds
    bounds = (b.minQ, b.maxQ, b.minR, b.maxR)
    if bounds[0] > bounds[1] or bounds[2] > bounds[3]:
        fail("bounds", "min above max")
    bodies: list[Body] = []
    names: set[str] = set()
    for i, rb in enumerate(m.bodies):
        if rb.name in names:
            fail(f"bodies[{i}].name", f"duplicate body {rb.name!r}")
        names.add(rb.name)
        bodies.append(Body(rb.name, rb.center, rb.surface_radius, rb.gravity, rb.destructive, rb.bases))
    stations: dict[str, tuple[Hex, ...]] = {}
    for i, st in enumerate(m.stations):
        if st.name in names or st.name in stations:
            fail(f"stations[{i}].name", f"duplicate name {st.name!r}")
        stations[st.name] = st.bases
    base_owners = names | set(stations)
    seen: set[Hex] = set()
    hexes: list[dict] = []
    for i, rh in enumerate(m.hexes):
        p = f"hexes[{i}]"
        key = (rh.q, rh.r)
        if key in seen:
            fail(p, f"duplicate hex {key}")
        seen.add(key)
        rec: dict = {"q": rh.q, "r": rh.r, "terrain": rh.terrain}
        if rh.body is not None:
            if rh.body not in names:
                fail(f"{p}.body", f"unknown body {rh.body!r}")
            if rh.terrain not in ("planetSurface", "sunSurface"):
                fail(f"{p}.body", "only surface hexes name a body")
            rec["body"] = rh.body
        elif rh.terrain in ("planetSurface", "sunSurface"):
            fail(f"{p}.body", "a surface hex must name its body")
        g = rh.gravity
        if g is not None:
            if g.body not in names:
                fail(f"{p}.gravity.body", f"unknown body {g.body!r}")
            rec["gravity"] = {"body": g.body, "dir": g.dir, "strength": g.strength}
        if rh.base is not None:
            if rh.base not in base_owners:
                fail(f"{p}.base", f"unknown body or station {rh.base!r}")
            rec["base"] = rh.base
        hexes.append(rec)
    by_key = {(h["q"], h["r"]): h for h in hexes}
    for i, body in enumerate(bodies):
        for j, h in enumerate(body.bases):
            if by_key.get(h, {}).get("base") != body.name:
                fail(f"bodies[{i}].bases[{j}]", f"hex {h} is not a base hex of {body.name}")
        has = any(g["gravity"]["body"] == body.name for g in hexes if "gravity" in g)
        if has != body.has_gravity:
            fail(f"bodies[{i}].gravity", f"{body.gravity!r} disagrees with the gravity hexes")
    for i, (name, hs) in enumerate(stations.items()):
        for j, h in enumerate(hs):
            if by_key.get(h, {}).get("base") != name:
                fail(f"stations[{i}].bases[{j}]", f"hex {h} is not a base hex of {name}")
    listed = {h for body in bodies for h in body.bases} | {h for hs in stations.values() for h in hs}
    for i, h in enumerate(hexes):
        if "base" in h and (h["q"], h["r"]) not in listed:
            fail(f"hexes[{i}].base", f"base hex {(h['q'], h['r'])} is not listed by its body")
    return GameMap(bodies, stations, hexes, bounds, m.off_map_margin)


def load_map_file(path: str | Path) -> GameMap:
    """A user's map file (JSON, or TOML by its suffix) read and checked; anything wrong raises ScenarioError."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ScenarioError("(file)", f"cannot read: {exc.__class__.__name__}", str(p)) from None
    return parse_map(datafile.parse(raw, str(p), "toml" if p.suffix.lower() == ".toml" else "json"), str(p))


@lru_cache(maxsize=1)
def default_map() -> GameMap:
    """The shipped map (238 hexes), loaded and validated once."""
    raw = resources.files("deltav.games.tactical").joinpath("data/map.json").read_bytes()
    return parse_map(datafile.parse(raw, "data/map.json"), "data/map.json")
