"""Component data of Delta V (asteroid mining): tile kinds, the tile mix, the contracts, rockets per player.

Loads a component file (TOML, shipped ``data/standard.toml`` and ``data/variant-b.toml``, or a user's file by
path) and validates it against the rulebook's constraints, raising ``ScenarioError(field_path, reason)``:
48 asteroid tiles (a 7x7 grid less the station), exactly five Alien Encounters, only the five minerals and six
incident kinds of the rulebook, mineral values 1 to 5, contracts needing 1 to 5 of the four standard minerals
that the tile mix can supply, and 1 to 5 rockets per player.

This module owns the data and its validation only; it knows nothing of game states.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from deltav.core.errors import ScenarioError

GRID = 7
SQUARES = GRID * GRID
STATION = SQUARES // 2  # 24, the centre square
BOARD_TILES = SQUARES - 1  # 48

MINERALS = ("alphatite", "betamite", "gammatite", "deltamite", "omnidium")
OMNIDIUM = 4
ALIEN = 5
SCAN = 6
SABOTAGE = 7
ACQUISITION = 8
PIRATE = 9
METEOR = 10
INCIDENTS = ("alien_encounter", "mineral_scan", "sabotage", "rocket_acquisition", "pirate_attack", "meteor_storm")
KINDS = MINERALS + INCIDENTS  # kind index: 0..4 minerals, 5..10 incidents
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
ALIENS_TO_END = 5  # "When the fifth alien encounter tile is revealed, the game ends immediately."

SCENARIO_FILES = {"standard": "standard.toml", "variant-b": "variant-b.toml"}


def tile_id(k: int) -> str:
    return f"t{k:02d}"


def bribe_id(owner: int, mineral: int) -> str:
    return f"b{owner}-{MINERALS[mineral]}"


@dataclass(frozen=True)
class Contract:
    id: str
    minerals: tuple[int, ...]  # mineral indices, repeated for a mineral needed twice
    need: tuple[int, int, int, int]  # how many of each standard mineral
    size: int


@dataclass(frozen=True)
class Components:
    """One validated component set. ``kinds[k]`` / ``values[k]`` describe tile ``tile_id(k)``."""

    id: str
    title: str
    summary: str
    kinds: tuple[int, ...]
    values: tuple[int, ...]
    contracts: tuple[Contract, ...]
    rockets_per_player: int

    def to_json(self) -> dict:
        """The tile mix in file order (runs of equal tiles), the contracts and the rocket count."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "tile_mix": tile_mix(self.kinds, self.values),
            "contracts": [{"id": c.id, "minerals": [MINERALS[m] for m in c.minerals]} for c in self.contracts],
            "rockets_per_player": self.rockets_per_player,
        }


def tile_mix(kinds: tuple[int, ...], values: tuple[int, ...]) -> list[dict]:
    out: list[dict] = []
    for k, v in zip(kinds, values):
        name = KINDS[k]
        if out and out[-1]["kind"] == name and out[-1]["value"] == v:
            out[-1]["count"] += 1
        else:
            out.append({"kind": name, "value": v, "count": 1})
    return out


def from_json(obj: Any, source: str | None = None) -> Components:
    """Rebuild components from :meth:`Components.to_json` (embedded in states and views), validating it."""
    if not isinstance(obj, dict):
        raise ScenarioError("components", "must be an object", source)
    extra = set(obj) - {"id", "title", "summary", "tile_mix", "contracts", "rockets_per_player", "fingerprint"}
    if extra:
        raise ScenarioError(sorted(extra)[0], "unknown field", source)
    mix = obj.get("tile_mix")
    if not isinstance(mix, list):
        raise ScenarioError("tile_mix", "must be a list", source)
    tiles = []
    if len(mix) > BOARD_TILES:
        raise ScenarioError("tile_mix", f"at most {BOARD_TILES} runs of tiles", source)
    for i, run in enumerate(mix):
        count = run.get("count") if isinstance(run, dict) else None
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= BOARD_TILES:
            raise ScenarioError(f"tile_mix[{i}]", f"needs kind, value and a count from 1 to {BOARD_TILES}", source)
        kind = run.get("kind")
        entry: dict[str, Any] = {"kind": kind}
        if kind in MINERALS:
            entry["values"] = [run.get("value")] * run["count"]
        else:
            entry["count"] = run["count"]
        tiles.append(entry)
    data = {
        "scenario": {"id": obj.get("id"), "title": obj.get("title"), "summary": obj.get("summary", "")},
        "components": {"rockets_per_player": obj.get("rockets_per_player")},
        "tiles": tiles,
        "contracts": obj.get("contracts"),
    }
    return validate(data, source)


