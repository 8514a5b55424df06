"""The solar-system map of Delta-V tactical: loading ``data/map.json`` (or a user map), validating it, and the
fast lookup tables the rules use (gravity per hex, body surfaces, bases, asteroids, bounds).

This module owns terrain only: it knows nothing of ships, turns or scenarios. A malformed map raises
``ScenarioError(field_path, reason)``. Hexes not listed in the file are empty space.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from deltav.core.errors import ScenarioError

Hex = tuple[int, int]
TERRAINS = ("space", "asteroid", "planetSurface", "sunSurface")
STRENGTHS = ("full", "weak")


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


# --- loading and validation ------------------------------------------------------------------------------


def _int(v: Any, path: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScenarioError(path, f"expected an integer, got {v!r}")
    return v


def _hex(v: Any, path: str) -> Hex:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise ScenarioError(path, f"expected [q, r], got {v!r}")
    return (_int(v[0], f"{path}[0]"), _int(v[1], f"{path}[1]"))


def parse_map(obj: Any, source: str | None = None) -> GameMap:
    """Validate a map document (the JSON form of ``data/map.json``) and build its lookup tables."""
    try:
        return _parse_map(obj)
    except ScenarioError as exc:
        if source and exc.source is None:
            raise ScenarioError(exc.field, exc.reason, source) from None
        raise


def _parse_map(obj: Any) -> GameMap:
    if not isinstance(obj, dict):
        raise ScenarioError("map", "expected an object")
    b = obj.get("bounds")
    if not isinstance(b, dict):
        raise ScenarioError("bounds", "missing or not an object")
    bounds = tuple(_int(b.get(k), f"bounds.{k}") for k in ("minQ", "maxQ", "minR", "maxR"))
    if bounds[0] > bounds[1] or bounds[2] > bounds[3]:
        raise ScenarioError("bounds", "min above max")
    margin = _int(obj.get("off_map_margin", 2), "off_map_margin")
    if margin < 0:
        raise ScenarioError("off_map_margin", "must be >= 0")
    raw_bodies = obj.get("bodies")
    if not isinstance(raw_bodies, list) or not raw_bodies:
        raise ScenarioError("bodies", "expected a non-empty list")
    bodies: list[Body] = []
    names: set[str] = set()
    for i, rb in enumerate(raw_bodies):
        p = f"bodies[{i}]"
        if not isinstance(rb, dict):
            raise ScenarioError(p, "expected an object")
        name = rb.get("name")
        if not isinstance(name, str) or not name:
            raise ScenarioError(f"{p}.name", "expected a non-empty string")
        if name in names:
            raise ScenarioError(f"{p}.name", f"duplicate body {name!r}")
        names.add(name)
        gravity = rb.get("gravity", "none")
        if gravity not in ("full", "weak", "none"):
            raise ScenarioError(f"{p}.gravity", f"expected full, weak or none, got {gravity!r}")
        destructive = rb.get("destructive", False)
        if not isinstance(destructive, bool):
            raise ScenarioError(f"{p}.destructive", "expected a boolean")
        radius = _int(rb.get("surface_radius", 0), f"{p}.surface_radius")
        bases = tuple(_hex(h, f"{p}.bases[{j}]") for j, h in enumerate(rb.get("bases", [])))
        bodies.append(Body(name, _hex(rb.get("center"), f"{p}.center"), radius, gravity, destructive, bases))
    stations: dict[str, tuple[Hex, ...]] = {}
    for i, st in enumerate(obj.get("stations", [])):
        p = f"stations[{i}]"
        if not isinstance(st, dict) or not isinstance(st.get("name"), str):
            raise ScenarioError(p, "expected an object with a name")
        if st["name"] in names or st["name"] in stations:
            raise ScenarioError(f"{p}.name", f"duplicate name {st['name']!r}")
        stations[st["name"]] = tuple(_hex(h, f"{p}.bases[{j}]") for j, h in enumerate(st.get("bases", [])))
    base_owners = names | set(stations)
    raw_hexes = obj.get("hexes")
    if not isinstance(raw_hexes, list):
        raise ScenarioError("hexes", "expected a list")
    seen: set[Hex] = set()
    hexes: list[dict] = []
    allowed = {"q", "r", "terrain", "body", "gravity", "base", "destructive"}
    for i, rh in enumerate(raw_hexes):
        p = f"hexes[{i}]"
        if not isinstance(rh, dict):
            raise ScenarioError(p, "expected an object")
        extra = set(rh) - allowed
        if extra:
            raise ScenarioError(f"{p}.{sorted(extra)[0]}", "unknown field")
        key = (_int(rh.get("q"), f"{p}.q"), _int(rh.get("r"), f"{p}.r"))
        if key in seen:
            raise ScenarioError(p, f"duplicate hex {key}")
        seen.add(key)
        terrain = rh.get("terrain")
        if terrain not in TERRAINS:
            raise ScenarioError(f"{p}.terrain", f"expected one of {list(TERRAINS)}, got {terrain!r}")
        rec: dict = {"q": key[0], "r": key[1], "terrain": terrain}
        if "body" in rh:
            if rh["body"] not in names:
                raise ScenarioError(f"{p}.body", f"unknown body {rh['body']!r}")
            if terrain not in ("planetSurface", "sunSurface"):
                raise ScenarioError(f"{p}.body", "only surface hexes name a body")
            rec["body"] = rh["body"]
        elif terrain in ("planetSurface", "sunSurface"):
            raise ScenarioError(f"{p}.body", "a surface hex must name its body")
        if "gravity" in rh:
            g = rh["gravity"]
            if not isinstance(g, dict):
                raise ScenarioError(f"{p}.gravity", "expected an object")
            if g.get("body") not in names:
                raise ScenarioError(f"{p}.gravity.body", f"unknown body {g.get('body')!r}")
            d = _int(g.get("dir"), f"{p}.gravity.dir")
            if not 0 <= d <= 5:
                raise ScenarioError(f"{p}.gravity.dir", "expected a direction 0..5")
            if g.get("strength") not in STRENGTHS:
                raise ScenarioError(f"{p}.gravity.strength", f"expected full or weak, got {g.get('strength')!r}")
            rec["gravity"] = {"body": g["body"], "dir": d, "strength": g["strength"]}
        if "base" in rh:
            if rh["base"] not in base_owners:
                raise ScenarioError(f"{p}.base", f"unknown body or station {rh['base']!r}")
            rec["base"] = rh["base"]
        hexes.append(rec)
    by_key = {(h["q"], h["r"]): h for h in hexes}
    for i, b in enumerate(bodies):
        for j, h in enumerate(b.bases):
            if by_key.get(h, {}).get("base") != b.name:
                raise ScenarioError(f"bodies[{i}].bases[{j}]", f"hex {h} is not a base hex of {b.name}")
        has = any(g["gravity"]["body"] == b.name for g in hexes if "gravity" in g)
        if has != b.has_gravity:
            raise ScenarioError(f"bodies[{i}].gravity", f"{b.gravity!r} disagrees with the gravity hexes")
    for name, hs in stations.items():
        for j, h in enumerate(hs):
            if by_key.get(h, {}).get("base") != name:
                raise ScenarioError(f"stations[{name}].bases[{j}]", f"hex {h} is not a base hex of {name}")
    listed = {h for b in bodies for h in b.bases} | {h for hs in stations.values() for h in hs}
    for h in hexes:
        if "base" in h and (h["q"], h["r"]) not in listed:
            raise ScenarioError("hexes", f"base hex {(h['q'], h['r'])} is not listed by its body")
    return GameMap(bodies, stations, hexes, bounds, margin)


def load_map_file(path: str | Path) -> GameMap:
    p = Path(path)
    try:
        obj = json.loads(p.read_text())
    except (OSError, ValueError) as exc:
        raise ScenarioError("map", f"cannot read: {exc}", str(p)) from None
    return parse_map(obj, str(p))


@lru_cache(maxsize=1)
def default_map() -> GameMap:
    """The shipped map (238 hexes), loaded and validated once."""
    text = resources.files("deltav.games.tactical").joinpath("data/map.json").read_text()
    return parse_map(json.loads(text), "data/map.json")
