"""Ship types of Delta-V tactical as data (``data/ships.toml``, design/tactical.md 1.3) and the ordnance masses,
loaded once through :mod:`deltav.core.datafile` (a bad field raises ``ScenarioError(field, reason, file)``).

This module owns the ship and ordnance constants only: no ship state, no rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

from deltav.core import datafile
from deltav.core.shape import MinLen, Range


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


# --- the file layout (read by core.datafile) ---------------------------------------------------------------

NonNeg = Annotated[int, Range(0)]
Capacity = NonNeg | Literal["unlimited"]


@dataclass(frozen=True, kw_only=True)
class ShipTypeFile:
    combat: NonNeg
    defensive: bool = False
    fuel: Capacity
    cargo: Capacity
    cost: NonNeg
    warship: bool = False
    torpedoes: bool = False
    carries_base: bool = False
    sealed_fuel: bool = False
    immobile: bool = False
    fires_disabled: Literal["no", "any", "d1"] = "no"


@dataclass(frozen=True)
class OrdnanceFile:
    mine: NonNeg
    torpedo: NonNeg
    nuke: NonNeg
    orbital_base_cargo: NonNeg
    lifetime: NonNeg


@dataclass(frozen=True)
class LimitsFile:
    elimination_disabled_turns: NonNeg
    detection_range_ship: NonNeg
    detection_range_base: NonNeg


@dataclass(frozen=True, kw_only=True)
class ShipsFile:
    format: Literal["deltav-tactical-ships/1"] = "deltav-tactical-ships/1"
    ordnance: OrdnanceFile
    limits: LimitsFile
    ships: Annotated[dict[str, ShipTypeFile], MinLen(1)]


def _capacity(v: int | str) -> int | None:
    return None if v == "unlimited" else v


def parse_ships(obj: Any, source: str | None = None) -> ShipData:
    """A parsed ``ships.toml`` read as :class:`ShipData`; a bad field raises ScenarioError(field, reason, file)."""
    f = datafile.read_as(ShipsFile, obj, source)
    types = {
        name: ShipType(
            name=name,
            combat=t.combat,
            defensive=t.defensive,
            fuel=_capacity(t.fuel),
            cargo=_capacity(t.cargo),
            cost=t.cost,
            warship=t.warship,
            torpedoes=t.torpedoes,
            carries_base=t.carries_base,
            sealed_fuel=t.sealed_fuel,
            immobile=t.immobile,
            fires_disabled=t.fires_disabled,
        )
        for name, t in f.ships.items()
    }
    o, lim = f.ordnance, f.limits
    return ShipData(
        types=types,
        ordnance_mass={"mine": o.mine, "torpedo": o.torpedo, "nuke": o.nuke},
        orbital_base_cargo=o.orbital_base_cargo,
        ordnance_lifetime=o.lifetime,
        elimination=lim.elimination_disabled_turns,
        detection_ship=lim.detection_range_ship,
        detection_base=lim.detection_range_base,
    )


@lru_cache(maxsize=1)
def ship_data() -> ShipData:
    raw = resources.files("deltav.games.tactical").joinpath("data/ships.toml").read_bytes()
    return parse_ships(datafile.parse(raw, "data/ships.toml"), "data/ships.toml")


def ship_types() -> dict[str, ShipType]:
    return ship_data().types
