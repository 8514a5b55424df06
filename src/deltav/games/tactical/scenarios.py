"""Scenario files of Delta-V tactical: the nine shipped scenarios (``data/scenarios/*.toml``) and user files
loaded by path (TOML or JSON), read through :mod:`deltav.core.datafile` into the file-layout records below, then
checked across fields (names against the map and the ship types).

A scenario names each player's ships (type, position, velocity, fuel, landed, passengers, hidden identity),
controlled bases (body names or ``"q,r"`` hex keys), home and target bodies, fleet-building credits, rule flags,
Grand Tour checkpoints and the starting player. Malformed files raise ``ScenarioError(field_path, reason, file)``.

This module owns scenario data only; it builds no game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.core.jsonin import shown
from deltav.core.shape import MaxLen, MinLen, Range
from deltav.games.tactical.mapdata import GameMap, default_map
from deltav.games.tactical.model import parse_hex_key
from deltav.games.tactical.shiptypes import ship_types

Hex = tuple[int, int]

SCENARIO_IDS = (
    "biplanetary",
    "duel",
    "blockade",
    "grand_tour",
    "escape",
    "evacuation",
    "convoy",
    "fleet_action",
    "interplanetary_war",
)
ORDNANCE_KINDS = ("mine", "torpedo", "nuke")
PURCHASABLE = ("orbitalBaseCargo",)


@dataclass(frozen=True)
class ShipStart:
    id: str
    type: str
    position: Hex
    velocity: Hex
    landed: bool
    fuel: int | None
    passengers: int
    hidden_identity: bool


@dataclass(frozen=True)
class PlayerStart:
    home: str
    target: str
    escape_wins: bool
    bases: tuple[Hex, ...]
    credits: int
    ships: tuple[ShipStart, ...]
    goal: str = ""  # the side's goal in words, for the briefing


@dataclass(frozen=True)
class Rules:
    """A scenario's rule flags: the ``[rules]`` table of the file, read as it is (every key optional)."""

    combat: bool = True
    planetary_defense: bool = True
    logistics: bool = False
    passenger_rescue: bool = False
    target_requires_passengers: bool = False
    hidden_identity: bool = False
    escape_edge: Literal["none", "north"] = "none"
    allowed_ordnance: tuple[Literal["mine", "torpedo", "nuke"], ...] = ORDNANCE_KINDS
    checkpoints: tuple[str, ...] = ()  # body names (checked against the map)
    fleet_purchases: tuple[str, ...] = ()  # ship types and PURCHASABLE (checked against ships.toml)

    def to_json(self) -> dict:
        return {
            "combat": self.combat,
            "planetary_defense": self.planetary_defense,
            "logistics": self.logistics,
            "passenger_rescue": self.passenger_rescue,
            "target_requires_passengers": self.target_requires_passengers,
            "hidden_identity": self.hidden_identity,
            "escape_edge": self.escape_edge,
            "allowed_ordnance": list(self.allowed_ordnance),
            "checkpoints": list(self.checkpoints),
            "fleet_purchases": list(self.fleet_purchases),
        }

    @classmethod
    def from_json(cls, obj: dict) -> Rules:
        return cls(
            combat=obj["combat"],
            planetary_defense=obj["planetary_defense"],
            logistics=obj["logistics"],
            passenger_rescue=obj["passenger_rescue"],
            target_requires_passengers=obj["target_requires_passengers"],
            hidden_identity=obj["hidden_identity"],
            escape_edge=obj["escape_edge"],
            allowed_ordnance=tuple(obj["allowed_ordnance"]),
            checkpoints=tuple(obj["checkpoints"]),
            fleet_purchases=tuple(obj["fleet_purchases"]),
        )


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    summary: str
    starting_player: int | str  # 0, 1 or "random"
    rules: Rules
    players: tuple[PlayerStart, PlayerStart]
    objective: str = ""  # what the scenario is about, in words, for the briefing


# --- the file layout (read by core.datafile) ---------------------------------------------------------------

