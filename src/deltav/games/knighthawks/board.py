"""The static board document of a Knight Hawks game for clients (``KnightHawks.board``): the map (radius and
planets with their gravity rings) of the scenario, and the data tables a screen shows in its help and roster
sheet (weapons, defenses, the Advanced Combat Table, the Damage Table, the ship classes).

Owns: exporting what ``scenario.py`` and ``tables.py`` already hold as plain JSON, whose shape is declared once as
``BoardJson`` (the browser client's types are written from it: web/tools/gen_types.py). Must not compute rules,
read game states or do I/O beyond the data files the tables module loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from deltav.core import hexgrid
from deltav.games.knighthawks.tables import COLUMNS, tables

FORMAT = "deltav-knighthawks-board/1"


class GridJson(TypedDict):
    orientation: str
    directions: list[tuple[int, int]]
    facings: list[str]


class BoardScenarioJson(TypedDict):
    id: str
    title: str
    summary: str
    sides: list[str]
    first: int


class PlanetJson(TypedDict):
    name: str
    hex: tuple[int, int]
    ring: list[tuple[int, int]]
    """The six hexes of its gravity ring."""


class WeaponInfoJson(TypedDict):
    name: str
    range: int
    ff: bool
    rd: bool
    mpo: bool
    ltd: bool
    dtm: int
    hdr: tuple[int, int, int]
    """Damage: dice, sides, bonus."""
    icm: int
    fired: bool


class DefenseInfoJson(TypedDict):
    name: str
    kind: str
    attracts: list[str]


class DamageRowJson(TypedDict):
    low: int
    high: int
    result: str
    double: bool
    amount: str
    priority: list[str]


class ShipClassJson(TypedDict):
    name: str
    kind: str
    hp: int
    adf: int
    mr: int
    dcr: int
    evasive: bool
    points: int
    weapons: list[tuple[str, int]]
    defenses: list[tuple[str, int]]


class BoardJson(TypedDict):
    """The board document (:func:`board`)."""

    format: str
    grid: GridJson
    scenario: BoardScenarioJson
    radius: int
    planets: list[PlanetJson]
    weapons: dict[str, WeaponInfoJson]
    defenses: dict[str, DefenseInfoJson]
    columns: list[str]
    combat_table: dict[str, list[int]]
    """Per defense, the percentage to hit in each column."""
    half_damage: list[tuple[str, str]]
    damage_table: list[DamageRowJson]
    classes: dict[str, ShipClassJson]


def board(scenario: Any, options: Mapping[str, Any]) -> dict:
    """The board document for a loaded scenario (``scenario.Scenario``) and resolved options."""
    t = tables()
    eb = options.get("eb_range", 12)
    planets = [{"name": name, "hex": list(h), "ring": [list(hexgrid.neighbour(h, d)) for d in range(6)]}
               for name, h in scenario.planets]
    weapons = {c: {"name": w.name, "range": eb if c == "EB" else w.range, "ff": w.ff, "rd": w.rd, "mpo": w.mpo,
                   "ltd": w.ltd, "dtm": w.dtm, "hdr": list(w.hdr), "icm": w.icm, "fired": w.fired}
               for c, w in t.weapons.items()}
    defenses = {c: {"name": d.name, "kind": d.kind, "attracts": list(d.attracts)} for c, d in t.defenses.items()}
    combat = {c: [row[col] for col in COLUMNS] for c, row in t.combat.items()}
    damage = [{"low": r.low, "high": r.high, "result": r.result, "double": r.double, "amount": r.amount,
               "priority": list(r.priority)} for r in t.damage_rows]
    classes = {k: {"name": c.name, "kind": c.kind, "hp": c.hp, "adf": c.adf, "mr": c.mr, "dcr": c.dcr,
                   "evasive": c.evasive, "points": c.points, "weapons": [list(w) for w in c.weapons],
                   "defenses": [list(d) for d in c.defenses]} for k, c in t.classes.items()}
    return {
        "format": FORMAT,
        "grid": {"orientation": "flat", "directions": [list(d) for d in hexgrid.DIRECTIONS],
                 "facings": ["E", "NE", "NW", "W", "SW", "SE"]},
        "scenario": {"id": scenario.id, "title": scenario.title, "summary": scenario.summary,
                     "sides": list(scenario.sides), "first": scenario.first},
        "radius": scenario.radius,
        "planets": planets,
        "weapons": weapons,
        "defenses": defenses,
        "columns": list(COLUMNS),
        "combat_table": combat,
        "half_damage": sorted([list(p) for p in t.half_damage]),
        "damage_table": damage,
        "classes": classes,
    }
