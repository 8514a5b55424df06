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

The file is read by :mod:`deltav.core.datafile` into ``ScenarioFile`` (types, bounds, unknown and missing
fields); the fleets and the size levels they need are then checked by hand. Every failure raises
:class:`ScenarioError` with the field path, the reason and the file. Relative fleet paths are resolved against
the scenario file's folder.

The option ``size_levels`` (the size levels the players agree on, rules section Fleets) turns a scenario into one
where every side designs its fleet within the agreed levels (:func:`parse_size_levels`, :func:`with_size_levels`).

This module owns scenario files and that option's reading only: no game state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated

from deltav.core import datafile
from deltav.core.errors import OptionError, ScenarioError
from deltav.core.shape import MaxLen, MinLen, Range
from deltav.games.deepspace.design import (
    MAX_NAME_LEN,
    MAX_REF_LEN,
    MAX_SIZE_LEVELS,
    Fleet,
    _shown,
    load_fleet,
    read_data_file,
    readable_file,
)

DESIGN = "design"
MAX_PLAYERS = 8  # the game's max_players
MAX_ZONE_RADIUS = 30  # a zone of radius R lists 3R(R+1)+1 hexes at every placement step
MAX_COORD = 10_000
MAX_ROUNDS = 1_000


Coord = Annotated[int, Range(-MAX_COORD, MAX_COORD)]


@dataclass(frozen=True)
class ZoneFile:
    """A deployment zone as a file writes it: ``{q = -10, r = 0, radius = 2}``."""

    q: Coord
    r: Coord
    radius: Annotated[int, Range(0, MAX_ZONE_RADIUS)] = 0


@dataclass(frozen=True)
class PlayerFile:
    """One ``[[players]]`` table: ``fleet`` is a built-in fleet id, a fleet file path, or ``design``."""

    fleet: str
    zone: ZoneFile
    name: Annotated[str, MaxLen(MAX_NAME_LEN)] | None = None
    size_levels: Annotated[int, Range(1, MAX_SIZE_LEVELS)] | None = None


@dataclass(frozen=True)
class ScenarioFile:
    """A scenario file's layout (read by :mod:`deltav.core.datafile`)."""

    players: Annotated[tuple[PlayerFile, ...], MinLen(2), MaxLen(MAX_PLAYERS)]
    id: str = "custom"
    title: str = ""
    summary: str = ""
    round_limit: Annotated[int, Range(1, MAX_ROUNDS)] = 30


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


def scenario_of(f: ScenarioFile, base: Path | None = None, stat_cap: int = 0) -> Scenario:
    """The scenario a scenario file describes: fleets loaded (relative paths against ``base``, the file's
    folder) and the side's size levels checked against its fleet."""
    players = []
    for i, p in enumerate(f.players):
        path = f"players[{i}]"
        fleet = None
        if p.fleet != DESIGN:
            ref = p.fleet
            near = readable_file(base / p.fleet) if base is not None and len(p.fleet) <= MAX_REF_LEN else None
            if near is not None:
                ref = str(near)
            try:
                fleet = load_fleet(ref, stat_cap)
            except ScenarioError as exc:
                inner = exc.field[len("fleet") :] if exc.field.startswith("fleet") else "." + exc.field
                reason = exc.reason
                if exc.source and near is not None:
                    reason += f" (in the fleet file {exc.source})"
                datafile.fail(f"{path}.fleet{inner}", reason)
            levels = p.size_levels if p.size_levels is not None else fleet.size_levels
            if fleet.levels_used > levels:
                datafile.fail(
                    f"{path}.fleet",
                    f"size level budget exceeded: fleet {fleet.id!r} uses {fleet.levels_used}, the side has {levels}",
                )
        elif p.size_levels is None:
            datafile.fail(f"{path}.size_levels", "missing (a side that designs its fleet needs its size levels)")
        else:
            levels = p.size_levels
        name = p.name if p.name is not None else f"Player {i + 1}"
        players.append(PlayerSetup(name=name, size_levels=levels, fleet=fleet, zone=(p.zone.q, p.zone.r, p.zone.radius)))
    return Scenario(id=f.id, title=f.title, summary=f.summary, round_limit=f.round_limit, players=tuple(players))


@lru_cache(maxsize=64)
def _load_builtin(sid: str, stat_cap: int) -> Scenario:
    text = resources.files(__package__).joinpath("data").joinpath("scenarios").joinpath(sid + ".toml").read_text()
    return _parse(text, f"scenarios/{sid}.toml", None, stat_cap)


def _parse(text: str, source: str, base: Path | None, stat_cap: int) -> Scenario:
    layout = datafile.load(ScenarioFile, text, source, "toml")
    try:
        return scenario_of(layout, base, stat_cap)
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


def parse_size_levels(spec: object, n: int) -> tuple[int, ...] | None:
    """The agreed size levels of option ``size_levels`` for a scenario of ``n`` sides: None for ``""`` (the
    scenario's own fleets and levels), else one number per side (one number given: every side's). OptionError
    naming the option for anything else: not text, not whole numbers, a number outside 1..120, a count that is
    neither one nor ``n``."""
    allowed = f"empty, or whole numbers from 1 to {MAX_SIZE_LEVELS}: one for every side, or one per side (e.g. 6,4)"
    if not isinstance(spec, str):
        raise OptionError("size_levels", f"expected text, got {spec!r}", allowed)
    text = spec.strip()
    if not text:
        return None
    if len(text) > 8 * MAX_PLAYERS:
        raise OptionError("size_levels", "too long", allowed)
    parts = [x.strip() for x in text.split(",")]
    out = []
    for i, x in enumerate(parts):
        if not x.isascii() or not x.isdigit():
            raise OptionError("size_levels", f"{_shown(x) if x else 'an empty entry'} (entry {i + 1}) is not a whole "
                              "number", allowed)
        v = int(x)
        if not 1 <= v <= MAX_SIZE_LEVELS:
            raise OptionError("size_levels", f"{v} (entry {i + 1}) is not between 1 and {MAX_SIZE_LEVELS}", allowed)
        out.append(v)
    if len(out) == 1:
        return tuple(out) * n
    if len(out) != n:
        raise OptionError("size_levels", f"{len(out)} numbers for the scenario's {n} sides (give one for every "
                          f"side, or {n}, one per side in seat order)", allowed)
    return tuple(out)


def scenario_for(options) -> Scenario:
    """The scenario a match with these options plays: option ``scenario`` (against ``stat_cap``) under option
    ``size_levels``. ScenarioError or OptionError naming what is wrong."""
    sc = load_scenario(options.get("scenario", "duel"), options.get("stat_cap", 0) or 0)
    return with_size_levels(sc, parse_size_levels(options.get("size_levels", ""), len(sc.players)))


def with_size_levels(sc: Scenario, levels: tuple[int, ...] | None) -> Scenario:
    """``sc`` as played under agreed size levels (``parse_size_levels``): every side designs its fleet during play
    within its levels (it may still adopt a ready-made fleet that fits); ``None`` leaves the scenario as it is."""
    if levels is None:
        return sc
    players = tuple(replace(p, size_levels=lv, fleet=None) for p, lv in zip(sc.players, levels, strict=True))
    return replace(sc, players=players)
