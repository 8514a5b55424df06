"""Scenarios: the battle set-up read from a TOML file (map radius, planets, ships per side with position,
facing, speed, orbit or dock, optional loadout overrides, mines and seekers, the victory objective and the
turn limit), validated at load, and the skirmish builder that makes one from two fleet lists.

The file's layout is declared below (``ScenarioFile`` and its entries) and read by ``core.datafile``, which
names the field, the reason and the file of any error; the checks across fields (a ship in a planet hex, an
orbit next to its planet, a dock at a friendly host) follow by hand through ``datafile.fail``.

Owns: reading and validating scenario files and fleet strings. Must not build game states (state.py does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, Required, TypedDict

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.core.shape import Range
from deltav.games.knighthawks.tables import DefenseLoadout, WeaponLoadout, sort_loadout, tables

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


# --- the file's layout ----------------------------------------------------------------------------------------

Hex = tuple[int, int]
Side = Literal[0, 1]
Count = Annotated[int, Range(0, None)]


@dataclass(frozen=True)
class PlanetEntry:
    name: str
    hex: Hex


@dataclass(frozen=True)
class OrbitEntry:
    planet: str
    clockwise: bool = True


# a TypedDict, not a dataclass: the file's key ``class`` is a Python keyword
ShipEntry = TypedDict("ShipEntry", {
    "id": Required[str],
    "side": Required[Side],
    "class": Required[str],
    "name": NotRequired[str],
    "hex": Required[Hex],
    "facing": NotRequired[Annotated[int, Range(0, 5)]],
    "speed": NotRequired[Count],
    "weapons": NotRequired[WeaponLoadout],
    "defenses": NotRequired[DefenseLoadout],
    "hp": NotRequired[Annotated[int, Range(1, None)]],
    "dcr": NotRequired[Count],
    "orbit": NotRequired[OrbitEntry],
    "docked": NotRequired[str],
}, total=False)


class VictoryEntry(TypedDict, total=False):
    kind: Required[Literal["battle", "exit", "destroy"]]
    ship: str  # the ship to get off the map (exit) or to destroy (destroy)
    edge: Literal["any", "east", "west"]  # exit: the edge it must leave by


@dataclass(frozen=True)
class MineEntry:
    side: Side
    hex: Hex
    kind: Literal["M", "S"] = "M"  # a mine pattern or a seeker


@dataclass(frozen=True)
class ScenarioFile:
    id: str
    title: str
    map_radius: Annotated[int, Range(3, None)]
    turn_limit: Annotated[int, Range(1, None)]
    sides: tuple[str, str]
    victory: VictoryEntry
    ships: tuple[ShipEntry, ...]
    summary: str = ""
    first: Side = 0
    planets: tuple[PlanetEntry, ...] = ()
    mines: tuple[MineEntry, ...] = ()


# --- the checks across fields -----------------------------------------------------------------------------------


def _off_map(h: Hex, radius: int) -> bool:
    return max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) > radius


def parse_scenario(data: Any, source: str) -> Scenario:
    """A scenario from its parsed file (a TOML/JSON document): the layout checked by ``core.datafile``, then
    the checks across fields; any problem raises ScenarioError(field, reason, source)."""
    f = datafile.read_as(ScenarioFile, data, source)
    t = tables()
    radius = f.map_radius
    planets = []
    names = set()
    for i, pl in enumerate(f.planets):
        if pl.name in names:
            datafile.fail(f"planets[{i}].name", "duplicate planet name", source)
        names.add(pl.name)
        planets.append((pl.name, pl.hex))
    planet_hexes = {h for _, h in planets}
    ships = []
    ids = set()
    for i, s in enumerate(f.ships):
        p = f"ships[{i}]"
        shid = s["id"]
        if shid in ids:
            datafile.fail(f"{p}.id", f"duplicate ship id {shid!r}", source)
        if not shid or shid.startswith("trap-") or shid == "fire":
            datafile.fail(f"{p}.id", "ship ids must be non-empty and not 'fire' or 'trap-...' (used for mines, "
                          "seekers and fires)", source)
        ids.add(shid)
        cls = s["class"]
        if cls not in t.classes:
            datafile.fail(f"{p}.class", f"unknown class {cls!r} (known: {', '.join(sorted(t.classes))})", source)
        h = s["hex"]
        if h in planet_hexes:
            datafile.fail(f"{p}.hex", "a ship cannot start in a planet hex", source)
        if _off_map(h, radius):
            datafile.fail(f"{p}.hex", "outside the map radius", source)
        speed = s.get("speed", 0)
        orbit = None
        o = s.get("orbit")
        if o is not None:
            match = [ph for n, ph in planets if n == o.planet]
            if not match:
                datafile.fail(f"{p}.orbit.planet", f"no planet {o.planet!r}", source)
            ph = match[0]
            if max(abs(h[0] - ph[0]), abs(h[1] - ph[1]), abs(h[0] + h[1] - ph[0] - ph[1])) != 1:
                datafile.fail(f"{p}.hex", "an orbiting ship must start next to its planet", source)
            orbit = (o.planet, o.clockwise)
            if speed:
                datafile.fail(f"{p}.speed", "an orbiting ship has speed 0", source)
        weapons = sort_loadout(s["weapons"]) if "weapons" in s else None
        defenses = sort_loadout(s["defenses"]) if "defenses" in s else None
        ships.append(ShipSpec(shid, s["side"], cls, s.get("name", shid), h, s.get("facing", 0), speed, weapons,
                              defenses, s.get("hp"), s.get("dcr"), orbit, s.get("docked")))
    byid = {s.id: s for s in ships}
    for i, s in enumerate(ships):
        if s.docked is not None:
            host = byid.get(s.docked)
            if host is None:
                datafile.fail(f"ships[{i}].docked", f"no ship {s.docked!r}", source)
            if host.side != s.side or host.hex != s.hex:
                datafile.fail(f"ships[{i}].docked", "must be a friendly ship in the same hex", source)
            hk = t.classes[host.cls].kind
            if hk not in ("station", "carrier") or (hk == "carrier" and t.classes[s.cls].kind != "fighter"):
                datafile.fail(f"ships[{i}].docked", "ships dock at stations; fighters also at carriers", source)
    for side in (0, 1):
        if not any(s.side == side for s in ships):
            datafile.fail("ships", f"side {side} has no ships", source)
    victory = dict(f.victory)
    if victory["kind"] in ("exit", "destroy"):
        if "ship" not in victory:
            datafile.fail("victory.ship", f"missing (a {victory['kind']} victory names its ship)", source)
        if victory["ship"] not in byid:
            datafile.fail("victory.ship", f"no ship {victory['ship']!r}", source)
    mines = []
    for i, mn in enumerate(f.mines):
        p = f"mines[{i}]"
        if mn.hex in planet_hexes:
            datafile.fail(f"{p}.hex", "cannot be a planet hex", source)
        if _off_map(mn.hex, radius):
            datafile.fail(f"{p}.hex", "outside the map radius", source)
        if mn.kind == "M" and any(k == "M" and x == mn.hex for _s, k, x in mines):
            datafile.fail(f"{p}.hex", "only one mine pattern per hex", source)
        mines.append((mn.side, mn.kind, mn.hex))
    return Scenario(f.id, f.title, f.summary, radius, f.turn_limit, f.first, f.sides, victory, tuple(planets),
                    tuple(ships), tuple(mines))


def read_scenario(text: str | bytes, source: str) -> Scenario:
    """A scenario from the text of its file (TOML, or JSON for a ``.json`` name)."""
    return parse_scenario(datafile.parse(text, source), source)


@lru_cache(maxsize=16)
def builtin(name: str) -> Scenario:
    text = resources.files("deltav.games.knighthawks").joinpath("data").joinpath("scenarios").joinpath(
        f"{name}.toml").read_text(encoding="utf-8")
    return read_scenario(text, f"{name}.toml")


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
    return read_scenario(text, str(path))


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
            name = tables().classes[cls].name
            ships.append(ShipSpec(f"{'ab'[side]}{k + 1}-{cls}", side, cls, f"{name.capitalize()} {k + 1}", h,
                                  0 if side == 0 else 3,
                                  0 if kind == "station" else 2))
    return Scenario(base.id, base.title, base.summary, base.radius, base.turn_limit, base.first, base.sides,
                    dict(base.victory), base.planets, tuple(ships), base.mines)
