"""Ship types of Delta-V tactical as data (``data/ships.toml``, design/tactical.md 1.3) and the ordnance masses,
loaded and validated once.

This module owns the ship and ordnance constants only: no ship state, no rules.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from deltav.core.errors import ScenarioError


@dataclass(frozen=True, slots=True)
class ShipType:
    name: str
    combat: int
    defensive: bool
    fuel: int | None  # None = unlimited
    cargo: int | None  # None = unlimited
    cost: int
    warship: bool
    torpedoes: bool
    carries_base: bool
    sealed_fuel: bool
    immobile: bool
    fires_disabled: str  # "no", "any" (dreadnaught) or "d1" (orbital base)

    @property
    def can_overload(self) -> bool:
        return self.warship


@dataclass(frozen=True, slots=True)
class ShipData:
    types: dict[str, ShipType]
    ordnance_mass: dict[str, int]
    orbital_base_cargo: int
    ordnance_lifetime: int
    elimination: int
    detection_ship: int
    detection_base: int


def _num(v: Any, path: str, allow_inf: bool = False) -> int | None:
    if allow_inf and isinstance(v, float) and math.isinf(v) and v > 0:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ScenarioError(path, f"expected a non-negative integer{' or inf' if allow_inf else ''}, got {v!r}")
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise ScenarioError(path, f"expected a boolean, got {v!r}")
    return v


def parse_ships(obj: Any, source: str | None = None) -> ShipData:
    try:
        ships = obj.get("ships") if isinstance(obj, dict) else None
        if not isinstance(ships, dict) or not ships:
            raise ScenarioError("ships", "expected a table of ship types")
        types: dict[str, ShipType] = {}
        known = {"combat", "defensive", "fuel", "cargo", "cost", "warship", "torpedoes", "carries_base",
                 "sealed_fuel", "immobile", "fires_disabled"}
        for name, t in ships.items():
            p = f"ships.{name}"
            if not isinstance(t, dict):
                raise ScenarioError(p, "expected a table")
            extra = set(t) - known
            if extra:
                raise ScenarioError(f"{p}.{sorted(extra)[0]}", "unknown field")
            fires = t.get("fires_disabled", "no")
            if fires not in ("no", "any", "d1"):
                raise ScenarioError(f"{p}.fires_disabled", f"expected no, any or d1, got {fires!r}")
            types[name] = ShipType(
                name=name,
                combat=_num(t.get("combat"), f"{p}.combat"),
                defensive=_bool(t.get("defensive", False), f"{p}.defensive"),
                fuel=_num(t.get("fuel"), f"{p}.fuel", True),
                cargo=_num(t.get("cargo"), f"{p}.cargo", True),
                cost=_num(t.get("cost"), f"{p}.cost"),
                warship=_bool(t.get("warship", False), f"{p}.warship"),
                torpedoes=_bool(t.get("torpedoes", False), f"{p}.torpedoes"),
                carries_base=_bool(t.get("carries_base", False), f"{p}.carries_base"),
                sealed_fuel=_bool(t.get("sealed_fuel", False), f"{p}.sealed_fuel"),
                immobile=_bool(t.get("immobile", False), f"{p}.immobile"),
                fires_disabled=fires,
            )
        o = obj.get("ordnance", {})
        if not isinstance(o, dict):
            raise ScenarioError("ordnance", "expected a table")
        mass = {k: _num(o.get(k), f"ordnance.{k}") for k in ("mine", "torpedo", "nuke")}
        lim = obj.get("limits", {})
        return ShipData(
            types=types,
            ordnance_mass=mass,
            orbital_base_cargo=_num(o.get("orbital_base_cargo"), "ordnance.orbital_base_cargo"),
            ordnance_lifetime=_num(o.get("lifetime"), "ordnance.lifetime"),
            elimination=_num(lim.get("elimination_disabled_turns"), "limits.elimination_disabled_turns"),
            detection_ship=_num(lim.get("detection_range_ship"), "limits.detection_range_ship"),
            detection_base=_num(lim.get("detection_range_base"), "limits.detection_range_base"),
        )
    except ScenarioError as exc:
        if source and exc.source is None:
            raise ScenarioError(exc.field, exc.reason, source) from None
        raise


@lru_cache(maxsize=1)
def ship_data() -> ShipData:
    raw = resources.files("deltav.games.tactical").joinpath("data/ships.toml").read_bytes()
    return parse_ships(tomllib.loads(raw.decode()), "data/ships.toml")


def ship_types() -> dict[str, ShipType]:
    return ship_data().types
