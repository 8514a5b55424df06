"""The static board document of a Knight Hawks game for clients (``KnightHawks.board``): the map (radius and
planets with their gravity rings) of the scenario, and the data tables a screen shows in its help and roster
sheet (weapons, defenses, the Advanced Combat Table, the Damage Table, the ship classes).

Owns: exporting what ``scenario.py`` and ``tables.py`` already hold as plain JSON. Must not compute rules,
read game states or do I/O beyond the data files the tables module loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deltav.core import hexgrid
from deltav.games.knighthawks.tables import COLUMNS, tables

FORMAT = "deltav-knighthawks-board/1"


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
