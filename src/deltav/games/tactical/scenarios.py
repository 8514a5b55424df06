"""Scenario files of Delta-V tactical: the nine shipped scenarios (``data/scenarios/*.toml``) and user files
loaded by path (TOML or JSON), validated field by field.

A scenario names each player's ships (type, position, velocity, fuel, landed, passengers, hidden identity),
controlled bases (body names or ``"q,r"`` hex keys), home and target bodies, fleet-building credits, rule flags,
Grand Tour checkpoints and the starting player. Malformed files raise ``ScenarioError(field_path, reason)``.

This module owns scenario data only; it builds no game state.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from deltav.core.errors import ScenarioError
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


@dataclass(frozen=True)
class Rules:
    combat: bool = True
    planetary_defense: bool = True
    logistics: bool = False
    passenger_rescue: bool = False
    target_requires_passengers: bool = False
    hidden_identity: bool = False
    escape_edge: str = "none"  # "none" or "north"
    allowed_ordnance: tuple[str, ...] = ORDNANCE_KINDS
    checkpoints: tuple[str, ...] = ()
    fleet_purchases: tuple[str, ...] = ()

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


# --- validation helpers ------------------------------------------------------------------------------------


def _req(obj: dict, key: str, path: str) -> Any:
    if key not in obj:
        raise ScenarioError(f"{path}{key}", "missing")
    return obj[key]


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise ScenarioError(path, f"expected true or false, got {v!r}")
    return v


def _int(v: Any, path: str, lo: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScenarioError(path, f"expected an integer, got {v!r}")
    if lo is not None and v < lo:
        raise ScenarioError(path, f"must be >= {lo}, got {v}")
    return v


def _str(v: Any, path: str) -> str:
    if not isinstance(v, str):
        raise ScenarioError(path, f"expected a string, got {v!r}")
    return v


def _hex(v: Any, path: str) -> Hex:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise ScenarioError(path, f"expected [q, r], got {v!r}")
    return (_int(v[0], f"{path}[0]"), _int(v[1], f"{path}[1]"))


def _str_list(v: Any, path: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise ScenarioError(path, f"expected a list, got {v!r}")
    out = []
    for i, x in enumerate(v):
        s = _str(x, f"{path}[{i}]")
        if allowed is not None and s not in allowed:
            raise ScenarioError(f"{path}[{i}]", f"expected one of {list(allowed)}, got {s!r}")
        out.append(s)
    return tuple(out)


def _check_keys(obj: dict, allowed: set[str], path: str) -> None:
    extra = set(obj) - allowed
    if extra:
        raise ScenarioError(f"{path}{sorted(extra)[0]}", f"unknown field (fields: {sorted(allowed)})")


def parse_scenario(obj: Any, source: str | None = None, gmap: GameMap | None = None) -> Scenario:
    """Validate a scenario document (the TOML/JSON form described in docs/tactical.md)."""
    try:
        return _parse(obj, gmap or default_map())
    except ScenarioError as exc:
        if source and exc.source is None:
            raise ScenarioError(exc.field, exc.reason, source) from None
        raise


def _parse(obj: Any, gmap: GameMap) -> Scenario:
    if not isinstance(obj, dict):
        raise ScenarioError("scenario", "expected a table/object")
    _check_keys(obj, {"format", "id", "name", "summary", "starting_player", "rules", "players"}, "")
    fmt = obj.get("format", "deltav-tactical-scenario/1")
    if fmt != "deltav-tactical-scenario/1":
        raise ScenarioError("format", f"expected 'deltav-tactical-scenario/1', got {fmt!r}")
    sid = _str(_req(obj, "id", ""), "id")
    name = _str(obj.get("name", sid), "name")
    summary = _str(obj.get("summary", ""), "summary")
    sp = obj.get("starting_player", 0)
    if sp != "random" and (isinstance(sp, bool) or sp not in (0, 1)):
        raise ScenarioError("starting_player", f"expected 0, 1 or \"random\", got {sp!r}")
    raw_rules = obj.get("rules", {})
    if not isinstance(raw_rules, dict):
        raise ScenarioError("rules", "expected a table")
    fields = set(Rules.__dataclass_fields__)
    _check_keys(raw_rules, fields, "rules.")
    kw: dict[str, Any] = {}
    for f in ("combat", "planetary_defense", "logistics", "passenger_rescue", "target_requires_passengers",
              "hidden_identity"):
        if f in raw_rules:
            kw[f] = _bool(raw_rules[f], f"rules.{f}")
    if "escape_edge" in raw_rules:
        e = raw_rules["escape_edge"]
        if e not in ("none", "north"):
            raise ScenarioError("rules.escape_edge", f"expected \"none\" or \"north\", got {e!r}")
        kw["escape_edge"] = e
    if "allowed_ordnance" in raw_rules:
        kw["allowed_ordnance"] = _str_list(raw_rules["allowed_ordnance"], "rules.allowed_ordnance", ORDNANCE_KINDS)
    if "checkpoints" in raw_rules:
        kw["checkpoints"] = _str_list(raw_rules["checkpoints"], "rules.checkpoints", gmap.body_order)
    types = ship_types()
    if "fleet_purchases" in raw_rules:
        kw["fleet_purchases"] = _str_list(
            raw_rules["fleet_purchases"], "rules.fleet_purchases", tuple(types) + PURCHASABLE
        )
    rules = Rules(**kw)
    raw_players = _req(obj, "players", "")
    if not isinstance(raw_players, list) or len(raw_players) != 2:
        raise ScenarioError("players", "expected exactly two players")
    players = []
    ids: set[str] = set()
    base_names = tuple(gmap.bases_of)
    for p, rp in enumerate(raw_players):
        path = f"players[{p}]"
        if not isinstance(rp, dict):
            raise ScenarioError(path, "expected a table")
        _check_keys(rp, {"home", "target", "escape_wins", "bases", "credits", "ships"}, f"{path}.")
        home = _str(rp.get("home", ""), f"{path}.home")
        target = _str(rp.get("target", ""), f"{path}.target")
        for key, val in (("home", home), ("target", target)):
            if val and val not in gmap.bodies:
                raise ScenarioError(f"{path}.{key}", f"unknown body {val!r} (bodies: {list(gmap.body_order)})")
        escape_wins = _bool(rp.get("escape_wins", False), f"{path}.escape_wins")
        if escape_wins and rules.escape_edge == "none":
            raise ScenarioError(f"{path}.escape_wins", "needs rules.escape_edge = \"north\"")
        bases: list[Hex] = []
        raw_bases = rp.get("bases", [])
        if not isinstance(raw_bases, list):
            raise ScenarioError(f"{path}.bases", "expected a list")
        for i, b in enumerate(raw_bases):
            bp = f"{path}.bases[{i}]"
            b = _str(b, bp)
            if b in gmap.bases_of:
                hexes = gmap.bases_of[b]
            else:
                h = parse_hex_key(b)
                if h is None:
                    raise ScenarioError(bp, f"expected a body/station name {list(base_names)} or \"q,r\"")
                q, r = h
                if (q, r) not in gmap.base:
                    raise ScenarioError(bp, f"hex {q},{r} is not a base hex")
                hexes = ((q, r),)
            for h in hexes:
                if h not in bases:
                    bases.append(h)
        credits = _int(rp.get("credits", 0), f"{path}.credits", 0)
        ships = []
        raw_ships = rp.get("ships", [])
        if not isinstance(raw_ships, list):
            raise ScenarioError(f"{path}.ships", "expected a list")
        for i, rs in enumerate(raw_ships):
            sp_ = f"{path}.ships[{i}]"
            if not isinstance(rs, dict):
                raise ScenarioError(sp_, "expected a table")
            _check_keys(rs, {"id", "type", "position", "velocity", "landed", "fuel", "passengers",
                             "hidden_identity"}, f"{sp_}.")
            sid_ = _str(_req(rs, "id", f"{sp_}."), f"{sp_}.id")
            if not sid_ or sid_ in ids:
                raise ScenarioError(f"{sp_}.id", f"empty or duplicate ship id {sid_!r}")
            ids.add(sid_)
            tname = _str(_req(rs, "type", f"{sp_}."), f"{sp_}.type")
            if tname not in types:
                raise ScenarioError(f"{sp_}.type", f"unknown ship type {tname!r} (types: {sorted(types)})")
            st = types[tname]
            pos = _hex(_req(rs, "position", f"{sp_}."), f"{sp_}.position")
            vel = _hex(rs.get("velocity", [0, 0]), f"{sp_}.velocity")
            landed = _bool(rs.get("landed", False), f"{sp_}.landed")
            if landed and pos not in gmap.base and pos not in gmap.surface:
                raise ScenarioError(f"{sp_}.position", f"a landed ship must be on a base or a surface, {pos} is not")
            if not landed and pos in gmap.surface:
                raise ScenarioError(f"{sp_}.position", f"an active ship cannot start on a body surface {pos}")
            if gmap.off_map(pos):
                raise ScenarioError(f"{sp_}.position", f"{pos} is off the map")
            if st.fuel is None:
                fuel = None
                if "fuel" in rs:
                    raise ScenarioError(f"{sp_}.fuel", f"{tname} has unlimited fuel")
            else:
                fuel = _int(rs.get("fuel", st.fuel), f"{sp_}.fuel", 0)
                if fuel > st.fuel:
                    raise ScenarioError(f"{sp_}.fuel", f"above the {tname}'s capacity {st.fuel}")
            passengers = _int(rs.get("passengers", 0), f"{sp_}.passengers", 0)
            hidden = _bool(rs.get("hidden_identity", False), f"{sp_}.hidden_identity")
            if hidden and not rules.hidden_identity:
                raise ScenarioError(f"{sp_}.hidden_identity", "needs rules.hidden_identity = true")
            ships.append(ShipStart(sid_, tname, pos, vel, landed, fuel, passengers, hidden))
        if not ships and not credits:
            raise ScenarioError(f"{path}.ships", "a player needs ships or fleet-building credits")
        if credits and not rules.fleet_purchases:
            raise ScenarioError("rules.fleet_purchases", "credits are given but nothing may be bought")
        if credits and not bases:
            raise ScenarioError(f"{path}.bases", "fleet building needs at least one base to spawn at")
        players.append(PlayerStart(home, target, escape_wins, tuple(bases), credits, tuple(ships)))
    if rules.hidden_identity and not any(s.hidden_identity for pl in players for s in pl.ships):
        raise ScenarioError("rules.hidden_identity", "no ship has hidden_identity = true")
    return Scenario(sid, name, summary, sp, rules, (players[0], players[1]))


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
        raise ScenarioError("scenario", f"expected a scenario id or a file path, got {path!r}")
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
        raise ScenarioError("scenario", f"larger than {MAX_FILE} bytes", name)
    is_json = p.suffix.lower() == ".json"
    try:
        obj = json.loads(raw) if is_json else tomllib.loads(raw.decode("utf-8"))
    except (ValueError, tomllib.TOMLDecodeError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise ScenarioError("scenario", f"not valid {'JSON' if is_json else 'TOML'}: {reason}", name) from None
    return parse_scenario(obj, name)


@cache
def builtin_scenario(sid: str) -> Scenario:
    raw = resources.files("deltav.games.tactical").joinpath(f"data/scenarios/{sid}.toml").read_bytes()
    return parse_scenario(tomllib.loads(raw.decode()), f"data/scenarios/{sid}.toml")


def get_scenario(name: str) -> Scenario:
    """A shipped scenario by id, or a scenario file by path (read and validated on every call)."""
    if type(name) is str and name in SCENARIO_IDS:
        return builtin_scenario(name)
    return load_scenario_file(name)
