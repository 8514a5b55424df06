"""The fields of a Knight Hawks state declared once (``FIELDS``: types, JSON names, what ``clone`` copies or
shares; ``deltav.core.fields``), the JSON shape of a saved state that follows from them, and the checks a shape
cannot express, applied before a state is built from untrusted JSON (``KnightHawks.state_from_json``).

Owns: the declaration of the state's fields, the TypedDicts of the state and ship records with their bounds
(every list bounded before anything is allocated), and ``validate(obj)``: ids that refer to ships, mines and
planets that exist, indices in range, values consistent with the stage, the options and the rng state. Every
refusal is a ``StateError(field path, reason)``. Must not build the state (state.py does) or apply any rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from deltav.core.errors import DeltavError, StateError
from deltav.core.fields import (
    CLONE,
    CLONE_EACH,
    COPY,
    COPY_DICT,
    COPY_ROWS,
    DICT,
    EACH_TO_JSON,
    LIST,
    ROW_TUPLES,
    ROWS,
    SHARE,
    TO_JSON,
    TO_JSON_OR_NONE,
    TUPLE,
    Field,
    Fields,
)
from deltav.core.jsonin import shown
from deltav.core.protocol import Result, get_game
from deltav.core.rng import Rng
from deltav.core.shape import MaxLen, Range, read
from deltav.games.knighthawks.movement import MapInfo
from deltav.games.knighthawks.ships import Ship
from deltav.games.knighthawks.tables import tables

Coord = Annotated[int, Range(-1000, 1000)]
Hex = tuple[Coord, Coord]
Small = Annotated[int, Range(0, 10_000)]
Id = Annotated[str, MaxLen(200)]
Text = Annotated[str, MaxLen(2000)]
Facing = Annotated[int, Range(0, 5)]
Player = Literal[0, 1]
MAX_SHIPS = 500
MAX_MINES = 5000
MAX_PATH = 2000
MAX_SYSTEMS = 200
System = tuple[Annotated[str, MaxLen(8)], Annotated[int, Range(-1, 10_000)], Annotated[int, Range(-1, 10_000)],
               Literal[0, 1, 2]]


class DamagedSystems(TypedDict):
    short: bool
    ccs: bool
    nav: bool
    dc: bool
    fire: bool


class ShipJson(TypedDict):
    id: Id
    name: Text
    # "class" is a keyword: declared below with the functional form's key
    kind: Literal["fighter", "scout", "ship", "carrier", "freighter", "station"]
    owner: Player
    evasive: bool
    points: Small
    hex: Hex
    facing: Facing
    speed: Annotated[int, Range(0, 1000)]
    hp: Annotated[int, Range(1, 10_000)]
    damage: Small
    adf_max: Annotated[int, Range(0, 100)]
    adf: Annotated[int, Range(0, 100)]
    mr_max: Annotated[int, Range(0, 100)]
    mr: Annotated[int, Range(0, 100)]
    dcr_max: Small
    weapons: Annotated[list[System], MaxLen(MAX_SYSTEMS)]
    defenses: Annotated[list[System], MaxLen(MAX_SYSTEMS)]
    screen: Literal["PS", "ES", "SS"] | None
    masking: Annotated[int, Range(0, 99)]
    damaged_systems: DamagedSystems
    status: Literal["active", "destroyed", "disengaged"]
    docked: Id | None
    orbit: tuple[Annotated[int, Range(0, 1000)], bool] | None
    evading: bool
    unrepairable: Annotated[list[Annotated[str, MaxLen(8)]], MaxLen(MAX_SYSTEMS)]
    path: Annotated[list[Hex], MaxLen(MAX_PATH)]
    navdir: Literal[-1, 0, 1]
    dock_turns: Small
    shadow: NotRequired[Any]  # null or a ShipJson (read on its own below: one level deep)
    attacked: NotRequired[Annotated[int, Range(0, 1000)]]


ShipJson.__annotations__["class"] = Id  # the JSON key is "class"
ShipJson.__required_keys__ = frozenset(ShipJson.__required_keys__ | {"class"})  # type: ignore[misc]


class MapJson(TypedDict):
    radius: Annotated[int, Range(1, 200)]
    planets: Annotated[list[tuple[Text, Hex]], MaxLen(100)]


class VictoryJson(TypedDict):
    kind: Literal["battle", "exit", "destroy"]
    ship: NotRequired[Id]
    edge: NotRequired[Literal["east", "west", "any"]]


class ResultJson(TypedDict):
    winners: Annotated[list[Player], MaxLen(2)]
    reason: Text
    scores: tuple[float, float] | None


Mine = tuple[Id, Player, Literal["M", "S"], Hex, Annotated[int, Range(-1, 1000)], Facing, Id]
Attack = Annotated[list[Any], MaxLen(10)]  # [source, weapon index, weapon, target, hex, range, head_on, icms,
#                                            evade(, layer)]: checked item by item in validate


def _map_json(m: MapInfo) -> dict:
    return {"radius": m.radius, "planets": [[n, list(h)] for n, h in zip(m.planet_names, m.planet_hexes)]}


def _map_from_json(v: dict, doc: dict) -> MapInfo:
    return MapInfo.build(v["radius"], [(n, (h[0], h[1])) for n, h in v["planets"]])


def _plotting_copy(c: list | None) -> list | None:
    return None if c is None else [c[0], c[1], c[2], c[3][:]]


def _plotting_json(c: list | None) -> list | None:
    return None if c is None else [c[0], c[1], c[2], list(c[3])]


def _attacks_json(attacks: list) -> list:
    """Declared or pending attacks as JSON: new lists, with a new list for each hex (index 4)."""
    out = []
    for a in attacks:
        a = a[:]
        a[4] = list(a[4])
        out.append(a)
    return out


def _lists(v: list, doc: dict) -> list:
    return [list(a) for a in v]


PlotTurns = Annotated[list[Literal[-1, 0, 1]], MaxLen(1000)]
Allocation = tuple[Player, Id, Annotated[str, MaxLen(8)], Annotated[int, Range(1, 10_000)]]

#: The fields of a ``KHState``, declared once (``deltav.core.fields``): its slots, ``clone``, ``to_json``, the
#: building from JSON and the JSON shape (``StateJson``) follow. In JSON order; ``mover`` is written from the
#: state's property (first and half give it), ``dropped`` may be absent from records of before it was kept.
FIELDS = Fields(
    Field("options", dict[str, Any], SHARE, DICT, DICT),
    Field("rules"),  # Rulings.from_options(options): rebuilt after loading
    Field("map", MapJson, SHARE, _map_json, _map_from_json),
    Field("sides", tuple[Text, Text], SHARE, LIST, TUPLE),
    Field("victory", VictoryJson, SHARE, DICT, DICT),
    Field("turn_limit", Annotated[int, Range(1, 100)]),
    Field("first", Player),
    Field("turn", Annotated[int, Range(1, 102)]),
    Field("half", Literal[0, 1]),
    Field("mover", Player, derived=True),
    Field("stage", Literal["move", "declare", "intercept", "repair", "over"]),
    Field("fire_mode", Literal["", "def", "off"]),
    Field("after", Literal["", "combat", "offense", "endturn"]),
    Field("ships", Annotated[list[ShipJson], MaxLen(MAX_SHIPS)], CLONE_EACH, EACH_TO_JSON,
          lambda v, doc: [Ship.from_json(x) for x in v]),
    Field("index"),  # ship id -> position in ships: rebuilt after loading, shared by clones (ships never move)
    Field("mines", Annotated[list[Mine], MaxLen(MAX_MINES)], COPY,
          lambda v: [[a, b, c, list(d), e, f, g] for a, b, c, d, e, f, g in v],
          lambda v, doc: [(a, b, c, (d[0], d[1]), e, f, g) for a, b, c, d, e, f, g in v]),
    Field("plots", Annotated[dict[Id, tuple[Annotated[int, Range(0, 1000)], Facing, PlotTurns]], MaxLen(MAX_SHIPS)],
          COPY_DICT, lambda v: {k: [x[0], x[1], list(x[2])] for k, x in sorted(v.items())},
          lambda v, doc: {k: (x[0], x[1], tuple(x[2])) for k, x in v.items()}),
    Field("plotting", tuple[Id, Annotated[int, Range(1, 1000)], Facing, PlotTurns] | None, _plotting_copy,
          _plotting_json, lambda v, doc: _plotting_json(v)),
    Field("screened", Annotated[list[Id], MaxLen(MAX_SHIPS)], COPY, LIST, LIST),
    Field("laid", Annotated[list[Id], MaxLen(2 * MAX_SHIPS)], COPY, LIST, LIST),
    Field("dropped", Annotated[dict[Id, Annotated[int, Range(1, 102)]], MaxLen(MAX_MINES)], COPY_DICT, DICT, DICT,
          missing=dict),  # a record from before it was kept: no turns known
    Field("activated", Annotated[list[Id], MaxLen(MAX_MINES)], COPY, LIST, LIST),
    Field("orbit_new", Annotated[dict[Id, bool], MaxLen(MAX_SHIPS)], COPY_DICT, lambda v: dict(sorted(v.items())),
          DICT),
    Field("declared", Annotated[list[Attack], MaxLen(MAX_SHIPS * MAX_SYSTEMS)], COPY_ROWS, _attacks_json, _lists),
    Field("attacks", Annotated[list[Attack], MaxLen(MAX_SHIPS * MAX_SYSTEMS)], COPY_ROWS, _attacks_json, _lists),
    Field("repair_player", Player),
    Field("allocations", Annotated[list[Allocation], MaxLen(10 * MAX_SHIPS)], COPY, ROWS, ROW_TUPLES),
    Field("_result", ResultJson | None, SHARE, TO_JSON_OR_NONE, lambda r, doc: Result.from_json(r) if r else None,
          json="result"),
    Field("scores", tuple[Small, Small], COPY, LIST, LIST),
    Field("rng", str, CLONE, TO_JSON, lambda v, doc: Rng.from_json(v)),
    Field("_cache"),  # per-phase lookups: a new dict after loading; every phase change makes a new one
    constants={"game": "knighthawks"}, optional_constants=True,
)

StateJson = FIELDS.typed_dict("StateJson")


def _err(path: str, reason: str) -> StateError:
    return StateError(path, reason)


def _fail(path: str, reason: str):
    raise StateError(path, reason)


def _check_ship(sj: Mapping, path: str, planets: int) -> None:
    t = tables()
    if sj["class"] not in t.classes:
        _fail(f"{path}.class", f"unknown ship class {sj['class']!r}")
    for key, known in (("weapons", t.weapons), ("defenses", t.defenses)):
        for i, (code, n, mx, _st) in enumerate(sj[key]):
            if code not in known:
                _fail(f"{path}.{key}[{i}]", f"unknown code {code!r}")
            if mx >= 0 and not 0 <= n <= mx:
                _fail(f"{path}.{key}[{i}]", f"count {n} is not within 0..{mx}")
    if sj["adf"] > sj["adf_max"] or sj["mr"] > sj["mr_max"]:
        _fail(path, "ADF or MR above the ship's original value")
    if sj["orbit"] is not None and sj["orbit"][0] >= planets:
        _fail(f"{path}.orbit", f"planet index {sj['orbit'][0]} out of range (the map has {planets})")
    if not sj["path"]:
        _fail(f"{path}.path", "empty (a ship's path starts at its hex)")


def _check_attack(a: list, path: str, ships: dict, mines: set, pending_ok: bool) -> None:
    if len(a) not in (9, 10):
        _fail(path, f"an attack has 9 or 10 items, got {len(a)}")
    src, widx, code, tid, h, dist, head, icms, evade = a[:9]
    if not isinstance(src, str) or not isinstance(tid, str) or not isinstance(code, str):
        _fail(path, "source, weapon and target must be strings")
    if tid not in ships:
        _fail(f"{path}[3]", f"no ship {tid!r}")
    if code not in tables().weapons:
        _fail(f"{path}[2]", f"unknown weapon {code!r}")
    for k, v, lo, hi in ((1, widx, -1, MAX_SYSTEMS), (5, dist, 0, 10_000), (7, icms, -1, 10_000)):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            _fail(f"{path}[{k}]", f"expected an integer in {lo}..{hi}, got {shown(v)}")
    if src in ships:
        if not 0 <= widx < len(ships[src]["weapons"]):
            _fail(f"{path}[1]", f"{src} has no weapon {widx}")
    elif widx != -1:
        _fail(f"{path}[0]", f"no ship {src!r} (a mine or seeker attack has weapon index -1)")
    if not isinstance(h, list) or len(h) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                           and -1000 <= x <= 1000 for x in h):
        _fail(f"{path}[4]", "expected a hex [q, r]")
    if not isinstance(head, bool) or not isinstance(evade, bool):
        _fail(path, "head_on and evade must be booleans")
    if len(a) == 10 and (not isinstance(a[9], str) or (a[9] and a[9] not in ships)):
        _fail(f"{path}[9]", f"layer {a[9]!r} is not a ship")
    if icms < 0 and not pending_ok:
        _fail(f"{path}[7]", "a declaration has no ICM decision yet (-1)")


def validate(obj: Any) -> dict:
    """Check ``obj`` as a saved state (StateError naming the field otherwise); returns it as a dict."""
    read(StateJson, obj, error=_err)
    o = dict(obj)
    try:
        resolved = get_game("knighthawks").resolve_options(o["options"])  # the registered game, not an import up
    except DeltavError as exc:
        _fail("$.options", str(exc))
    if resolved != o["options"]:
        _fail("$.options", "not a complete set of resolved options")
    try:
        Rng.from_json(o["rng"])
    except ValueError as exc:
        _fail("$.rng", str(exc))
    planets = len(o["map"]["planets"])
    ships: dict = {}
    for i, sj in enumerate(o["ships"]):
        path = f"$.ships[{i}]"
        if sj["id"] in ships:
            _fail(f"{path}.id", f"duplicate ship id {sj['id']!r}")
        ships[sj["id"]] = sj
        _check_ship(sj, path, planets)
        sh = sj.get("shadow")
        if sh is not None:
            read(ShipJson, sh, f"{path}.shadow", error=_err)
            if sh.get("shadow") is not None:
                _fail(f"{path}.shadow.shadow", "a shadow has no shadow")
            _check_ship(sh, f"{path}.shadow", planets)
            for k in ("id", "owner", "class", "hp"):
                if sh[k] != sj[k]:
                    _fail(f"{path}.shadow.{k}", "differs from the ship's")
    for i, sj in enumerate(o["ships"]):
        d = sj["docked"]
        if d is not None and (d not in ships or d == sj["id"]):
            _fail(f"$.ships[{i}].docked", f"no other ship {d!r}")
    v = o["victory"]
    if v["kind"] != "battle" and v.get("ship") not in ships:
        _fail("$.victory.ship", f"the {v['kind']} objective names no ship of the state")
    mine_ids: set = set()
    for i, mm in enumerate(o["mines"]):
        if mm[0] in mine_ids:
            _fail(f"$.mines[{i}][0]", f"duplicate trap id {mm[0]!r}")
        mine_ids.add(mm[0])
        if mm[6] and mm[6] not in ships:
            _fail(f"$.mines[{i}][6]", f"layer {mm[6]!r} is not a ship")
    for key in ("plots", "orbit_new"):
        for sid in o[key]:
            if sid not in ships:
                _fail(f"$.{key}.{sid}", "no such ship")
    for key in ("screened",):
        for k, sid in enumerate(o[key]):
            if sid not in ships:
                _fail(f"$.{key}[{k}]", f"no ship {sid!r}")
    for k, x in enumerate(o["laid"]):
        if x[:-1] not in ships or x[-1:] not in ("M", "S"):
            _fail(f"$.laid[{k}]", f"{x!r} is not a ship id followed by M or S")
    # dropped: the turn each trap dropped in play was dropped (kept until the next drop after it is gone)
    # activated: seekers activated this phase (one that has detonated is gone from the mines but stays listed)
    c = o["plotting"]
    if c is not None and c[0] not in ships:
        _fail("$.plotting[0]", f"no ship {c[0]!r}")
    for k, a in enumerate(o["declared"]):
        _check_attack(a, f"$.declared[{k}]", ships, mine_ids, True)
    for k, a in enumerate(o["attacks"]):
        _check_attack(a, f"$.attacks[{k}]", ships, mine_ids, True)
    for k, (_p, sid, _t, _pts) in enumerate(o["allocations"]):
        if sid not in ships:
            _fail(f"$.allocations[{k}][1]", f"no ship {sid!r}")
    st = o["stage"]
    if st == "intercept" and not any(a[7] < 0 for a in o["attacks"]):
        _fail("$.attacks", "the intercept stage needs an attack waiting for the defender's decision")
    if st == "declare" and o["fire_mode"] == "":
        _fail("$.fire_mode", "a fire phase is defensive ('def') or offensive ('off')")
    if (st == "over") != (o["result"] is not None):
        _fail("$.result", "a result exactly when the stage is 'over'")
    if c is not None and st != "move":
        _fail("$.plotting", "a plot is in progress only in the movement phase")
    mover = o["first"] if o["half"] == 0 else 1 - o["first"]
    if "mover" in o and o["mover"] != mover:
        _fail("$.mover", f"is {o['mover']}, but first and half give {mover}")
    return o