def validate(data: Any, source: str | None = None) -> Components:
    """Check a parsed component file against the rulebook's constraints; return the components."""

    def fail(field: str, reason: str) -> None:
        raise ScenarioError(field, reason, source)

    if not isinstance(data, dict):
        fail("(file)", "must be a table")
    sc = data.get("scenario", {})
    if not isinstance(sc, dict):
        fail("scenario", "must be a table")
    sid = sc.get("id", "custom")
    title = sc.get("title", sid)
    summary = sc.get("summary", "")
    for name, v in (("id", sid), ("title", title), ("summary", summary)):
        if not isinstance(v, str):
            fail(f"scenario.{name}", "must be a string")

    comp = data.get("components", {})
    if not isinstance(comp, dict):
        fail("components", "must be a table")
    rockets = comp.get("rockets_per_player", 5)
    if isinstance(rockets, bool) or not isinstance(rockets, int) or not 1 <= rockets <= 5:
        fail("components.rockets_per_player", "must be an integer from 1 to 5 (the rulebook gives each player 5)")

    tiles = data.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        fail("tiles", "must be a non-empty list of tile entries")
    kinds: list[int] = []
    values: list[int] = []
    for i, t in enumerate(tiles):
        where = f"tiles[{i}]"
        if not isinstance(t, dict):
            fail(where, "must be a table")
        kind = t.get("kind")
        if not isinstance(kind, str) or kind not in KIND_INDEX:
            fail(f"{where}.kind", f"unknown kind {kind!r} (the rulebook's kinds: {', '.join(KINDS)})")
        extra = set(t) - {"kind", "values", "count"}
        if extra:
            fail(f"{where}.{sorted(extra)[0]}", "unknown field")
        k = KIND_INDEX[kind]
        if k <= OMNIDIUM:
            vals = t.get("values")
            if "count" in t:
                fail(f"{where}.count", "mineral tiles are listed by their point values, not a count")
            if not isinstance(vals, list) or not 1 <= len(vals) <= BOARD_TILES:
                fail(f"{where}.values", f"a mineral entry needs a list of 1 to {BOARD_TILES} point values")
            for j, v in enumerate(vals):
                if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 5:
                    fail(f"{where}.values[{j}]", "mineral tiles are worth 1 to 5 points")
                kinds.append(k)
                values.append(v)
        else:
            n = t.get("count")
            if "values" in t:
                fail(f"{where}.values", "incident tiles have no point value")
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= BOARD_TILES:
                fail(f"{where}.count", f"an incident entry needs a count from 1 to {BOARD_TILES}")
            kinds.extend([k] * n)
            values.extend([0] * n)
    if len(kinds) != BOARD_TILES:
        fail("tiles", f"the asteroid field holds exactly {BOARD_TILES} tiles (7x7 less the station), got {len(kinds)}")
    aliens = kinds.count(ALIEN)
    if aliens != ALIENS_TO_END:
        fail("tiles", f"the rulebook has exactly {ALIENS_TO_END} Alien Encounter tiles, got {aliens}")

    raw = data.get("contracts")
    if not isinstance(raw, list) or not raw:
        fail("contracts", "must be a non-empty list of contracts")
    supply = [kinds.count(m) for m in range(5)]
    contracts: list[Contract] = []
    seen: set[str] = set()
    for i, c in enumerate(raw):
        where = f"contracts[{i}]"
        if not isinstance(c, dict):
            fail(where, "must be a table")
        cid = c.get("id")
        if not isinstance(cid, str) or not cid:
            fail(f"{where}.id", "must be a non-empty string")
        if cid in seen:
            fail(f"{where}.id", f"duplicate contract id {cid!r}")
        seen.add(cid)
        extra = set(c) - {"id", "minerals"}
        if extra:
            fail(f"{where}.{sorted(extra)[0]}", "unknown field")
        mins = c.get("minerals")
        if not isinstance(mins, list) or not 1 <= len(mins) <= 5:
            fail(f"{where}.minerals", "a contract requires 1 to 5 minerals")
        idx: list[int] = []
        for j, m in enumerate(mins):
            if m == "omnidium":
                fail(f"{where}.minerals[{j}]", "Omnidium is the wildcard mineral; a contract lists the other four")
            if m not in MINERALS:
                fail(f"{where}.minerals[{j}]", f"unknown mineral {m!r} (minerals: {', '.join(MINERALS[:4])})")
            idx.append(MINERALS.index(m))
        need = tuple(idx.count(m) for m in range(4))
        for m in range(4):
            if need[m] > supply[m] + supply[OMNIDIUM]:
                fail(f"{where}.minerals", f"needs {need[m]} {MINERALS[m]} but the tile mix has only "
                     f"{supply[m]} plus {supply[OMNIDIUM]} Omnidium")
        contracts.append(Contract(cid, tuple(idx), need, len(idx)))  # type: ignore[arg-type]
    return Components(sid, title, summary, tuple(kinds), tuple(values), tuple(contracts), rockets)