NonNeg = Annotated[int, Range(0)]
HexPair = tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class ShipFile:
    """One ``[[players.ships]]`` entry as written in the file."""

    id: Annotated[str, MinLen(1)]
    type: str
    position: HexPair
    velocity: HexPair = (0, 0)
    landed: bool = False
    fuel: NonNeg | None = None  # missing: the type's capacity
    passengers: NonNeg = 0
    hidden_identity: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayerFile:
    """One ``[[players]]`` entry as written in the file (bases are body/station names or ``"q,r"`` keys)."""

    home: str = ""
    target: str = ""
    escape_wins: bool = False
    bases: tuple[str, ...] = ()
    credits: NonNeg = 0
    ships: tuple[ShipFile, ...] = ()
    goal: Annotated[str, MaxLen(400)] = ""


@dataclass(frozen=True, kw_only=True)
class ScenarioFile:
    """A whole scenario file (TOML or JSON, docs/tactical.md)."""

    format: Literal["deltav-tactical-scenario/1"] = "deltav-tactical-scenario/1"
    id: str
    name: str | None = None
    summary: str = ""
    objective: Annotated[str, MaxLen(1000)] = ""
    starting_player: Literal[0, 1, "random"] = 0
    rules: Rules = Rules()
    players: Annotated[tuple[PlayerFile, ...], MinLen(2), MaxLen(2)]


def parse_scenario(obj: Any, source: str | None = None, gmap: GameMap | None = None) -> Scenario:
    """A parsed scenario document read and checked (the TOML/JSON form described in docs/tactical.md); a bad
    field raises ``ScenarioError(field path, reason, source)``."""
    return _check(datafile.read_as(ScenarioFile, obj, source), gmap or default_map(), source)


def _one_of(values: tuple[str, ...], allowed: tuple[str, ...], path: str, source: str | None) -> None:
    for i, v in enumerate(values):
        if v not in allowed:
            datafile.fail(f"{path}[{i}]", f"expected one of {list(allowed)}, got {shown(v)}", source)


def _bases(pf: PlayerFile, gmap: GameMap, path: str, source: str | None) -> tuple[Hex, ...]:
    bases: list[Hex] = []
    for i, b in enumerate(pf.bases):
        bp = f"{path}.bases[{i}]"
        if b in gmap.bases_of:
            hexes = gmap.bases_of[b]
        else:
            h = parse_hex_key(b)
            if h is None:
                datafile.fail(bp, f"expected a body/station name {list(gmap.bases_of)} or \"q,r\"", source)
            if h not in gmap.base:
                datafile.fail(bp, f"hex {h[0]},{h[1]} is not a base hex", source)
            hexes = (h,)
        for h in hexes:
            if h not in bases:
                bases.append(h)
    return tuple(bases)


def _ship(sf: ShipFile, rules: Rules, gmap: GameMap, path: str, source: str | None) -> ShipStart:
    def fail(field: str, reason: str) -> NoReturn:
        datafile.fail(f"{path}.{field}", reason, source)

    types = ship_types()
    if sf.type not in types:
        fail("type", f"unknown ship type {sf.type!r} (types: {sorted(types)})")
    st = types[sf.type]
    pos = sf.position
    if sf.landed and pos not in gmap.base and pos not in gmap.surface:
        fail("position", f"a landed ship must be on a base or a surface, {pos} is not")
    if not sf.landed and pos in gmap.surface:
        fail("position", f"an active ship cannot start on a body surface {pos}")
    if gmap.off_map(pos):
        fail("position", f"{pos} is off the map")
    fuel = sf.fuel
    if st.fuel is None:
        if fuel is not None:
            fail("fuel", f"{sf.type} has unlimited fuel")
    elif fuel is None:
        fuel = st.fuel
    elif fuel > st.fuel:
        fail("fuel", f"above the {sf.type}'s capacity {st.fuel}")
    if sf.hidden_identity and not rules.hidden_identity:
        fail("hidden_identity", "needs rules.hidden_identity = true")
    return ShipStart(sf.id, sf.type, pos, sf.velocity, sf.landed, fuel, sf.passengers, sf.hidden_identity)


