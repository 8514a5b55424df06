"""The reference tables of Delta-V tactical as plain JSON, for a client's help screen (the browser's "?"
overlay): the Gun Combat Results Table with its modifiers, the Other Damage Table, the ship table and the ordnance
constants. Read from the game's own data (``data/combat.toml`` through ``combat``, ``data/ships.toml`` through
``shiptypes``); nothing is restated here, and no rule is decided. No state, no I/O beyond what those modules read.
"""

from __future__ import annotations

from typing import TypedDict

from . import combat as cb
from .shiptypes import ship_data, ship_types

RESULTS = ("-", "D1", "D2", "D3", "D4", "D5", "E")


# --- the JSON shape (web/tools/gen_types.py writes the client's types from it) -----------------------------------

class GunRowJson(TypedDict):
    roll: str
    """The die roll ("<=0", "1".."5", ">=6"): the row's label."""
    results: list[str]
    """One result per odds column ("-", "D1".."D5", "E")."""


class GunCombatJson(TypedDict):
    columns: list[str]
    """The odds columns ("1:4".."4:1")."""
    rows: list[GunRowJson]


class ModifiersJson(TypedDict):
    velocity_free: int
    heroism_bonus: int
    elimination_threshold: int
    repair_per_turn: int
    anti_nuke_odds: str
    planetary_defense_odds: str
    base_fire_range: int


class ShipTypeJson(TypedDict):
    """A ship class's row of the ship table."""

    type: str
    combat: int
    defensive: bool
    fuel: int | None
    cargo: int | None
    cost: int
    warship: bool
    torpedoes: bool
    carries_base: bool
    sealed_fuel: bool
    immobile: bool
    fires_disabled: str


class OrdnanceTableJson(TypedDict):
    mass: dict[str, int]
    lifetime: int
    torpedo_boost_max: int
    non_warship_nuke_limit: int
    orbital_base_cargo: int


class DetectionJson(TypedDict):
    ship_range: int
    base_range: int


class TablesJson(TypedDict):
    """The help screen's reference tables (the board document's ``tables``)."""

    gun_combat: GunCombatJson
    modifiers: ModifiersJson
    other_damage: dict[str, list[str]]
    """The Other Damage Table: per source, one result per die roll."""
    ships: list[ShipTypeJson]
    ordnance: OrdnanceTableJson
    detection: DetectionJson


def tables() -> TablesJson:
    """``{"gun_combat": {columns, rows: [{roll, results}]}, "modifiers", "other_damage", "ships", "ordnance"}``."""
    gun_rows = []
    for roll, row in enumerate(cb.GUN_COMBAT):
        label = f"<={roll}" if roll == cb.MIN_ROLL else f">={roll}" if roll == cb.MAX_ROLL else str(roll)
        gun_rows.append({"roll": label, "results": [RESULTS[r] for r in row]})
    data = ship_data()
    ships = []
    for name, t in ship_types().items():
        ships.append({
            "type": name, "combat": t.combat, "defensive": t.defensive, "fuel": t.fuel, "cargo": t.cargo,
            "cost": t.cost, "warship": t.warship, "torpedoes": t.torpedoes, "carries_base": t.carries_base,
            "sealed_fuel": t.sealed_fuel, "immobile": t.immobile, "fires_disabled": t.fires_disabled,
        })
    return {
        "gun_combat": {"columns": list(cb.ODDS_LABELS), "rows": gun_rows},
        "modifiers": {
            "velocity_free": cb.VELOCITY_FREE, "heroism_bonus": cb.HEROISM_BONUS,
            "elimination_threshold": cb.ELIMINATION_THRESHOLD, "repair_per_turn": cb.REPAIR_PER_TURN,
            "anti_nuke_odds": cb.ODDS_LABELS[cb.ANTI_NUKE_ODDS],
            "planetary_defense_odds": cb.ODDS_LABELS[cb.PLANETARY_DEFENSE_ODDS],
            "base_fire_range": cb.BASE_FIRE_RANGE,
        },
        "other_damage": {src: [RESULTS[r] for r in row] for src, row in cb.OTHER_DAMAGE.items()},
        "ships": ships,
        "ordnance": {
            "mass": dict(cb.ORDNANCE_MASS), "lifetime": cb.ORDNANCE_LIFETIME, "torpedo_boost_max": cb.TORPEDO_BOOST_MAX,
            "non_warship_nuke_limit": cb.NON_WARSHIP_NUKE_LIMIT, "orbital_base_cargo": cb.ORBITAL_BASE_CARGO,
        },
        "detection": {"ship_range": data.detection_ship, "base_range": data.detection_base},
    }
