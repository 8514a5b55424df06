"""Scenarios: the battle set-up read from a TOML file (map radius, planets, ships per side with position,
facing, speed, orbit or dock, optional loadout overrides, mines and seekers, the victory objective and the
turn limit), validated at load, and the skirmish builder that makes one from two fleet lists.

Owns: reading and validating scenario files and fleet strings. Must not build game states (state.py does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from deltav.core.errors import ScenarioError
from deltav.games.knighthawks.tables import (
    DEFENSE_CODES,
    WEAPON_CODES,
    need,
    parse_loadout,
    read_toml_text,
    tables,
)

BUILTIN = ("skirmish", "escort", "station_assault", "fleet_battle")
VICTORY_KINDS = ("battle", "exit", "destroy")


@dataclass(frozen=True)
class ShipSpec:
    id: str
    side: int
    cls: str
    name: str
    hex: tuple[int, int]
    facing: int
    speed: int
    weapons: tuple | None = None
    defenses: tuple | None = None
    hp: int | None = None
    dcr: int | None = None
    orbit: tuple[str, bool] | None = None  # planet name, clockwise
    docked: str | None = None


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    summary: str
    radius: int
    turn_limit: int
    first: int
    sides: tuple[str, str]
    victory: dict
    planets: tuple[tuple[str, tuple[int, int]], ...]
    ships: tuple[ShipSpec, ...]
    mines: tuple[tuple[int, str, tuple[int, int]], ...] = field(default=())  # side, kind, hex


def _hex(v: Any, path: str, source: str) -> tuple[int, int]:
    if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise ScenarioError(path, "expected [q, r] integers", source)
    return (v[0], v[1])


def _int(obj: dict, key: str, path: str, source: str, lo: int | None = None, default: Any = None) -> int:
    if key not in obj and default is not None:
        return default
    v = need(obj, key, int, path, source)
    if lo is not None and v < lo:
        raise ScenarioError(f"{path}.{key}" if path else key, f"must be >= {lo}", source)
    return v


def parse_scenario(data: dict, source: str) -> Scenario:
    t = tables()
    sid = need(data, "id", str, "", source)
    title = need(data, "title", str, "", source)
    summary = data.get("summary", "")
    radius = _int(data, "map_radius", "", source, lo=3)
    limit = _int(data, "turn_limit", "", source, lo=1)
    first = _int(data, "first", "", source, lo=0, default=0)
    if first > 1:
        raise ScenarioError("first", "must be 0 or 1", source)
    sides = need(data, "sides", list, "", source)
    if len(sides) != 2 or not all(isinstance(s, str) for s in sides):
        raise ScenarioError("sides", "expected two side names", source)
    victory = need(data, "victory", dict, "", source)
    kind = need(victory, "kind", str, "victory", source)
    if kind not in VICTORY_KINDS:
        raise ScenarioError("victory.kind", f"unknown kind (known: {', '.join(VICTORY_KINDS)})", source)
    planets = []
    names = set()
    for i, p in enumerate(data.get("planets", [])):
        name = need(p, "name", str, f"planets[{i}]", source)
        if name in names:
            raise ScenarioError(f"planets[{i}].name", "duplicate planet name", source)
        names.add(name)
        h = _hex(need(p, "hex", list, f"planets[{i}]", source), f"planets[{i}].hex", source)
        planets.append((name, h))
    planet_hexes = {h for _, h in planets}
    ships = []
    ids = set()
    raw_ships = need(data, "ships", list, "", source)
    for i, s in enumerate(raw_ships):
        p = f"ships[{i}]"
        shid = need(s, "id", str, p, source)
        if shid in ids:
            raise ScenarioError(f"{p}.id", f"duplicate ship id {shid!r}", source)
        if not shid or shid.startswith("trap-") or shid == "fire":
            raise ScenarioError(f"{p}.id", "ship ids must be non-empty and not 'fire' or 'trap-...' (used for "
                                "mines, seekers and fires)", source)
        ids.add(shid)
        side = _int(s, "side", p, source, lo=0)
        if side > 1:
            raise ScenarioError(f"{p}.side", "must be 0 or 1", source)
        cls = need(s, "class", str, p, source)
        if cls not in t.classes:
            raise ScenarioError(f"{p}.class", f"unknown class {cls!r} (known: {', '.join(sorted(t.classes))})", source)
        h = _hex(need(s, "hex", list, p, source), f"{p}.hex", source)
        if h in planet_hexes:
            raise ScenarioError(f"{p}.hex", "a ship cannot start in a planet hex", source)
        if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) > radius:
            raise ScenarioError(f"{p}.hex", "outside the map radius", source)
        facing = _int(s, "facing", p, source, lo=0, default=0)
        if facing > 5:
            raise ScenarioError(f"{p}.facing", "must be 0..5", source)
        speed = _int(s, "speed", p, source, lo=0, default=0)
        weapons = parse_loadout(s["weapons"], WEAPON_CODES, f"{p}.weapons", source) if "weapons" in s else None
        defenses = parse_loadout(s["defenses"], DEFENSE_CODES, f"{p}.defenses", source) if "defenses" in s else None
        hp = _int(s, "hp", p, source, lo=1) if "hp" in s else None
        dcr = _int(s, "dcr", p, source, lo=0) if "dcr" in s else None
        orbit = None
        if "orbit" in s:
            o = need(s, "orbit", dict, p, source)
            pname = need(o, "planet", str, f"{p}.orbit", source)
            match = [ph for n, ph in planets if n == pname]
            if not match:
                raise ScenarioError(f"{p}.orbit.planet", f"no planet {pname!r}", source)
            if max(abs(h[0] - match[0][0]), abs(h[1] - match[0][1]), abs(h[0] + h[1] - match[0][0] - match[0][1])) != 1:
                raise ScenarioError(f"{p}.hex", "an orbiting ship must start next to its planet", source)
            cw = o.get("clockwise", True)
            if not isinstance(cw, bool):
                raise ScenarioError(f"{p}.orbit.clockwise", "expected a boolean", source)
            orbit = (pname, cw)
            if speed:
                raise ScenarioError(f"{p}.speed", "an orbiting ship has speed 0", source)
        docked = s.get("docked")
        if docked is not None and not isinstance(docked, str):
            raise ScenarioError(f"{p}.docked", "expected a ship id", source)
        ships.append(ShipSpec(shid, side, cls, s.get("name", shid), h, facing, speed, weapons, defenses, hp, dcr,
                              orbit, docked))
    byid = {s.id: s for s in ships}
    for i, s in enumerate(ships):
        if s.docked is not None:
            host = byid.get(s.docked)
            if host is None:
                raise ScenarioError(f"ships[{i}].docked", f"no ship {s.docked!r}", source)
            if host.side != s.side or host.hex != s.hex:
                raise ScenarioError(f"ships[{i}].docked", "must be a friendly ship in the same hex", source)
            hk = t.classes[host.cls].kind
            if hk not in ("station", "carrier") or (hk == "carrier" and t.classes[s.cls].kind != "fighter"):
                raise ScenarioError(f"ships[{i}].docked", "ships dock at stations; fighters also at carriers", source)
    for side in (0, 1):
        if not any(s.side == side for s in ships):
            raise ScenarioError("ships", f"side {side} has no ships", source)
    if kind in ("exit", "destroy"):
        target = need(victory, "ship", str, "victory", source)
        if target not in byid:
            raise ScenarioError("victory.ship", f"no ship {target!r}", source)
        edge = victory.get("edge", "any")
        if edge not in ("any", "east", "west"):
            raise ScenarioError("victory.edge", "expected any, east or west", source)
    mines = []
    for i, m in enumerate(data.get("mines", [])):
        p = f"mines[{i}]"
        side = _int(m, "side", p, source, lo=0)
        if side > 1:
            raise ScenarioError(f"{p}.side", "must be 0 or 1", source)
        kind_m = m.get("kind", "M")
        if kind_m not in ("M", "S"):
            raise ScenarioError(f"{p}.kind", "expected M (mines) or S (seeker)", source)
        h = _hex(need(m, "hex", list, p, source), f"{p}.hex", source)
        if h in planet_hexes:
            raise ScenarioError(f"{p}.hex", "cannot be a planet hex", source)
        if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) > radius:
            raise ScenarioError(f"{p}.hex", "outside the map radius", source)
        if kind_m == "M" and any(k == "M" and x == h for _s, k, x in mines):
            raise ScenarioError(f"{p}.hex", "only one mine pattern per hex", source)
        mines.append((side, kind_m, h))
    return Scenario(sid, title, summary, radius, limit, first, (sides[0], sides[1]), dict(victory), tuple(planets),
                    tuple(ships), tuple(mines))


@lru_cache(maxsize=16)
def builtin(name: str) -> Scenario:
    text = resources.files("deltav.games.knighthawks").joinpath("data").joinpath("scenarios").joinpath(
        f"{name}.toml").read_text(encoding="utf-8")
    return parse_scenario(read_toml_text(text, f"{name}.toml"), f"{name}.toml")


def load(name: str) -> Scenario:
    """A built-in scenario by id, or a scenario file by path."""
    if name in BUILTIN:
        return builtin(name)
    shown = repr(name if len(name) <= 200 else name[:200] + "...")
    unknown = f"{shown} is neither a built-in scenario id nor a readable file (built-in: {', '.join(BUILTIN)})"
    if not name or len(name) > 4096 or "\x00" in name:
        raise ScenarioError("scenario", unknown)
    try:
        path = Path(name)
        if not path.is_file():
            raise ScenarioError("scenario", unknown)
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError):  # too long, a lone surrogate, not UTF-8 (UnicodeError is a ValueError) ...
        raise ScenarioError("scenario", f"{unknown}; cannot read it as a UTF-8 file") from None
    return parse_scenario(read_toml_text(text, str(path)), str(path))


def parse_fleet(text: str, field_name: str) -> list[str]:
    """A fleet string: class ids separated by commas, each optionally prefixed by a count ``2*fighter``."""
    out = []
    classes = tables().classes
    for i, part in enumerate(p.strip() for p in text.split(",")):
        if not part:
            continue
        n = 1
        if "*" in part:
            a, b = part.split("*", 1)
            try:
                n = int(a)
            except ValueError:
                raise ScenarioError(f"{field_name}[{i}]", f"bad count in {part!r}") from None
            part = b.strip()
        if part not in classes:
            raise ScenarioError(f"{field_name}[{i}]", f"unknown class {part!r} (known: {', '.join(sorted(classes))})")
        if not 1 <= n <= 12:
            raise ScenarioError(f"{field_name}[{i}]", "count must be 1..12")
        out.extend([part] * n)
    if not out:
        raise ScenarioError(field_name, "a fleet needs at least one ship")
    if len(out) > 16:
        raise ScenarioError(field_name, "at most 16 ships per side")
    return out


def skirmish(base: Scenario, fleet0: str, fleet1: str) -> Scenario:
    """The skirmish builder: the base scenario's map with the two fleets placed facing each other, side 0 on
    the west edge heading east, side 1 on the east edge heading west, at speed 2 (stations stand still)."""
    ships = []
    for side, text in ((0, fleet0), (1, fleet1)):
        classes = parse_fleet(text, f"fleet{side}")
        q0 = -(base.radius - 4) if side == 0 else base.radius - 4
        for k, cls in enumerate(classes):
            q = q0 + (k // 5) * (1 if side == 0 else -1)
            r = -q // 2 + (0, 1, -1, 2, -2)[k % 5] * 2
            h = (q, r)
            if h in {ph for _, ph in base.planets}:
                h = (q, r + 1)
            kind = tables().classes[cls].kind
            ships.append(ShipSpec(f"{'ab'[side]}{k + 1}-{cls}", side, cls, f"{cls} {k + 1}", h, 0 if side == 0 else 3,
                                  0 if kind == "station" else 2))
    return Scenario(base.id, base.title, base.summary, base.radius, base.turn_limit, base.first, base.sides,
                    dict(base.victory), base.planets, tuple(ships), base.mines)
