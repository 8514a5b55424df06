"""Scenarios of Deep Space Combat as data files: who plays, with which fleet, where they deploy, how long.

A scenario file is TOML::

    id = "duel"
    title = "Two-fleet duel"
    summary = "..."
    round_limit = 30              # rounds before the campaign score decides
    [[players]]
    name = "Blue"
    fleet = "line"                # a built-in fleet id, a fleet file path, or "design" (designed during play)
    size_levels = 12              # required with fleet = "design"; otherwise defaults to the fleet's levels
    zone = {q = -10, r = 0, radius = 2}   # deployment zone: hexes within radius of (q, r)

Validation raises :class:`ScenarioError` with the field path. Relative fleet paths are resolved against the
scenario file's folder.

This module owns scenario files only: no game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from deltav.core.errors import ScenarioError
from deltav.games.deepspace.design import (
    MAX_NAME_LEN,
    MAX_REF_LEN,
    MAX_SIZE_LEVELS,
    Fleet,
    _int,
    _only,
    _read_toml,
    _shown,
    _str,
    load_fleet,
    read_data_file,
    readable_file,
)

DESIGN = "design"
MAX_PLAYERS = 8  # the game's max_players
MAX_ZONE_RADIUS = 30  # a zone of radius R lists 3R(R+1)+1 hexes at every placement step
MAX_COORD = 10_000
MAX_ROUNDS = 1_000


@dataclass(frozen=True)
class PlayerSetup:
    name: str
    size_levels: int
    fleet: Fleet | None  # None: designed during play
    zone: tuple[int, int, int]  # q, r, radius


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    summary: str
    round_limit: int
    players: tuple[PlayerSetup, ...]


def builtin_ids() -> list[str]:
    root = resources.files(__package__).joinpath("data").joinpath("scenarios")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


def scenario_from_obj(obj: Any, base: Path | None = None, stat_cap: int = 0) -> Scenario:
    _only(obj, {"id", "title", "summary", "round_limit", "players"}, "scenario")
    players_raw = obj.get("players")
    if not isinstance(players_raw, list) or len(players_raw) < 2:
        raise ScenarioError("players", "a scenario needs a list of at least two players")
    if len(players_raw) > MAX_PLAYERS:
        raise ScenarioError("players", f"at most {MAX_PLAYERS} players, got {len(players_raw)}")
    players = []
    for i, p in enumerate(players_raw):
        path = f"players[{i}]"
        _only(p, {"name", "fleet", "size_levels", "zone"}, path)
        fleet_ref = _str(p, "fleet", path)
        fleet = None
        if fleet_ref != DESIGN:
            ref = fleet_ref
            near = readable_file(base / fleet_ref) if base is not None and len(fleet_ref) <= MAX_REF_LEN else None
            if near is not None:
                ref = str(near)
            try:
                fleet = load_fleet(ref, stat_cap)
            except ScenarioError as exc:
                inner = exc.field[len("fleet") :] if exc.field.startswith("fleet") else "." + exc.field
                reason = exc.reason
                if exc.source and near is not None:
                    reason += f" (in the fleet file {exc.source})"
                raise ScenarioError(f"{path}.fleet{inner}", reason) from None
            levels = _int(p, "size_levels", path, fleet.size_levels)
            if fleet.levels_used > levels:
                raise ScenarioError(
                    f"{path}.fleet",
                    f"size level budget exceeded: fleet {fleet.id!r} uses {fleet.levels_used}, the side has {levels}",
                )
        else:
            levels = _int(p, "size_levels", path)
        if levels < 1:
            raise ScenarioError(f"{path}.size_levels", f"must be at least 1, got {levels}")
        if levels > MAX_SIZE_LEVELS:
            raise ScenarioError(f"{path}.size_levels", f"must be at most {MAX_SIZE_LEVELS}, got {levels}")
        zone = p.get("zone")
        _only(zone, {"q", "r", "radius"}, f"{path}.zone")
        radius = _int(zone, "radius", f"{path}.zone", 0)
        if not 0 <= radius <= MAX_ZONE_RADIUS:
            raise ScenarioError(f"{path}.zone.radius", f"must be between 0 and {MAX_ZONE_RADIUS}, got {radius}")
        q, r = _int(zone, "q", f"{path}.zone"), _int(zone, "r", f"{path}.zone")
        for key, v in (("q", q), ("r", r)):
            if abs(v) > MAX_COORD:
                raise ScenarioError(f"{path}.zone.{key}", f"must be between -{MAX_COORD} and {MAX_COORD}, got {v}")
        name = _str(p, "name", path, f"Player {i + 1}")
        if len(name) > MAX_NAME_LEN:
            raise ScenarioError(f"{path}.name", f"longer than {MAX_NAME_LEN} characters")
        players.append(PlayerSetup(name=name, size_levels=levels, fleet=fleet, zone=(q, r, radius)))
    limit = _int(obj, "round_limit", "scenario", 30)
    if not 1 <= limit <= MAX_ROUNDS:
        raise ScenarioError("round_limit", f"must be between 1 and {MAX_ROUNDS}, got {limit}")
    return Scenario(
        id=_str(obj, "id", "scenario", "custom"),
        title=_str(obj, "title", "scenario", ""),
        summary=_str(obj, "summary", "scenario", ""),
        round_limit=limit,
        players=tuple(players),
    )


@lru_cache(maxsize=64)
def _load_builtin(sid: str, stat_cap: int) -> Scenario:
    text = resources.files(__package__).joinpath("data").joinpath("scenarios").joinpath(sid + ".toml").read_text()
    return _parse(text, f"scenarios/{sid}.toml", None, stat_cap)


def _parse(text: str, source: str, base: Path | None, stat_cap: int) -> Scenario:
    obj = _read_toml(text, source)
    try:
        return scenario_from_obj(obj, base, stat_cap)
    except ScenarioError as exc:
        raise ScenarioError(exc.field, exc.reason, source) from None


def load_scenario(ref: str, stat_cap: int = 0) -> Scenario:
    """A built-in scenario by id, or a scenario file by path. ScenarioError for anything else (an unknown id,
    a bad name, an unreadable or malformed file), naming the field and the file."""
    if isinstance(ref, str) and ref in builtin_ids():
        return _load_builtin(ref, stat_cap)
    p = readable_file(ref)
    if p is None:
        raise ScenarioError(
            "scenario",
            f"{_shown(ref)} is neither a built-in scenario id nor a readable file (built-in ids: "
            f"{', '.join(builtin_ids())})",
        )
    text, source = read_data_file(p, "scenario")
    return _parse(text, source, p.parent, stat_cap)
