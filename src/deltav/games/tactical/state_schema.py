"""The fields of a Delta-V tactical state declared once (``FIELDS``: types, JSON names, what ``clone`` copies or
shares, how each becomes JSON and back: ``deltav.core.fields``), the JSON shape that follows (``StateJ``), and the
validation of a saved state (``TacticalGame.state_from_json``).

``check_state(obj)`` reads an untrusted document with ``deltav.core.shape.read`` against ``StateJ`` and the
TypedDicts below (every key required, every size and number bounded before anything is built), then checks what a
shape cannot: ids that refer to ships and items that exist, unique ids, hex keys, ship types, fuel within capacity,
bodies and bases of the map, the options (each parsed by its ``Option``), the rng state, the phase against the
players. Any fault raises ``StateError(field path, reason)``; a valid document is returned unchanged for
``TacticalState.from_json`` to build from.

This module owns the declaration, the schema and the checks; it builds no state (``TacticalState.from_json`` does,
from the declaration) and reads no file (a scenario path among the options is not opened: the state carries its
own rules).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from deltav.core.errors import DeltavError, StateError
from deltav.core.fields import (
    CLONE,
    COPY,
    COPY_EACH,
    COPY_RECORD_OR_NONE,
    DICT,
    EACH_TO_JSON,
    LIST,
    LIST_OR_NONE,
    SHARE,
    TO_JSON,
    TO_JSON_OR_NONE,
    TUPLE,
    Field,
    Fields,
)
from deltav.core.jsonin import shown
from deltav.core.protocol import Result
from deltav.core.rng import Rng
from deltav.core.shape import MaxLen, MinLen, Range, read

from .combat_phase import CombatState
from .mapdata import default_map
from .messages import Order
from .model import Ordnance, Player, Ship, hkey, hparse, parse_hex_key
from .scenarios import ORDNANCE_KINDS, PURCHASABLE, Rules
from .shiptypes import ship_types

MAX_SHIPS = 256
MAX_ORDNANCE = 1024
MAX_ID = 64

Id = Annotated[str, MinLen(1), MaxLen(MAX_ID)]
Coord = Annotated[int, Range(-10_000, 10_000)]
Hex = tuple[Coord, Coord]
Vel = tuple[Annotated[int, Range(-1000, 1000)], Annotated[int, Range(-1000, 1000)]]
HexKey = Annotated[str, MaxLen(24)]
Dir = Annotated[int, Range(0, 5)]
Count = Annotated[int, Range(0, 1_000_000)]
Seat = Literal[0, 1]
Name = Annotated[str, MaxLen(64)]
CAUSES = ("crash", "off_map", "gun", "counter", "planetary_defense", "asteroid", "ram", "mine", "torpedo", "nuke")
Cause = Literal["crash", "off_map", "gun", "counter", "planetary_defense", "asteroid", "ram", "mine", "torpedo",
                "nuke"]
PHASES = ("fleet_building", "astrogation", "ordnance", "combat", "logistics", "game_over")


class ShipJ(TypedDict):
    id: Id
    owner: Seat
    type: Name
    position: Hex
    velocity: Vel
    fuel: Count | None
    pending_gravity: Annotated[tuple[Dir, ...], MaxLen(64)]
    landed: bool
    destroyed: bool
    cause: Cause | None
    disabled: Annotated[int, Range(0, 1000)]
    overload_used: bool
    cargo_used: Count
    passengers: Count
    nukes: Count
    detected: bool
    heroic: bool
    control: Literal["own", "captured", "surrendered"]
    resupplied: bool
    path: Annotated[list[Hex], MaxLen(256)]
    carrying_base: bool
    emplaced: bool
    hidden_identity: NotRequired[Literal[True]]
    revealed: NotRequired[bool]
    identity: NotRequired[Literal["fugitives", "decoy"]]


class OrdnanceJ(TypedDict):
    id: Id
    owner: Seat
    kind: Literal["mine", "torpedo", "nuke"]
    position: Hex
    velocity: Vel
    pending_gravity: Annotated[tuple[Dir, ...], MaxLen(64)]
    turns_remaining: Annotated[int, Range(0, 1000)]
    launched_by: Id | None
    detected: bool


class PlayerJ(TypedDict):
    home: Name
    target: Name
    escape_wins: bool
    bases: Annotated[list[HexKey], MaxLen(512)]
    credits: Count
    spent: Count
    visited: Annotated[list[Name], MaxLen(32)]
    ready: bool


class RulesJ(TypedDict):
    combat: bool
    planetary_defense: bool
    logistics: bool
    passenger_rescue: bool
    target_requires_passengers: bool
    hidden_identity: bool
    escape_edge: Literal["none", "north"]
    allowed_ordnance: Annotated[list[Literal["mine", "torpedo", "nuke"]], MaxLen(3)]
    checkpoints: Annotated[list[Name], MaxLen(32)]
    fleet_purchases: Annotated[list[Name], MaxLen(32)]


class OrderJ(TypedDict):
    type: Literal["order"]
    ship: Id
    burn: Dir | None
    overload: Dir | None
    land: bool
    weak: Annotated[list[HexKey], MaxLen(16)]


class CombatJ(TypedDict):
    used: Annotated[list[Id], MaxLen(MAX_SHIPS)]
    attacked: Annotated[list[Id], MaxLen(MAX_SHIPS + MAX_ORDNANCE)]
    group: Annotated[list[Id], MaxLen(MAX_SHIPS)]
    allocated: Count
    group_hex: HexKey | None


class ResultJ(TypedDict):
    winners: Annotated[list[Seat], MaxLen(2)]
    reason: Annotated[str, MaxLen(200)]
    scores: Annotated[list[Annotated[float, Range(-1e9, 1e9)]], MaxLen(2)] | None


Purchase = tuple[Id, Name, Id | None]


def _hexes_json(hexes: frozenset) -> list:
    return sorted(hkey(h) for h in hexes)


def _hexes(v: list, doc: dict) -> frozenset:
    return frozenset(hparse(h) for h in v)


def _orders_json(orders: dict) -> dict:
    return {k: o.to_json() for k, o in sorted(orders.items())}


def _orders(v: dict, doc: dict) -> dict:
    return {k: Order(o["ship"], o["burn"], o["overload"], o["land"], tuple(o["weak"])) for k, o in v.items()}


def _purchases_json(purchases: list) -> list:
    return [[list(x) for x in purchases[q]] for q in range(2)]


def _purchases(v: list, doc: dict) -> list:
    return [[tuple(x) for x in v[q]] for q in range(2)]


#: The fields of a ``TacticalState``, declared once (``deltav.core.fields``): its slots, ``clone``, ``to_json``, the
#: building from JSON and the JSON shape (``StateJ``) follow. In JSON order; each attribute is its JSON key but
#: ``res`` ("result": the protocol's ``result()`` owns the name). ``gmap`` (the map) and ``_opts`` (a per
#: player-turn cache) are not saved: ``TacticalState.from_json`` sets them; ``_index`` (ship id -> ship) is rebuilt
#: from ``ships`` in a clone and after loading.
FIELDS = Fields(
    Field("options", Annotated[dict[str, Any], MaxLen(32)], SHARE, DICT, DICT),
    Field("scenario", Annotated[str, MaxLen(4096)]),
    Field("name", Annotated[str, MaxLen(200)]),
    Field("rules", RulesJ, SHARE, TO_JSON, lambda v, doc: Rules.from_json(v)),
    Field("gmap"),  # default_map(): set after loading, shared by clones
    Field("rng", Annotated[str, MaxLen(64)], CLONE, TO_JSON, lambda v, doc: Rng.from_json(v)),
    Field("players", Annotated[list[PlayerJ], MinLen(2), MaxLen(2)], COPY_EACH, EACH_TO_JSON,
          lambda v, doc: [Player.from_json(p) for p in v]),
    Field("ships", Annotated[list[ShipJ], MaxLen(MAX_SHIPS)], COPY_EACH, EACH_TO_JSON,
          lambda v, doc: [Ship.from_json(x) for x in v]),
    Field("_index", rebuild=lambda s: {sh.id: sh for sh in s.ships}),  # ship id -> ship (of this state's ships)
    Field("ordnance", Annotated[list[OrdnanceJ], MaxLen(MAX_ORDNANCE)], COPY_EACH, EACH_TO_JSON,
          lambda v, doc: [Ordnance.from_json(x) for x in v]),
    Field("next_ordnance", Annotated[int, Range(1, 10_000_000)]),
    Field("destroyed_bases", Annotated[list[HexKey], MaxLen(512)], SHARE, _hexes_json, _hexes),
    Field("destroyed_asteroids", Annotated[list[HexKey], MaxLen(512)], SHARE, _hexes_json, _hexes),
    Field("orders", Annotated[dict[str, OrderJ], MaxLen(MAX_SHIPS)], SHARE, _orders_json, _orders),  # replaced only
    Field("launched", Annotated[list[Id], MaxLen(MAX_SHIPS)], SHARE, LIST, TUPLE),
    Field("hazards", Annotated[list[tuple[Id, HexKey]], MaxLen(4096)], COPY,
          lambda v: [[s, hkey(h)] for s, h in v], lambda v, doc: [(a, hparse(b)) for a, b in v]),
    Field("combat", CombatJ | None, COPY_RECORD_OR_NONE, TO_JSON_OR_NONE,
          lambda v, doc: CombatState.from_json(v) if v is not None else None),
    Field("transfers", Annotated[int, Range(0, 1000)]),
    Field("moral", bool),
    Field("escaped", tuple[Id, bool] | None, SHARE, LIST_OR_NONE, lambda v, doc: tuple(v) if v else None),
    Field("res", ResultJ | None, SHARE, TO_JSON_OR_NONE, lambda v, doc: Result.from_json(v) if v else None,
          json="result"),
    Field("turn", Annotated[int, Range(1, 1_000_000)]),
    Field("first_player", Seat),
    Field("active_player", Seat),
    Field("phase", Literal["fleet_building", "astrogation", "ordnance", "combat", "logistics", "game_over"]),
    Field("purchases", Annotated[list[Annotated[list[Purchase], MaxLen(1024)]], MinLen(2), MaxLen(2)], COPY,
          _purchases_json, _purchases),  # each player's list replaced, never changed in place (fleet.py)
    Field("_opts"),  # per player-turn cache: shared by clones (entries stay valid; replaced, never cleared, on
    # change), a new dict after loading
    constants={"format": "deltav-tactical-state/1"},
)

StateJ = FIELDS.typed_dict("StateJ")


def _fail(path: str, reason: str):
    raise StateError(path, reason)


def _hex_key(k: str, path: str) -> tuple[int, int]:
    h = parse_hex_key(k)
    if h is None:
        _fail(path, f"expected a hex key \"q,r\", got {shown(k)}")
    return h


def check_state(obj: Any, game: Any) -> dict:
    """Validate a saved state document (see the module docstring); returns it unchanged."""
    if not isinstance(obj, dict):
        _fail("$", "expected an object")
    doc = read(StateJ, obj, error=StateError)
    gmap = default_map()
    types = ship_types()
    # options: every option present and valid (parsed by its Option); the scenario file is not read
    opts = doc["options"]
    known = {o.name for o in game.options}
    for k in opts:
        if k not in known:
            _fail(f"$.options.{k}", f"unknown option (options: {', '.join(sorted(known))})")
    for name in sorted(known):
        if name not in opts:
            _fail(f"$.options.{name}", "missing")
        try:
            parsed = game.option(name).parse(opts[name])
        except DeltavError as exc:
            _fail(f"$.options.{name}", str(exc))
        if parsed != opts[name] or type(parsed) is not type(opts[name]):
            _fail(f"$.options.{name}", f"not in its stored form: {opts[name]!r}")
    if opts["scenario"] != doc["scenario"]:
        _fail("$.scenario", "differs from options.scenario")
    try:
        Rng.from_json(doc["rng"])
    except ValueError as exc:
        _fail("$.rng", str(exc))
    rules = doc["rules"]
    for i, b in enumerate(rules["checkpoints"]):
        if b not in gmap.bodies:
            _fail(f"$.rules.checkpoints[{i}]", f"unknown body {b!r}")
    buyable = set(types) | set(PURCHASABLE)
    for i, t in enumerate(rules["fleet_purchases"]):
        if t not in buyable:
            _fail(f"$.rules.fleet_purchases[{i}]", f"unknown item {t!r}")
    if len(set(rules["allowed_ordnance"])) != len(rules["allowed_ordnance"]):
        _fail("$.rules.allowed_ordnance", "duplicate kinds")
    # players
    for p, pl in enumerate(doc["players"]):
        path = f"$.players[{p}]"
        for key in ("home", "target"):
            if pl[key] and pl[key] not in gmap.bodies:
                _fail(f"{path}.{key}", f"unknown body {pl[key]!r}")
        for i, k in enumerate(pl["bases"]):
            if _hex_key(k, f"{path}.bases[{i}]") not in gmap.base:
                _fail(f"{path}.bases[{i}]", f"{k} is not a base hex")
        for i, b in enumerate(pl["visited"]):
            if b not in gmap.bodies:
                _fail(f"{path}.visited[{i}]", f"unknown body {b!r}")
    # ships
    ids: set[str] = set()
    fugitives = 0
    for i, s in enumerate(doc["ships"]):
        path = f"$.ships[{i}]"
        if s["id"] in ids:
            _fail(f"{path}.id", f"duplicate ship id {s['id']!r}")
        ids.add(s["id"])
        st = types.get(s["type"])
        if st is None:
            _fail(f"{path}.type", f"unknown ship type {s['type']!r}")
        if st.fuel is None:
            if s["fuel"] is not None:
                _fail(f"{path}.fuel", f"a {st.name} has unlimited fuel (null)")
        elif s["fuel"] is None or s["fuel"] > st.fuel:
            _fail(f"{path}.fuel", f"expected 0..{st.fuel} for a {st.name}, got {s['fuel']!r}")
        if s["cause"] is not None and not s["destroyed"]:
            _fail(f"{path}.cause", "a cause without destruction")
        hidden = "hidden_identity" in s
        for key in ("revealed", "identity"):
            if hidden and key not in s:
                _fail(f"{path}.{key}", "missing (the ship has a hidden identity)")
            if not hidden and key in s:
                _fail(f"{path}.{key}", "only ships with a hidden identity have it")
        if hidden and s["identity"] == "fugitives":
            fugitives += 1
    if fugitives > 1:
        _fail("$.ships", "more than one ship carries the fugitives")
    # ordnance
    oids: set[str] = set()
    for i, o in enumerate(doc["ordnance"]):
        path = f"$.ordnance[{i}]"
        oid = o["id"]
        if oid in oids or oid in ids:
            _fail(f"{path}.id", f"duplicate id {oid!r}")
        oids.add(oid)
        if not (oid.startswith("ord") and oid[3:].isdigit() and str(int(oid[3:])) == oid[3:]):
            _fail(f"{path}.id", f"expected \"ord<number>\", got {shown(oid)}")
        if int(oid[3:]) >= doc["next_ordnance"]:
            _fail(f"{path}.id", f"not below next_ordnance {doc['next_ordnance']}")
        if o["launched_by"] is not None and o["launched_by"] not in ids:
            _fail(f"{path}.launched_by", f"no ship {o['launched_by']!r}")
        if o["kind"] not in ORDNANCE_KINDS:
            _fail(f"{path}.kind", f"unknown kind {o['kind']!r}")
    for key, table in (("destroyed_bases", gmap.base), ("destroyed_asteroids", gmap.asteroids)):
        for i, k in enumerate(doc[key]):
            if _hex_key(k, f"$.{key}[{i}]") not in table:
                _fail(f"$.{key}[{i}]", f"{k} is not a {key[10:-1]} hex")
    for sid, o in doc["orders"].items():
        path = f"$.orders.{sid}"
        if sid not in ids or o["ship"] != sid:
            _fail(f"{path}.ship", f"no ship {sid!r} (or the order names another ship)")
        for i, k in enumerate(o["weak"]):
            _hex_key(k, f"{path}.weak[{i}]")
    for i, sid in enumerate(doc["launched"]):
        if sid not in ids:
            _fail(f"$.launched[{i}]", f"no ship {sid!r}")
    for i, (sid, k) in enumerate(doc["hazards"]):
        if sid not in ids:
            _fail(f"$.hazards[{i}][0]", f"no ship {sid!r}")
        _hex_key(k, f"$.hazards[{i}][1]")
    c = doc["combat"]
    if c is not None:
        for key in ("used", "group"):
            for i, sid in enumerate(c[key]):
                if sid not in ids:
                    _fail(f"$.combat.{key}[{i}]", f"no ship {sid!r}")
        if c["group_hex"] is not None:
            _hex_key(c["group_hex"], "$.combat.group_hex")
        if doc["phase"] not in ("combat", "game_over"):  # a game won in combat keeps its bookkeeping
            _fail("$.combat", f"combat bookkeeping outside the combat phase ({doc['phase']})")
    if doc["escaped"] is not None and doc["escaped"][0] not in ids:
        _fail("$.escaped[0]", f"no ship {doc['escaped'][0]!r}")
    res = doc["result"]
    if (res is not None) != (doc["phase"] == "game_over"):
        _fail("$.result", "a result exactly when the phase is game_over")
    if res is not None and len(set(res["winners"])) != len(res["winners"]):
        _fail("$.result.winners", "duplicate winners")
    if doc["phase"] != "fleet_building" and any(doc["purchases"]):
        _fail("$.purchases", "purchases outside fleet building")
    for p, lst in enumerate(doc["purchases"]):
        for i, (_eid, item, _carrier) in enumerate(lst):
            if item not in buyable:
                _fail(f"$.purchases[{p}][{i}][1]", f"unknown item {item!r}")
    if doc["turn"] > opts["turn_limit"] + 1:
        _fail("$.turn", f"beyond the turn limit {opts['turn_limit']}")
    return obj