def _check(f: ScenarioFile, gmap: GameMap, source: str | None) -> Scenario:
    """The cross-field checks of a read scenario file (names against the map and the ship types)."""
    rules = f.rules
    _one_of(rules.checkpoints, gmap.body_order, "rules.checkpoints", source)
    _one_of(rules.fleet_purchases, tuple(ship_types()) + PURCHASABLE, "rules.fleet_purchases", source)
    players = []
    ids: set[str] = set()
    for p, pf in enumerate(f.players):
        path = f"players[{p}]"
        for key, val in (("home", pf.home), ("target", pf.target)):
            if val and val not in gmap.bodies:
                datafile.fail(f"{path}.{key}", f"unknown body {val!r} (bodies: {list(gmap.body_order)})", source)
        if pf.escape_wins and rules.escape_edge == "none":
            datafile.fail(f"{path}.escape_wins", "needs rules.escape_edge = \"north\"", source)
        bases = _bases(pf, gmap, path, source)
        ships = []
        for i, sf in enumerate(pf.ships):
            if sf.id in ids:
                datafile.fail(f"{path}.ships[{i}].id", f"empty or duplicate ship id {sf.id!r}", source)
            ids.add(sf.id)
            ships.append(_ship(sf, rules, gmap, f"{path}.ships[{i}]", source))
        if not ships and not pf.credits:
            datafile.fail(f"{path}.ships", "a player needs ships or fleet-building credits", source)
        if pf.credits and not rules.fleet_purchases:
            datafile.fail("rules.fleet_purchases", "credits are given but nothing may be bought", source)
        if pf.credits and not bases:
            datafile.fail(f"{path}.bases", "fleet building needs at least one base to spawn at", source)
        players.append(PlayerStart(pf.home, pf.target, pf.escape_wins, bases, pf.credits, tuple(ships), pf.goal))
    if rules.hidden_identity and not any(s.hidden_identity for pl in players for s in pl.ships):
        datafile.fail("rules.hidden_identity", "no ship has hidden_identity = true", source)
    name = f.id if f.name is None else f.name
    return Scenario(f.id, name, f.summary, f.starting_player, rules, (players[0], players[1]), f.objective)


MAX_PATH = 4096
MAX_FILE = 1 << 20  # a scenario file is a few kilobytes


def _not_found(name: str, why: str) -> ScenarioError:
    shown = name if len(name) <= 80 else name[:77] + "..."
    return ScenarioError("scenario", f"{shown!r} is neither a built-in scenario id ({', '.join(SCENARIO_IDS)}) nor "
                                     f"a readable scenario file ({why})")


def load_scenario_file(path: str | Path) -> Scenario:
    """Read and validate a user's scenario file (TOML, or JSON by its ``.json`` suffix). Anything wrong, from the
    name to a field, raises ``ScenarioError`` (with the file as ``source`` once it could be read)."""
    name = str(path) if isinstance(path, Path) else path
    if not isinstance(name, str):
        raise ScenarioError("scenario", f"expected a scenario id or a file path, got {shown(path)}")
    if not name or len(name) > MAX_PATH or "\x00" in name:
        raise _not_found(name.replace("\x00", "\\0"), "not a usable file name")
    try:
        name.encode("utf-8")
    except UnicodeError:
        raise _not_found(name.encode("utf-8", "backslashreplace").decode(), "not a usable file name") from None
    p = Path(name)
    try:
        if not p.is_file():
            raise _not_found(name, "no such file" if not p.exists() else "not a regular file")
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE + 1)
    except (OSError, ValueError) as exc:
        raise _not_found(name, f"cannot read: {exc.__class__.__name__}") from None
    if len(raw) > MAX_FILE:
        raise ScenarioError("(file)", f"larger than {MAX_FILE} bytes", name)
    return parse_scenario(datafile.parse(raw, name), name)


@cache
def builtin_scenario(sid: str) -> Scenario:
    source = f"data/scenarios/{sid}.toml"
    raw = resources.files("deltav.games.tactical").joinpath(source).read_bytes()
    return parse_scenario(datafile.parse(raw, source), source)


def get_scenario(name: str) -> Scenario:
    """A shipped scenario by id, or a scenario file by path (read and validated on every call)."""
    if type(name) is str and name in SCENARIO_IDS:
        return builtin_scenario(name)
    return load_scenario_file(name)
