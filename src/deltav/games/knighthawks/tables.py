"""The Knight Hawks data tables: weapons, defenses, the Advanced Combat Table, the Damage Table and the ship
classes, loaded from the TOML files in ``data/`` and validated at load.

Owns: the layouts of the data files (frozen records read by ``core.datafile``, which raises
``ScenarioError(field path, reason, file)`` for a malformed file), the checks across their fields, and the frozen
lookup structures built from them. Must not touch game states or roll dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

from deltav.core import datafile
from deltav.core.shape import Range

WEAPON_CODES = ("LC", "LB", "PB", "EB", "DC", "T", "AR", "RB", "M", "S")
DEFENSE_CODES = ("RH", "MS", "PS", "ES", "SS", "ICM")
COLUMNS = ("none", "RH", "PS", "ES", "SS", "MS")
RESULTS = ("hull", "drive", "steering", "weapon", "short", "defense", "ccs", "nav", "fire", "dcr", "disaster")
SHIP_KINDS = ("fighter", "scout", "ship", "carrier", "freighter", "station")
ROLL_MIN, ROLL_MAX = -20, 120


@dataclass(frozen=True, slots=True)
class WeaponSpec:
    code: str
    name: str
    range: int
    ff: bool
    rd: bool
    mpo: bool
    ltd: bool
    dtm: int
    hdr: tuple[int, int, int]  # dice, sides, bonus
    icm: int
    fired: bool


@dataclass(frozen=True, slots=True)
class DefenseSpec:
    code: str
    name: str
    kind: str
    attracts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DamageRow:
    low: int
    high: int
    result: str
    double: bool = False
    amount: str = ""
    priority: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ShipClass:
    id: str
    name: str
    kind: str
    hp: int
    adf: int
    mr: int
    dcr: int
    evasive: bool
    points: int
    weapons: tuple[tuple[str, int], ...]
    defenses: tuple[tuple[str, int], ...]


def _data_text(name: str) -> str:
    return resources.files("deltav.games.knighthawks").joinpath("data").joinpath(name).read_text(encoding="utf-8")


# --- the files' layouts (read by core.datafile) -----------------------------------------------------------------

WeaponCode = Literal[WEAPON_CODES]
DefenseCode = Literal[DEFENSE_CODES]
Column = Literal[COLUMNS]
Percent = Annotated[int, Range(0, 100)]
Mounts = Annotated[int, Range(1, None)]
WeaponLoadout = dict[WeaponCode, Mounts]  # code = count (LTD weapons: the ammunition of one system)
DefenseLoadout = dict[DefenseCode, Mounts]


@dataclass(frozen=True)
class WeaponEntry:
    name: str
    range: Annotated[int, Range(0, None)]
    ff: bool
    rd: bool
    mpo: bool
    ltd: bool
    dtm: int
    hdr: tuple[Annotated[int, Range(0, None)], Annotated[int, Range(1, None)], int]  # dice, sides, bonus
    icm: int
    fired: bool


@dataclass(frozen=True)
class DefenseEntry:
    name: str
    kind: Literal["passive", "screen", "masking", "icm"]
    attracts: tuple[WeaponCode, ...]


@dataclass(frozen=True)
class CombatTableFile:
    columns: tuple[str, ...]
    rows: dict[WeaponCode, tuple[Percent, Percent, Percent, Percent, Percent, Percent]]  # one per column
    half_damage: tuple[tuple[WeaponCode, Column], ...]
    skilled: dict[WeaponCode, tuple[Percent, Percent, Percent, Percent, Percent, Percent]] = field(
        default_factory=dict)  # the gunnery-skill values: kept in the file, not used by the game


@dataclass(frozen=True)
class DamageEntry:
    low: int
    high: int
    result: Literal[RESULTS]
    double: bool = False
    amount: Literal["", "one", "half", "all"] = ""
    priority: tuple[str, ...] = ()


@dataclass(frozen=True)
class DamageTableFile:
    rows: tuple[DamageEntry, ...]


@dataclass(frozen=True)
class ShipClassEntry:
    name: str
    kind: Literal[SHIP_KINDS]
    hp: Annotated[int, Range(1, None)]
    adf: Annotated[int, Range(0, None)]
    mr: Annotated[int, Range(0, None)]
    dcr: Annotated[int, Range(0, None)]
    points: Annotated[int, Range(0, None)]
    evasive: bool = False
    weapons: WeaponLoadout = field(default_factory=dict)
    defenses: DefenseLoadout = field(default_factory=dict)


_LOADOUT_ORDER = {c: i for i, c in enumerate(WEAPON_CODES + DEFENSE_CODES)}


def sort_loadout(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """A read loadout (code -> count) as ``(code, count)`` pairs in the codes' table order."""
    return tuple(sorted(counts.items(), key=lambda x: _LOADOUT_ORDER[x[0]]))


# --- parsers of parsed documents (public so tests can feed malformed data) ---------------------------------------


