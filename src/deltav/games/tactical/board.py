"""The static board of Delta-V tactical as plain JSON, for clients that draw it (the browser renderer in
web/src/tactical/): grid conventions and bounds, bodies with their surface hexes and kind, gravity hexes with
direction and strength, bases with their hexes, kind, starting controllers and planetary-defense zones, asteroid
hexes, and the scenario's map-related facts (homes, targets, checkpoints, escape edge).

Everything is read from the game's own data (``mapdata.default_map`` and the scenario from ``scenarios``); this
module adds derived presentation facts only (a body's kind, a base's kind) and never a rule. It holds no state and
does no I/O beyond what those modules read.

``TacticalGame.board`` serves it (``GET /games/tactical/board``). Its shape is declared here (``BoardJson``, the
help's tables ``tables.TablesJson``): the browser's types are written from it (web/tools/gen_types.py) and
tests/web/test_generated_types.py reads every scenario's board against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

from deltav.core import hexgrid
from deltav.core.protocol import get_game

from .labels import ShipLabels
from .mapdata import GameMap, default_map
from .scenarios import Scenario, get_scenario
from .tables import TablesJson, tables

FORMAT = "deltav-tactical-board/1"
BODY_KINDS = ("star", "planet", "moon", "minor")
BASE_KINDS = ("planetary", "asteroid")


# --- the document's JSON shape (web/tools/gen_types.py writes the client's types from it) ------------------------

HexJson = tuple[int, int]


class GridJson(TypedDict):
    orientation: Literal["flat-top"]
    coordinates: Literal["axial"]
    directions: list[HexJson]
    """The six neighbour offsets, direction 0 first."""
    direction_names: list[str]


class BoundsJson(TypedDict):
    minQ: int
    maxQ: int
    minR: int
    maxR: int


class SizeJson(TypedDict):
    columns: int
    rows: int
    hexes: int


class BodyJson(TypedDict):
    name: str
    kind: Literal["star", "planet", "moon", "minor"]
    center: HexJson
    surface_radius: int
    surface: list[HexJson]
    gravity: Literal["full", "weak", "none"]
    destructive: bool


class GravityJson(TypedDict):
    """A gravity hex: the direction it pulls, its body, full or weak."""

    hex: HexJson
    dir: int
    body: str
    strength: Literal["full", "weak"]


class BaseJson(TypedDict):
    hex: HexJson
    owner: str
    """The body (or asteroid) the base belongs to."""
    kind: Literal["planetary", "asteroid"]
    station: bool
    controlled_by: list[int]
    """The seats that start with it."""
    fire_zone: list[HexJson]
    """The hexes its planetary defense fires into."""


class ScenarioPlayerJson(TypedDict):
    home: str
    target: str
    escape_wins: bool


class ShipLabelJson(TypedDict):
    label: str
    """The ship's name in words ("corvette B")."""
    side: int
    type: str


class ScenarioJson(TypedDict):
    """The scenario's map-related facts."""

    id: str
    name: str
    summary: str
    players: list[ScenarioPlayerJson]
    checkpoints: list[str]
    escape_edge: str
    planetary_defense: bool
    ship_labels: dict[str, ShipLabelJson]
    """The scenario ships' labels by ship id (labels.py)."""


class BoardJson(TypedDict):
    """The static board of one scenario (``board``): the document the browser's tactical screen draws."""

    format: Literal["deltav-tactical-board/1"]
    grid: GridJson
    bounds: BoundsJson
    off_map_margin: int
    size: SizeJson
    bodies: list[BodyJson]
    gravity: list[GravityJson]
    bases: list[BaseJson]
    asteroids: list[HexJson]
    scenario: ScenarioJson
    tables: TablesJson
    """The help screen's reference tables (tables.py)."""


def _hex(h: tuple[int, int]) -> list[int]:
    return [h[0], h[1]]