_CACHE: dict[str, Components] = {}


def load(scenario: str) -> Components:
    """The components of a shipped scenario id (cached), or of a TOML/JSON file at a path (validated)."""
    if scenario in _CACHE:
        return _CACHE[scenario]
    if scenario in SCENARIO_FILES:
        comps = validate(_shipped_raw(scenario), SCENARIO_FILES[scenario])
    else:
        def unknown(why: str = "") -> ScenarioError:
            shown = repr(scenario) if len(scenario) <= 80 else repr(scenario[:77]) + "..."
            return ScenarioError("scenario", f"{shown} is neither a built-in scenario id nor a readable file{why} "
                                 f"(built-in ids: {', '.join(SCENARIO_FILES)})")

        if not isinstance(scenario, str) or not scenario or len(scenario) > 4096:
            raise unknown()
        try:
            path = Path(scenario)
            if not path.is_file():
                raise unknown()
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:  # NUL bytes, lone surrogates, names too long, undecodable bytes
            why = f": {exc.strerror}" if isinstance(exc, OSError) and exc.strerror else ""
            if isinstance(exc, UnicodeDecodeError):
                why = ": not UTF-8 text"
            raise unknown(why) from None
        return _parse(text, str(path), toml=path.suffix.lower() != ".json")  # user files are re-read each time
    _CACHE[scenario] = comps
    return comps


def _shipped_raw(scenario: str) -> dict:
    text = resources.files("deltav.games.mining").joinpath("data", SCENARIO_FILES[scenario]).read_text()
    return tomllib.loads(text)


def _parse(text: str, source: str, toml: bool) -> Components:
    """Parse and validate a component file. A user file may give only its tiles or only its contracts (or
    only ``[components]``): the rest comes from the shipped scenario named by ``scenario.base``
    (default ``standard``)."""
    import json

    try:
        data = tomllib.loads(text) if toml else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError("(file)", f"not valid {'TOML' if toml else 'JSON'}: {exc}", source) from None
    except (RecursionError, ValueError) as exc:  # nesting too deep, a number too long to convert
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise ScenarioError("(file)", f"not valid {'TOML' if toml else 'JSON'}: {reason}", source) from None
    if isinstance(data, dict) and source not in SCENARIO_FILES.values():
        sc = data.get("scenario", {})
        base = sc.get("base", "standard") if isinstance(sc, dict) else "standard"
        if not isinstance(base, str) or base not in SCENARIO_FILES:
            raise ScenarioError("scenario.base", f"unknown base {base!r} (shipped: {', '.join(SCENARIO_FILES)})",
                                source)
        if isinstance(sc, dict):
            data["scenario"] = {k: v for k, v in sc.items() if k != "base"}
        if any(k not in data for k in ("tiles", "contracts", "components")):
            raw = _shipped_raw(base)
            for key in ("tiles", "contracts", "components"):
                data.setdefault(key, raw[key])
    return validate(data, source)