def parse_weapons(data: Any, source: str = "weapons.toml") -> dict[str, WeaponSpec]:
    entries = datafile.read_as(dict[WeaponCode, WeaponEntry], data, source)
    for code in WEAPON_CODES:
        if code not in entries:
            datafile.fail(code, "weapon missing", source)
    return {code: WeaponSpec(code, w.name, w.range, w.ff, w.rd, w.mpo, w.ltd, w.dtm, w.hdr, w.icm, w.fired)
            for code, w in entries.items()}


def parse_defenses(data: Any, source: str = "defenses.toml") -> dict[str, DefenseSpec]:
    entries = datafile.read_as(dict[DefenseCode, DefenseEntry], data, source)
    for code in DEFENSE_CODES:
        if code not in entries:
            datafile.fail(code, "defense missing", source)
    return {code: DefenseSpec(code, d.name, d.kind, d.attracts) for code, d in entries.items()}


def parse_combat_table(data: Any, source: str = "combat_table.toml") -> tuple[dict, frozenset]:
    f = datafile.read_as(CombatTableFile, data, source)
    if f.columns != COLUMNS:
        datafile.fail("columns", f"must be {list(COLUMNS)}", source)
    table: dict[str, dict[str, int]] = {}
    for code in WEAPON_CODES:
        if code not in f.rows:
            datafile.fail(f"rows.{code}", "missing (every weapon has a row)", source)
        table[code] = dict(zip(COLUMNS, f.rows[code]))
    return table, frozenset(f.half_damage)


def parse_damage_table(data: Any, source: str = "damage_table.toml") -> tuple[DamageRow, ...]:
    f = datafile.read_as(DamageTableFile, data, source)
    out = []
    expect = ROLL_MIN
    for i, r in enumerate(f.rows):
        p = f"rows[{i}]"
        if r.low != expect:
            datafile.fail(f"{p}.low", f"expected {expect} (rows must cover -20..120 in order, no gaps)", source)
        if r.high < r.low:
            datafile.fail(f"{p}.high", "below low", source)
        if r.result == "drive" and r.amount not in ("one", "half", "all"):
            datafile.fail(f"{p}.amount", "drive rows need amount one, half or all", source)
        if r.result == "steering" and r.amount not in ("one", "all"):
            datafile.fail(f"{p}.amount", "steering rows need amount one or all", source)
        if r.result in ("weapon", "defense"):
            allowed = WEAPON_CODES if r.result == "weapon" else DEFENSE_CODES
            if not r.priority:
                datafile.fail(f"{p}.priority", "weapon and defense rows need a priority list", source)
            for j, c in enumerate(r.priority):
                if c not in allowed:
                    datafile.fail(f"{p}.priority[{j}]", f"unknown system {c!r} (known: {', '.join(allowed)})", source)
        out.append(DamageRow(r.low, r.high, r.result, r.double, r.amount, r.priority))
        expect = r.high + 1
    if expect != ROLL_MAX + 1:
        datafile.fail("rows", f"rows end at {expect - 1}, must end at {ROLL_MAX}", source)
    return tuple(out)


def parse_ship_classes(data: Any, source: str = "ships.toml") -> dict[str, ShipClass]:
    entries = datafile.read_as(dict[str, ShipClassEntry], data, source)
    return {cid: ShipClass(cid, c.name, c.kind, c.hp, c.adf, c.mr, c.dcr, c.evasive, c.points,
                           sort_loadout(c.weapons), sort_loadout(c.defenses)) for cid, c in entries.items()}


def _load(name: str) -> Any:
    return datafile.parse(_data_text(name), name)


# --- the loaded tables ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tables:
    weapons: dict[str, WeaponSpec]
    defenses: dict[str, DefenseSpec]
    combat: dict[str, dict[str, int]]
    half_damage: frozenset
    damage_rows: tuple[DamageRow, ...]
    damage_lookup: tuple[DamageRow, ...]  # index: modified roll - ROLL_MIN
    classes: dict[str, ShipClass]

    def damage_row(self, modified: int) -> DamageRow:
        """The Damage Table row of a modified roll (clamped to -20..120)."""
        if modified < ROLL_MIN:
            modified = ROLL_MIN
        elif modified > ROLL_MAX:
            modified = ROLL_MAX
        return self.damage_lookup[modified - ROLL_MIN]


@lru_cache(maxsize=1)
def tables() -> Tables:
    weapons = parse_weapons(_load("weapons.toml"))
    defenses = parse_defenses(_load("defenses.toml"))
    combat, half = parse_combat_table(_load("combat_table.toml"))
    rows = parse_damage_table(_load("damage_table.toml"))
    lookup = []
    for r in rows:
        lookup.extend([r] * (r.high - r.low + 1))
    classes = parse_ship_classes(_load("ships.toml"))
    return Tables(weapons, defenses, combat, half, rows, tuple(lookup), classes)
