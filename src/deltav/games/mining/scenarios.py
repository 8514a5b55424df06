"""Component data of Delta V (asteroid mining): tile kinds, the tile mix, the contracts, rockets per player.

Loads a component file (TOML, shipped ``data/standard.toml`` and ``data/variant-b.toml``, or a user's file by
path) through ``core.datafile`` into the frozen records below (their annotations bound every field), then checks
what spans several fields against the rulebook's constraints, raising ``ScenarioError(field_path, reason, file)``:
48 asteroid tiles (a 7x7 grid less the station), exactly five Alien Encounters, only the five minerals and six
incident kinds of the rulebook, mineral values 1 to 5, contracts needing 1 to 5 of the four standard minerals
that the tile mix can supply, and 1 to 5 rockets per player.

This module owns the data and its validation only; it knows nothing of game states.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.core.shape import MaxLen, MinLen, Range

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


# --- the component file's layout (read by ``core.datafile``; bounds ride on the annotations) --------------
Kind = Literal[KINDS]  # type: ignore[valid-type]
Mineral = Literal[MINERALS]  # type: ignore[valid-type]
Text = Annotated[str, MaxLen(2000)]


@dataclass(frozen=True)
class ScenarioHeader:
    """``[scenario]``: the id, title and summary shown in menus; ``base`` (user files only) names the shipped
    scenario that supplies whatever the file leaves out."""

    id: Annotated[str, MaxLen(200)] = "custom"
    title: Text | None = None  # default: the id
    summary: Text = ""
    base: Literal[tuple(SCENARIO_FILES)] | None = None  # type: ignore[valid-type]


@dataclass(frozen=True)
class ComponentsTable:
    """``[components]``: rockets per player (the rulebook gives each player 5)."""

    rockets_per_player: Annotated[int, Range(1, 5)] = 5


@dataclass(frozen=True)
class TileEntry:
    """``[[tiles]]``: a mineral with the point value of each of its tiles, or an incident with a count."""

    kind: Kind
    values: Annotated[tuple[Annotated[int, Range(1, 5)], ...], MinLen(1), MaxLen(BOARD_TILES)] | None = None
    count: Annotated[int, Range(1, BOARD_TILES)] | None = None


@dataclass(frozen=True)
class ContractEntry:
    """``[[contracts]]``: an id and the 1 to 5 minerals it requires (a mineral needed twice is listed twice)."""

    id: Annotated[str, MinLen(1), MaxLen(64)]
    minerals: Annotated[tuple[Mineral, ...], MinLen(1), MaxLen(5)]


@dataclass(frozen=True)
class ComponentFile:
    """A whole component file. ``tiles``, ``contracts`` and ``components`` may be left out of a user's file
    (they come from ``scenario.base``, default ``standard``); a shipped file has them all."""

    scenario: ScenarioHeader = ScenarioHeader()
    components: ComponentsTable | None = None
    tiles: Annotated[tuple[TileEntry, ...], MinLen(1), MaxLen(BOARD_TILES)] | None = None
    contracts: Annotated[tuple[ContractEntry, ...], MinLen(1), MaxLen(64)] | None = None


@dataclass(frozen=True)
class MixRun:
    """One run of equal tiles in the embedded form (``Components.to_json``)."""

    kind: Kind
    value: Annotated[int, Range(0, 5)]
    count: Annotated[int, Range(1, BOARD_TILES)]


@dataclass(frozen=True)
class EmbeddedComponents:
    """The components as states embed them (``Components.to_json``, plus an optional ``fingerprint``)."""

    id: Annotated[str, MaxLen(200)]
    title: Text
    tile_mix: Annotated[tuple[MixRun, ...], MinLen(1), MaxLen(BOARD_TILES)]
    contracts: Annotated[tuple[ContractEntry, ...], MinLen(1), MaxLen(64)]
    rockets_per_player: Annotated[int, Range(1, 5)]
    summary: Text = ""
    fingerprint: Annotated[str, MaxLen(64)] | None = None


def from_json(obj: Any, source: str | None = None) -> Components:
    """Rebuild components from :meth:`Components.to_json` (embedded in states), validating it."""
    e = datafile.read_as(EmbeddedComponents, obj, source)
    tiles = []
    for i, run in enumerate(e.tile_mix):
        if KIND_INDEX[run.kind] <= OMNIDIUM:
            if run.value < 1:
                datafile.fail(f"tile_mix[{i}].value", "mineral tiles are worth 1 to 5 points", source)
            tiles.append(TileEntry(run.kind, values=(run.value,) * run.count))
        else:
            tiles.append(TileEntry(run.kind, count=run.count))
    f = ComponentFile(ScenarioHeader(e.id, e.title, e.summary), ComponentsTable(e.rockets_per_player),
                      tuple(tiles), e.contracts)
    return build(f, source)


def validate(data: Any, source: str | None = None) -> Components:
    """A parsed component file (every part present) read and checked against the rulebook's constraints."""
    return build(datafile.read_as(ComponentFile, data, source), source)