def body_kind(gmap: GameMap, name: str) -> str:
    """``star`` (a destructive body: Sol), ``moon`` (weak gravity, as the help text names the moons), ``planet``
    (full gravity) or ``minor`` (no gravity: Ceres)."""
    b = gmap.bodies[name]
    if b.destructive:
        return "star"
    return {"weak": "moon", "full": "planet"}.get(b.gravity, "minor")


def _base_kind(gmap: GameMap, owner: str) -> str:
    """``planetary`` for a base on a body with gravity (landing from orbit), ``asteroid`` otherwise (Ceres, the
    clandestine station: landing at speed 0)."""
    return "planetary" if gmap.body_has_gravity(owner) else "asteroid"


def _scenario(options: Mapping[str, Any] | None) -> Scenario:
    # the registered game (the package registers itself before any of its modules runs): no import upwards
    return get_scenario(get_game("tactical").resolve_options(options)["scenario"])


def board(options: Mapping[str, Any] | None = None) -> BoardJson:
    """The board of the game with these options (the game's options, validated by the game; only ``scenario``
    changes the board; default Bi-Planetary) as plain JSON.

    Raises ``OptionError`` for a bad option (unknown name, wrong type) and ``ScenarioError`` for a bad scenario
    file.
    """
    sc = _scenario(options)
    gmap = default_map()
    lo_q, hi_q, lo_r, hi_r = gmap.bounds
    controllers: dict[tuple[int, int], list[int]] = {}
    for seat, player in enumerate(sc.players):
        for h in player.bases:
            controllers.setdefault(h, []).append(seat)
    bodies = []
    for name in gmap.body_order:
        b = gmap.bodies[name]
        bodies.append({
            "name": name,
            "kind": body_kind(gmap, name),
            "center": _hex(b.center),
            "surface_radius": b.surface_radius,
            "surface": [_hex(h) for h in b.surface],
            "gravity": b.gravity,
            "destructive": b.destructive,
        })
    gravity = [
        {"hex": _hex(h), "dir": d, "body": body, "strength": "weak" if weak else "full"}
        for h, (d, body, weak) in sorted(gmap.gravity.items())
    ]
    bases = []
    for owner, hexes in gmap.bases_of.items():
        for h in hexes:
            bases.append({
                "hex": _hex(h),
                "owner": owner,
                "kind": _base_kind(gmap, owner),
                "station": owner in gmap.stations,
                "controlled_by": controllers.get(h, []),
                "fire_zone": [_hex(z) for z in sorted(gmap.fire_zone.get(h, ()))],
            })
    return {
        "format": FORMAT,
        "grid": {
            "orientation": "flat-top",
            "coordinates": "axial",
            "directions": [_hex(d) for d in hexgrid.DIRECTIONS],
            "direction_names": list(hexgrid.DIRECTION_NAMES),
        },
        "bounds": {"minQ": lo_q, "maxQ": hi_q, "minR": lo_r, "maxR": hi_r},
        "off_map_margin": gmap.margin,
        "size": {"columns": hi_q - lo_q + 1, "rows": hi_r - lo_r + 1,
                 "hexes": (hi_q - lo_q + 1) * (hi_r - lo_r + 1)},
        "bodies": bodies,
        "gravity": gravity,
        "bases": bases,
        "asteroids": [_hex(h) for h in sorted(gmap.asteroids)],
        "scenario": {
            "id": sc.id,
            "name": sc.name,
            "summary": sc.summary,
            "players": [{"home": p.home, "target": p.target, "escape_wins": p.escape_wins} for p in sc.players],
            "checkpoints": list(sc.rules.checkpoints),
            "escape_edge": sc.rules.escape_edge,
            "planetary_defense": sc.rules.planetary_defense,
            # the scenario ships' labels as every text names them (labels.py): {id: {label, side, type}}
            "ship_labels": dict(ShipLabels.for_scenario(sc).as_json()),
        },
        "tables": tables(),  # the help screen's reference tables (tables.py)
    }
