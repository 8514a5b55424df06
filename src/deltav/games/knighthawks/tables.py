"""The Knight Hawks data tables: weapons, defenses, the Advanced Combat Table, the Damage Table and the ship
classes, loaded from the TOML files in ``data/`` and validated at load.

Owns: reading and validating data files (a malformed file raises ``ScenarioError(field_path, reason)``) and
the frozen lookup structures built from them. Must not touch game states or roll dice.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from deltav.core.errors import ScenarioError

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


def read_toml_text(text: str, source: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError("<file>", f"not valid TOML: {exc}", source) from None


def _data_text(name: str) -> str:
    return resources.files("deltav.games.knighthawks").joinpath("data").joinpath(name).read_text(encoding="utf-8")


# --- small validators ---------------------------------------------------------------------------------------


def need(obj: Any, key: str, kind: type | tuple, path: str, source: str | None = None) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ScenarioError(f"{path}.{key}" if path else key, "missing", source)
    v = obj[key]
    if kind is int and isinstance(v, bool) or not isinstance(v, kind):
        name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ScenarioError(f"{path}.{key}" if path else key, f"expected {name}, got {v!r}", source)
    return v


def _hdr(v: Any, path: str, source: str) -> tuple[int, int, int]:
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise ScenarioError(path, "expected [dice, sides, bonus] integers", source)
    if v[0] < 0 or v[1] < 1:
        raise ScenarioError(path, "dice must be >= 0 and sides >= 1", source)
    return (v[0], v[1], v[2])


# --- parsers (public so tests can feed malformed text) -------------------------------------------------------


def parse_weapons(data: dict, source: str = "weapons.toml") -> dict[str, WeaponSpec]:
    out = {}
    for code in WEAPON_CODES:
        if code not in data:
            raise ScenarioError(code, "weapon missing", source)
    for code, w in data.items():
        if code not in WEAPON_CODES:
            raise ScenarioError(code, f"unknown weapon code (known: {', '.join(WEAPON_CODES)})", source)
        rng = need(w, "range", int, code, source)
        if rng < 0:
            raise ScenarioError(f"{code}.range", "must be >= 0", source)
        out[code] = WeaponSpec(
            code,
            need(w, "name", str, code, source),
            rng,
            need(w, "ff", bool, code, source),
            need(w, "rd", bool, code, source),
            need(w, "mpo", bool, code, source),
            need(w, "ltd", bool, code, source),
            need(w, "dtm", int, code, source),
            _hdr(need(w, "hdr", list, code, source), f"{code}.hdr", source),
            need(w, "icm", int, code, source),
            need(w, "fired", bool, code, source),
        )
    return out


def parse_defenses(data: dict, source: str = "defenses.toml") -> dict[str, DefenseSpec]:
    out = {}
    for code in DEFENSE_CODES:
        if code not in data:
            raise ScenarioError(code, "defense missing", source)
    for code, d in data.items():
        if code not in DEFENSE_CODES:
            raise ScenarioError(code, "unknown defense code", source)
        kind = need(d, "kind", str, code, source)
        if kind not in ("passive", "screen", "masking", "icm"):
            raise ScenarioError(f"{code}.kind", f"unknown kind {kind!r}", source)
        attracts = need(d, "attracts", list, code, source)
        for i, a in enumerate(attracts):
            if a not in WEAPON_CODES:
                raise ScenarioError(f"{code}.attracts[{i}]", f"unknown weapon {a!r}", source)
        out[code] = DefenseSpec(code, need(d, "name", str, code, source), kind, tuple(attracts))
    return out


def parse_combat_table(data: dict, source: str = "combat_table.toml") -> tuple[dict, frozenset]:
    cols = need(data, "columns", list, "", source)
    if tuple(cols) != COLUMNS:
        raise ScenarioError("columns", f"must be {list(COLUMNS)}", source)
    rows = need(data, "rows", dict, "", source)
    table: dict[str, dict[str, int]] = {}
    for code in WEAPON_CODES:
        row = rows.get(code)
        if not isinstance(row, list) or len(row) != len(COLUMNS):
            raise ScenarioError(f"rows.{code}", f"expected a list of {len(COLUMNS)} percentages", source)
        for i, v in enumerate(row):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 100:
                raise ScenarioError(f"rows.{code}[{i}]", "expected a percentage 0..100", source)
        table[code] = dict(zip(COLUMNS, row))
    for code in rows:
        if code not in WEAPON_CODES:
            raise ScenarioError(f"rows.{code}", "unknown weapon", source)
    half = set()
    for i, pair in enumerate(need(data, "half_damage", list, "", source)):
        if not (isinstance(pair, list) and len(pair) == 2 and pair[0] in WEAPON_CODES and pair[1] in COLUMNS):
            raise ScenarioError(f"half_damage[{i}]", "expected [weapon, column]", source)
        half.add((pair[0], pair[1]))
    return table, frozenset(half)


def parse_damage_table(data: dict, source: str = "damage_table.toml") -> tuple[DamageRow, ...]:
    rows = need(data, "rows", list, "", source)
    out = []
    expect = ROLL_MIN
    for i, r in enumerate(rows):
        p = f"rows[{i}]"
        low = need(r, "low", int, p, source)
        high = need(r, "high", int, p, source)
        if low != expect:
            raise ScenarioError(f"{p}.low", f"expected {expect} (rows must cover -20..120 in order, no gaps)", source)
        if high < low:
            raise ScenarioError(f"{p}.high", "below low", source)
        result = need(r, "result", str, p, source)
        if result not in RESULTS:
            raise ScenarioError(f"{p}.result", f"unknown result {result!r}", source)
        amount = r.get("amount", "")
        if result == "drive" and amount not in ("one", "half", "all"):
            raise ScenarioError(f"{p}.amount", "drive rows need amount one, half or all", source)
        if result == "steering" and amount not in ("one", "all"):
            raise ScenarioError(f"{p}.amount", "steering rows need amount one or all", source)
        prio = tuple(r.get("priority", ()))
        allowed = WEAPON_CODES if result == "weapon" else DEFENSE_CODES
        if result in ("weapon", "defense"):
            if not prio:
                raise ScenarioError(f"{p}.priority", "weapon and defense rows need a priority list", source)
            for j, c in enumerate(prio):
                if c not in allowed:
                    raise ScenarioError(f"{p}.priority[{j}]", f"unknown system {c!r}", source)
        double = r.get("double", False)
        if not isinstance(double, bool):
            raise ScenarioError(f"{p}.double", "expected a boolean", source)
        out.append(DamageRow(low, high, result, double, amount, prio))
        expect = high + 1
    if expect != ROLL_MAX + 1:
        raise ScenarioError("rows", f"rows end at {expect - 1}, must end at {ROLL_MAX}", source)
    return tuple(out)


def parse_ship_classes(data: dict, source: str = "ships.toml") -> dict[str, ShipClass]:
    out = {}
    for cid, c in data.items():
        out[cid] = parse_ship_class(cid, c, cid, source)
    return out


def parse_loadout(obj: Any, allowed: tuple[str, ...], path: str, source: str | None) -> tuple[tuple[str, int], ...]:
    if not isinstance(obj, dict):
        raise ScenarioError(path, "expected a table of code = count", source)
    items = []
    for code, n in obj.items():
        if code not in allowed:
            raise ScenarioError(f"{path}.{code}", f"unknown system (known: {', '.join(allowed)})", source)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ScenarioError(f"{path}.{code}", "count must be an integer >= 1", source)
        items.append((code, n))
    order = {c: i for i, c in enumerate(allowed)}
    return tuple(sorted(items, key=lambda x: order[x[0]]))


def parse_ship_class(cid: str, c: Any, path: str, source: str | None) -> ShipClass:
    kind = need(c, "kind", str, path, source)
    if kind not in SHIP_KINDS:
        raise ScenarioError(f"{path}.kind", f"unknown kind (known: {', '.join(SHIP_KINDS)})", source)
    vals = {}
    for key, lo in (("hp", 1), ("adf", 0), ("mr", 0), ("dcr", 0), ("points", 0)):
        v = need(c, key, int, path, source)
        if v < lo:
            raise ScenarioError(f"{path}.{key}", f"must be >= {lo}", source)
        vals[key] = v
    evasive = c.get("evasive", False)
    if not isinstance(evasive, bool):
        raise ScenarioError(f"{path}.evasive", "expected a boolean", source)
    return ShipClass(
        cid,
        need(c, "name", str, path, source),
        kind,
        vals["hp"],
        vals["adf"],
        vals["mr"],
        vals["dcr"],
        evasive,
        vals["points"],
        parse_loadout(c.get("weapons", {}), WEAPON_CODES, f"{path}.weapons", source),
        parse_loadout(c.get("defenses", {}), DEFENSE_CODES, f"{path}.defenses", source),
    )


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
    weapons = parse_weapons(read_toml_text(_data_text("weapons.toml"), "weapons.toml"))
    defenses = parse_defenses(read_toml_text(_data_text("defenses.toml"), "defenses.toml"))
    combat, half = parse_combat_table(read_toml_text(_data_text("combat_table.toml"), "combat_table.toml"))
    rows = parse_damage_table(read_toml_text(_data_text("damage_table.toml"), "damage_table.toml"))
    lookup = []
    for r in rows:
        lookup.extend([r] * (r.high - r.low + 1))
    classes = parse_ship_classes(read_toml_text(_data_text("ships.toml"), "ships.toml"))
    return Tables(weapons, defenses, combat, half, rows, tuple(lookup), classes)