def build(f: ComponentFile, source: str | None = None) -> Components:
    """The components of a read file, after the checks that span several fields (the layout's own bounds were
    checked by the reader): mineral entries list values and incidents a count, 48 tiles with five Alien
    Encounters, unique contract ids, contracts the tile mix can supply."""

    def fail(field: str, reason: str) -> NoReturn:
        datafile.fail(field, reason, source)

    sc = f.scenario
    title = sc.title if sc.title is not None else sc.id
    if f.tiles is None:
        fail("tiles", "missing")
    if f.contracts is None:
        fail("contracts", "missing")
    kinds: list[int] = []
    values: list[int] = []
    for i, t in enumerate(f.tiles):
        where = f"tiles[{i}]"
        k = KIND_INDEX[t.kind]
        if k <= OMNIDIUM:
            if t.count is not None:
                fail(f"{where}.count", "mineral tiles are listed by their point values, not a count")
            if t.values is None:
                fail(f"{where}.values", f"a mineral entry needs a list of 1 to {BOARD_TILES} point values")
            kinds.extend([k] * len(t.values))
            values.extend(t.values)
        else:
            if t.values is not None:
                fail(f"{where}.values", "incident tiles have no point value")
            if t.count is None:
                fail(f"{where}.count", f"an incident entry needs a count from 1 to {BOARD_TILES}")
            kinds.extend([k] * t.count)
            values.extend([0] * t.count)
    if len(kinds) != BOARD_TILES:
        fail("tiles", f"the asteroid field holds exactly {BOARD_TILES} tiles (7x7 less the station), got {len(kinds)}")
    aliens = kinds.count(ALIEN)
    if aliens != ALIENS_TO_END:
        fail("tiles", f"the rulebook has exactly {ALIENS_TO_END} Alien Encounter tiles, got {aliens}")

    supply = [kinds.count(m) for m in range(5)]
    contracts: list[Contract] = []
    seen: set[str] = set()
    for i, c in enumerate(f.contracts):
        where = f"contracts[{i}]"
        if c.id in seen:
            fail(f"{where}.id", f"duplicate contract id {c.id!r}")
        seen.add(c.id)
        idx: list[int] = []
        for j, m in enumerate(c.minerals):
            if m == "omnidium":
                fail(f"{where}.minerals[{j}]", "Omnidium is the wildcard mineral; a contract lists the other four")
            idx.append(MINERALS.index(m))
        need = tuple(idx.count(m) for m in range(4))
        for m in range(4):
            if need[m] > supply[m] + supply[OMNIDIUM]:
                fail(f"{where}.minerals", f"needs {need[m]} {MINERALS[m]} but the tile mix has only "
                     f"{supply[m]} plus {supply[OMNIDIUM]} Omnidium")
        contracts.append(Contract(c.id, tuple(idx), need, len(idx)))  # type: ignore[arg-type]
    rockets = f.components.rockets_per_player if f.components is not None else ComponentsTable().rockets_per_player
    return Components(sc.id, title, sc.summary, tuple(kinds), tuple(values), tuple(contracts), rockets)


_CACHE: dict[str, Components] = {}
_SHIPPED: dict[str, ComponentFile] = {}


def load(scenario: str) -> Components:
    """The components of a shipped scenario id (cached), or of a TOML/JSON file at a path (validated)."""
    if scenario in _CACHE:
        return _CACHE[scenario]
    if scenario in SCENARIO_FILES:
        comps = build(_shipped(scenario), SCENARIO_FILES[scenario])
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
            data = path.read_bytes()
        except (OSError, ValueError) as exc:  # NUL bytes, lone surrogates, names too long
            why = f": {exc.strerror}" if isinstance(exc, OSError) and exc.strerror else ""
            raise unknown(why) from None
        return read_user_file(data, str(path))  # user files are re-read each time
    _CACHE[scenario] = comps
    return comps


def _shipped(scenario: str) -> ComponentFile:
    f = _SHIPPED.get(scenario)
    if f is None:
        name = SCENARIO_FILES[scenario]
        text = resources.files("deltav.games.mining").joinpath("data", name).read_text(encoding="utf-8")
        f = _SHIPPED[scenario] = datafile.load(ComponentFile, text, name)
    return f


def read_user_file(text: str | bytes, source: str) -> Components:
    """A user's component file (TOML, or JSON by a ``.json`` name): whatever it leaves out of ``tiles``,
    ``contracts`` and ``[components]`` comes from the shipped scenario ``scenario.base`` (default ``standard``).
    Every error is a ScenarioError naming the field, the reason and the file."""
    f = datafile.load(ComponentFile, text, source)
    base = _shipped(f.scenario.base or "standard")
    f = replace(
        f,
        scenario=replace(f.scenario, base=None),
        components=f.components if f.components is not None else base.components,
        tiles=f.tiles if f.tiles is not None else base.tiles,
        contracts=f.contracts if f.contracts is not None else base.contracts,
    )
    return build(f, source)
