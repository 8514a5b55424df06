"""The fields of a Deep Space Combat state declared once (``FIELDS``: types, JSON names, what ``clone`` copies or
shares, how each becomes JSON and back: ``deltav.core.fields``), the JSON shape that follows (``StateJ``), and the
checks a shape cannot express.

``read_state(obj)`` reads untrusted JSON with :func:`deltav.core.shape.read` (types, bounds, every list's
length bounded before anything is built) and ``check_state(state)`` then checks the built state's consistency:
list lengths against the player count, ids and indices that refer to things that exist, ships that match the
designs they were commissioned from, each phase's cursors and pending plans (every pending step one that
``apply_action`` would have accepted), the options (``resolve_options``), the rng and the result. Every refusal
is ``StateError(field path, reason)``.

This module owns the declaration and validation of state JSON: it builds nothing (``state.py`` does, from the
declaration) and changes nothing.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, TypedDict

from deltav.core.errors import DeltavError, ScenarioError, StateError
from deltav.core.fields import (
    CLONE,
    COPY,
    COPY_EACH,
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
from deltav.core.hexgrid import distance
from deltav.core.protocol import Result
from deltav.core.rng import Rng
from deltav.core.shape import MaxLen, MinLen, Range, read
from deltav.games.deepspace import flow, plot_phase
from deltav.games.deepspace.design import MAX_NAME_LEN, MAX_SIZE_LEVELS, POINTS_PER_SIZE, design_from_obj
from deltav.games.deepspace.limits import ALIVE, DESIGN_STAGES, SPLIT_THRUST
from deltav.games.deepspace.messages import EVENTS
from deltav.games.deepspace.movement import thrust_cost
from deltav.games.deepspace.scenarios import MAX_PLAYERS, MAX_ZONE_RADIUS
from deltav.games.deepspace.ship import Ship

MAX_SHIPS = MAX_PLAYERS * MAX_SIZE_LEVELS
MAX_LEVEL = POINTS_PER_SIZE * MAX_SIZE_LEVELS  # no stat level can exceed a ship's design points
MAX_WEAPONS = POINTS_PER_SIZE * MAX_SIZE_LEVELS  # every weapon costs at least one point
BIG = 10**12  # hit point counters, coordinates, velocities: far beyond any game, far below trouble
MAX_REPORT = 200_000

Count = Annotated[int, Range(0, BIG)]
Coord = Annotated[int, Range(-BIG, BIG)]
Level = Annotated[int, Range(0, MAX_LEVEL)]
Player = Annotated[int, Range(0, MAX_PLAYERS - 1)]
ShipIndex = Annotated[int, Range(0, MAX_SHIPS - 1)]
Name = Annotated[str, MaxLen(MAX_NAME_LEN)]
Id = Annotated[str, MaxLen(40)]


class ShipJ(TypedDict):
    id: Id
    owner: Player
    name: Name
    design: Id
    size: Annotated[int, Range(1, MAX_SIZE_LEVELS)]
    lv: Annotated[list[Level], MinLen(3), MaxLen(3 + 2 * MAX_WEAPONS)]
    partial: tuple[Count, Count, Count]
    pos: tuple[Coord, Coord] | None
    vel: tuple[Coord, Coord]
    status: Annotated[int, Range(0, 2)]
    hp_taken: Count
    pending: Count
    incoming: Count
    seen_thrust: Count
    seen_weapons: Annotated[int, Range(0, MAX_WEAPONS)]
    seen_damage: Annotated[list[Count], MaxLen(MAX_WEAPONS)]


class WeaponJ(TypedDict):
    targeting: Level
    damage: Level


class DesignJ(TypedDict):
    name: Name
    size: Annotated[int, Range(1, MAX_SIZE_LEVELS)]
    thrust: Level
    evasion: Level
    endurance: Level
    weapons: Annotated[list[WeaponJ], MaxLen(MAX_WEAPONS)]


class ResultJ(TypedDict):
    winners: Annotated[list[Player], MaxLen(MAX_PLAYERS)]
    reason: Annotated[str, MaxLen(200)]
    scores: Annotated[list[float], MaxLen(MAX_PLAYERS)]


Vel = tuple[Coord, Coord]
ShotPlan = tuple[Annotated[int, Range(0, MAX_WEAPONS - 1)], Annotated[int, Range(-1, MAX_SHIPS - 1)]]
# a pending plan: None; a self-destruct declaration; a deployment (q, r, dq, dr); a plot (velocity or None for
# withdraw, the shots so far)
Plan = None | bool | tuple[Coord, Coord, Coord, Coord] | tuple[Vel | None, Annotated[list[ShotPlan], MaxLen(MAX_WEAPONS)]]
Draft = tuple[
    Annotated[int, Range(0, MAX_SIZE_LEVELS)], Level, Level, Level,
    Annotated[list[tuple[Level, Level]], MaxLen(MAX_WEAPONS)], Annotated[int, Range(0, 5)], Level,
]
ShotLog = tuple[Id, Annotated[int, Range(0, MAX_WEAPONS - 1)], Id, Count, bool, Count]


def _ships_from_json(v: list, doc: dict) -> list:
    ships = [Ship.from_json(x) for x in v]
    if len({x.id for x in ships}) != len(ships):
        _fail("$.ships", "two ships share an id")
    return ships


def _cur_json(cur: list) -> list:
    return [list(c) if isinstance(c, tuple) else c for c in cur]


def _plan_json(x):
    """Plans: None; a bool (self-destruct); (q, r, dq, dr) in deployment; (vel or None, ((w, target), ...)) in
    plots."""
    if x is None or isinstance(x, bool) or len(x) == 4:
        return x if not isinstance(x, tuple) else list(x)
    a, b = x
    return [list(a) if a is not None else None, [list(y) for y in b]]


def _plan_from_json(x):
    """A plan from its checked form (fixed tuples already read as tuples)."""
    if x is None or isinstance(x, bool) or len(x) == 4:
        return x
    a, b = x
    return (a, tuple(b))


def _result_from_json(r: dict | None, doc: dict) -> Result | None:
    return Result(tuple(r["winners"]), r["reason"], tuple(r["scores"])) if r is not None else None


def _designs_from_json(v: list, doc: dict) -> list:
    cap = doc["opts"]["stat_cap"]
    designs = []
    for p, ds in enumerate(v):
        try:
            designs.append(tuple(design_from_obj(d, f"designs[{p}][{k}]", cap) for k, d in enumerate(ds)))
        except ScenarioError as exc:
            raise StateError("$." + exc.field, exc.reason) from None
    return designs


def _drafts_json(drafts: list) -> list:
    return [[a, b, c, d, [list(w) for w in ws], st, pe] for a, b, c, d, ws, st, pe in drafts]


PerPlayer = Annotated[int, Range(0, MAX_SHIPS)]

#: The fields of a ``DeepSpaceState``, declared once (``deltav.core.fields``): its slots, ``clone``, ``to_json``,
#: the building of a state from JSON and the JSON shape ``StateJ`` all follow from this list.
FIELDS = Fields(
    Field("num_players", Annotated[int, Range(2, MAX_PLAYERS)]),
    Field("rng", Annotated[str, MaxLen(16)], CLONE, TO_JSON, lambda v, doc: Rng.from_json(v)),
    Field("opts", Annotated[dict[str, Any], MaxLen(64)], SHARE, DICT, DICT),
    Field("names", Annotated[list[Name], MaxLen(MAX_PLAYERS)], SHARE, LIST, TUPLE),
    Field("levels", Annotated[list[Annotated[int, Range(1, MAX_SIZE_LEVELS)]], MaxLen(MAX_PLAYERS)], SHARE, LIST,
          TUPLE),
    Field("zones", Annotated[list[tuple[Coord, Coord, Annotated[int, Range(0, MAX_ZONE_RADIUS)]]],
                             MaxLen(MAX_PLAYERS)], SHARE, ROWS, TUPLE),
    Field("round_limit", Annotated[int, Range(1, BIG)]),
    Field("phase", Literal["design", "deploy", "plot", "allocate", "destruct", "over"]),
    Field("sub", Literal["", "fire", "blast"]),
    Field("round", Annotated[int, Range(0, BIG)]),
    Field("ships", Annotated[list[ShipJ], MaxLen(MAX_SHIPS)], COPY_EACH, EACH_TO_JSON, _ships_from_json),
    Field("index"),  # ship id -> position in ships: rebuilt after loading, shared by clones (ships never move)
    Field("waiting", Annotated[list[bool], MaxLen(MAX_PLAYERS)], COPY, LIST, LIST),
    Field("order", Annotated[list[Annotated[list[ShipIndex], MaxLen(MAX_SHIPS)]], MaxLen(MAX_PLAYERS)], COPY, ROWS,
          ROW_TUPLES),
    Field("cur", Annotated[list[PerPlayer | tuple[PerPlayer, Annotated[int, Range(-1, MAX_WEAPONS)]]],
                           MaxLen(MAX_PLAYERS)], COPY, _cur_json, LIST),
    Field("col", Annotated[list[Coord | None], MaxLen(MAX_PLAYERS)], COPY, LIST, LIST),
    Field("plan", Annotated[list[Plan], MaxLen(MAX_SHIPS)], COPY, lambda v: [_plan_json(x) for x in v],
          lambda v, doc: [_plan_from_json(x) for x in v]),
    Field("inflicted", Annotated[list[Count], MaxLen(MAX_PLAYERS)], COPY, LIST, LIST),
    Field("received", Annotated[list[Count], MaxLen(MAX_PLAYERS)], COPY, LIST, LIST),
    Field("report", Annotated[list[Annotated[dict[str, Any], MaxLen(16)]], MaxLen(MAX_REPORT)], SHARE,
          lambda v: [e.copy() for e in v], TUPLE),
    Field("shots", Annotated[list[ShotLog], MaxLen(48)], SHARE, ROWS, TUPLE),
    Field("_result", ResultJ | None, SHARE, TO_JSON_OR_NONE, _result_from_json, json="result"),
    Field("designs", Annotated[list[Annotated[list[DesignJ], MaxLen(MAX_SIZE_LEVELS)]], MaxLen(MAX_PLAYERS)], COPY,
          lambda v: [[d.to_json() for d in ds] for ds in v], _designs_from_json),
    Field("drafts", Annotated[list[Draft], MaxLen(MAX_PLAYERS)], COPY, _drafts_json,
          lambda v, doc: [(a, b, c, d, tuple(ws), st, pe) for a, b, c, d, ws, st, pe in v]),
    Field("_vships"),  # visibility.py's read-only records of the ships and players as last shown (visibility.py only)
    Field("_vplayers"),
    constants={"game": "deepspace"},
)
StateJ = FIELDS.typed_dict("StateJ")


_RNG = re.compile(r"[0-9a-f]{16}")
_PER_PLAYER = ("names", "levels", "zones", "waiting", "order", "cur", "col", "inflicted", "received", "designs",
               "drafts")


def _fail(field: str, reason: str):
    raise StateError(field, reason)


def read_state(obj: Any) -> dict:
    """``obj`` checked against :class:`StateJ` (StateError naming the field), with per-player lengths, the rng
    and the options checked too. Returns the converted document (fixed tuples as tuples)."""
    doc = read(StateJ, obj, error=StateError)
    n = doc["num_players"]
    for key in _PER_PLAYER:
        if len(doc[key]) != n:
            _fail(f"$.{key}", f"has {len(doc[key])} entries, the state has {n} players")
    if not _RNG.fullmatch(doc["rng"]):
        _fail("$.rng", "expected the generator state as 16 lowercase hex digits")
    if len(doc["plan"]) != len(doc["ships"]):
        _fail("$.plan", f"has {len(doc['plan'])} entries for {len(doc['ships'])} ships")
    return doc


def check_options(game: Any, opts: dict) -> Any:
    """The scenario of ``opts``, which must be options exactly as ``resolve_options`` returns them."""
    try:
        resolved = game.resolve_options(opts)
        scenario = game._scenario(resolved)
    except DeltavError as exc:
        _fail("$.opts", str(exc))
    if json.dumps(resolved, sort_keys=True) != json.dumps(opts, sort_keys=True):
        bad = sorted(k for k in resolved if json.dumps(resolved[k]) != json.dumps(opts.get(k)))
        _fail(f"$.opts.{bad[0] if bad else '?'}", "not the resolved form of the options (every option, its own type)")
    return scenario


def check_state(s: Any, scenario: Any) -> None:  # noqa: C901 - one flat list of checks, in the order of the docs
    """Raise StateError unless the built state ``s`` is consistent (see the module docstring)."""
    n = s.num_players
    opts = s.opts
    ph = s.phase
    if len(scenario.players) != n:
        _fail("$.num_players", f"the scenario {opts['scenario']!r} has {len(scenario.players)} players, not {n}")
    if s.round_limit != (opts["round_limit"] or scenario.round_limit):
        _fail("$.round_limit", "not the round limit of the options and the scenario")
    designers = [p.fleet is None for p in scenario.players]
    # designs: legal, within the side's size levels; fixed fleets as the scenario says
    cap = opts["stat_cap"]  # each design was read against it (design_from_obj)
    for p in range(n):
        ds = s.designs[p]
        if sum(d.size for d in ds) > s.levels[p]:
            _fail(f"$.designs[{p}]", f"the designs total more than the side's {s.levels[p]} size levels")
        if not designers[p] and ds != scenario.players[p].fleet.ships:
            _fail(f"$.designs[{p}]", "not the fleet the scenario gives this side")
    # ships: exactly the commissioned designs, each within its design
    if ph == "design":
        if s.ships:
            _fail("$.ships", "ships exist only after the design phase")
    else:
        want = [(p, k, d) for p in range(n) for k, d in enumerate(s.designs[p])]
        if len(want) != len(s.ships):
            _fail("$.ships", f"{len(s.ships)} ships for {len(want)} designs")
        hp_by_player = [0] * n
        for i, (x, (p, k, d)) in enumerate(zip(s.ships, want)):
            f = f"$.ships[{i}]"
            if (x.id, x.owner, x.design, x.size, x.name) != (f"s{p}-{k}", p, f"d-p{p}-{k}", d.size, d.name):
                _fail(f, f"not ship s{p}-{k} commissioned from design {k} of player {p}")
            top = [d.thrust, d.evasion, d.endurance] + [v for w in d.weapons for v in w]
            if len(x.lv) != len(top):
                _fail(f"{f}.lv", f"{len(x.lv)} stat levels, the design has {len(top)}")
            if any(a > b for a, b in zip(x.lv, top)):
                _fail(f"{f}.lv", "a stat above its designed level")
            for j in range(3):
                if x.partial[j] and (opts["leftover_damage"] != "partial" or x.partial[j] >= x.size or x.lv[j] <= 0):
                    _fail(f"{f}.partial[{j}]", "partial damage must be below size on a stat with levels (option partial)")
            nw = x.num_weapons
            if x.seen_weapons > nw or len(x.seen_damage) != nw:
                _fail(f"{f}.seen_weapons", f"the ship has {nw} weapons")
            if any(v and w >= x.seen_weapons for w, v in enumerate(x.seen_damage)):
                _fail(f"{f}.seen_damage", "damage seen from a weapon that has not fired")
            if x.pending > x.hp_taken or x.incoming > x.hp_taken:
                _fail(f"{f}.hp_taken", "less than the pending or incoming hit points")
            if (x.pos is None) != (ph == "deploy") or (x.pos is None and x.vel != (0, 0)):
                _fail(f"{f}.pos", "ships have positions once deployment is revealed, and only then")
            if ph == "deploy" and x.status != ALIVE:
                _fail(f"{f}.status", "every ship is in the battle during deployment")
            if x.status == ALIVE and x.dead() and ph != "allocate":
                _fail(f"{f}.lv", "a ship with every stat at zero is destroyed")
            if x.pending and (x.status != ALIVE or ph != "allocate"):
                _fail(f"{f}.pending", "pending hit points only on ships in the battle, during allocation")
            hp_by_player[x.owner] += x.hp_taken
        if hp_by_player != s.received:
            _fail("$.received", "not the hit points taken by each player's ships")
    if sum(s.inflicted) > sum(s.received):
        _fail("$.inflicted", "more hit points inflicted than received")
    # phase, step, round, waiting, result
    expected_sub = {"design": ("",), "deploy": ("",), "plot": ("",), "allocate": ("fire", "blast"),
                    "destruct": ("fire",), "over": ("fire", "blast")}[ph]
    if s.sub not in expected_sub:
        _fail("$.sub", f"{s.sub!r} is not a step of phase {ph!r}")
    if ph in ("design", "deploy"):
        if s.round != 0:
            _fail("$.round", "no round is played before deployment ends")
    elif not 1 <= s.round <= s.round_limit:
        _fail("$.round", f"must be between 1 and the round limit {s.round_limit}")
    if ph == "over":
        if any(s.waiting):
            _fail("$.waiting", "nobody is waited for when the game is over")
        if s._result is None:
            _fail("$.result", "a finished game has a result")
        r = s._result
        if len(set(r.winners)) != len(r.winners) or any(not 0 <= w < n for w in r.winners):
            _fail("$.result.winners", "not distinct players of this game")
        if r.scores is None or len(r.scores) != n:
            _fail("$.result.scores", f"expected {n} scores")
    else:
        if s._result is not None:
            _fail("$.result", "an unfinished game has no result")
        if not any(s.waiting):
            _fail("$.waiting", "some player must be waited for in an unfinished game")
    if ph == "destruct" and not opts["self_destruct"]:
        _fail("$.phase", "no destruction-phase declarations under self_destruct = false")
    # shots and report
    for i, (a, w, t, _rng, hit, hp) in enumerate(s.shots):
        x, y = s.ship(a), s.ship(t)
        if x is None or y is None or w >= x.num_weapons or (hp and not hit):
            _fail(f"$.shots[{i}]", "not a shot between ships of this game")
    for i, e in enumerate(s.report):
        try:
            ev = EVENTS.decode(e, f"$.report[{i}]")
        except DeltavError as exc:
            _fail(f"$.report[{i}]", str(exc))
        if getattr(ev, "to", None) is not None or ev.to_json() != e:
            _fail(f"$.report[{i}]", "not a public event in its JSON form")
    # per-phase cursors, orders and plans
    owned = [[i for i, x in enumerate(s.ships) if x.owner == p] for p in range(n)]
    alive = [[i for i in owned[p] if s.ships[i].status == ALIVE] for p in range(n)]
    pair = ph in ("deploy", "plot")
    for p in range(n):
        c = s.cur[p]
        if isinstance(c, tuple) != pair:
            _fail(f"$.cur[{p}]", f"expected {'[ship, step]' if pair else 'a ship index'} in phase {ph!r}")
        if s.col[p] is not None and not pair:
            _fail(f"$.col[{p}]", "a velocity column is chosen only in deployment and plotting")
    if ph == "design":
        for p in range(n):
            if s.order[p] or s.cur[p]:
                _fail(f"$.order[{p}]", "no ship order during design")
            if s.waiting[p] and not designers[p]:
                _fail(f"$.waiting[{p}]", "this side's fleet is given by the scenario")
            _check_draft(s, p, cap, DESIGN_STAGES)
        if s.plan:
            _fail("$.plan", "no plans during design")
        return
    for p in range(n):
        if s.drafts[p] != (0, 0, 0, 0, (), 0, 0):
            _fail(f"$.drafts[{p}]", "no ship is under design after the design phase")
    if ph == "over":
        if any(x is not None for x in s.plan):
            _fail("$.plan", "no pending plans when the game is over")
        return
    for p in range(n):
        order = list(s.order[p])
        f = f"$.order[{p}]"
        if ph == "deploy" and order != owned[p]:
            _fail(f, "deployment orders every ship of the player, by index")
        if ph == "plot" and order != alive[p]:
            _fail(f, "plotting orders the player's ships in the battle, by index")
        if ph in ("allocate", "destruct") and (order != sorted(set(order)) or any(i not in alive[p] for i in order)):
            _fail(f, "not distinct ships of this player in the battle, by index")
        if s.waiting[p] and not order:
            _fail(f"$.waiting[{p}]", "a player without ships to decide for is not waited for")
    if ph == "destruct":
        _check_destruct(s, n, alive)
    elif ph == "allocate":
        _check_allocate(s, n)
    elif ph == "deploy":
        _check_deploy(s, n, SPLIT_THRUST)
    else:
        _check_plot(s, n, SPLIT_THRUST, ALIVE)


def _check_draft(s: Any, p: int, cap: int, stages: tuple) -> None:
    size, t, e, en, weapons, stage, pend = s.drafts[p]
    f = f"$.drafts[{p}]"
    if stage == 0 or not s.waiting[p]:
        if (size, t, e, en, weapons, stage, pend) != (0, 0, 0, 0, (), 0, 0):
            _fail(f, "no ship is under design at stage 'size' (or after done)")
        return
    free = s.levels[p] - sum(d.size for d in s.designs[p])
    if not 1 <= size <= free:
        _fail(f"{f}[0]", f"size must be between 1 and the {free} unused size levels")
    if (stage <= 1 and t) or (stage <= 2 and e) or (stage <= 3 and en) or (stage < 4 and weapons):
        _fail(f, f"a stat set ahead of the stage {stages[stage]!r}")
    if stage != 5 and pend:
        _fail(f"{f}[6]", "a pending targeting level only between weapon_targeting and weapon_damage")
    if size * (t + e + en) + sum(a + b for a, b in weapons) + pend > POINTS_PER_SIZE * size:
        _fail(f, f"the design exceeds its {POINTS_PER_SIZE * size} design points")
    if cap and max([t, e, en, pend] + [v for w in weapons for v in w]) > cap:
        _fail(f, f"a stat exceeds the stat cap {cap}")
    if any(a + b < 1 for a, b in weapons):
        _fail(f"{f}[4]", "a weapon needs at least one level of targeting or damage")


def _check_deploy(s: Any, n: int, split_thrust: int) -> None:
    rest = s.opts["initial_velocity"] == "rest"
    for p in range(n):
        i, step = s.cur[p]
        order = s.order[p]
        f = f"$.cur[{p}]"
        if i > len(order) or step not in (0, 1) or (step == 1 and (rest or i == len(order))):
            _fail(f, "not a deployment step of this player")
        if not s.waiting[p] and i != len(order):
            _fail(f"$.waiting[{p}]", "a player who has not deployed every ship is waited for")
        col = s.col[p]
        if col is not None:
            x = s.ships[order[i]] if step == 1 else None
            if x is None or x.lv[0] <= split_thrust or abs(col) > x.lv[0]:
                _fail(f"$.col[{p}]", "not a velocity column of the ship being deployed")
        q0, r0, rad = s.zones[p]
        for j, si in enumerate(order):
            pl = s.plan[si]
            fp = f"$.plan[{si}]"
            if j < i or (j == i and step == 1):
                if not (isinstance(pl, tuple) and len(pl) == 4):
                    _fail(fp, "expected the ship's deployment [q, r, dq, dr]")
                if distance((pl[0], pl[1]), (q0, r0)) > rad:
                    _fail(fp, "outside the side's deployment zone")
                if (j == i or rest) and (pl[2], pl[3]) != (0, 0):
                    _fail(fp, "no initial velocity is chosen yet (or under initial_velocity = rest)")
                if thrust_cost((0, 0), (pl[2], pl[3])) > s.ships[si].lv[0]:
                    _fail(fp, "initial speed above the ship's thrust")
            elif pl is not None:
                _fail(fp, "a deployment for a ship not yet deployed")


def _check_plot(s: Any, n: int, split_thrust: int, alive: int) -> None:
    ff = s.opts["friendly_fire"]
    for p in range(n):
        i, w = s.cur[p]
        order = s.order[p]
        f = f"$.cur[{p}]"
        if i > len(order) or (i == len(order) and w != -1):
            _fail(f, "not a plotting step of this player")
        if not s.waiting[p] and i != len(order):
            _fail(f"$.waiting[{p}]", "a player who has not plotted every ship is waited for")
        x = s.ships[order[i]] if i < len(order) else None
        if w >= 0 and (w >= x.num_weapons or x.lv[3 + 2 * w] + x.lv[4 + 2 * w] <= 0):
            _fail(f, "the cursor is on a weapon without levels")
        col = s.col[p]
        if col is not None and (w != -1 or x is None or x.lv[0] <= split_thrust or abs(col - x.vel[0]) > x.lv[0]):
            _fail(f"$.col[{p}]", "not a velocity column of the ship being plotted")
        for j, si in enumerate(order):
            pl = s.plan[si]
            ship = s.ships[si]
            fp = f"$.plan[{si}]"
            if j > i or (j == i and w == -1):
                if pl is not None:
                    _fail(fp, "a plot for a ship not yet plotted")
                continue
            if not (isinstance(pl, tuple) and len(pl) == 2):
                _fail(fp, "expected the ship's plot [velocity or null, shots]")
            vel, shots = pl
            if vel is None:
                if shots or j == i or not plot_phase.may_withdraw(s, ship):
                    _fail(fp, "a withdrawal needs the withdrawal distance, and fires nothing")
                continue
            fixed = ship.lv[0] == 0 and s.opts["thrustless"] == "fixed"
            if (vel != (0, 0)) if fixed else thrust_cost(ship.vel, vel) > ship.lv[0]:
                _fail(fp, "a velocity change beyond the ship's thrust")
            armed = [k for k in range(ship.num_weapons) if ship.lv[3 + 2 * k] + ship.lv[4 + 2 * k] > 0]
            if j == i:
                armed = [k for k in armed if k < w]
            if [k for k, _ in shots] != armed:
                _fail(fp, "the shots are not one per armed weapon in order")
            for k, ti in shots:
                if ti < 0:
                    continue
                t = s.ships[ti] if ti < len(s.ships) else None
                if t is None or t is ship or t.status != alive or (t.owner == ship.owner and not ff):
                    _fail(fp, f"weapon {k} targets no legal enemy ship")
    for si, x in enumerate(s.ships):
        if x.status != alive and s.plan[si] is not None:
            _fail(f"$.plan[{si}]", "a plot for a ship out of the battle")


def _check_allocate(s: Any, n: int) -> None:
    ordered = set()
    for p in range(n):
        c = s.cur[p]
        order = s.order[p]
        if c > len(order) or s.waiting[p] != (c < len(order)):
            _fail(f"$.cur[{p}]", "not an allocation step of this player")
        for j, si in enumerate(order):
            ordered.add(si)
            x = s.ships[si]
            if (j < c) != (x.pending == 0) or (x.pending and x.dead()):
                _fail(f"$.ships[{si}].pending", "pending hit points only on ships still to allocate")
    for si, x in enumerate(s.ships):
        if x.pending and si not in ordered:
            _fail(f"$.ships[{si}].pending", "pending hit points on a ship nobody allocates for")
        if s.plan[si] is not None:
            _fail(f"$.plan[{si}]", "no pending plans during allocation")


def _check_destruct(s: Any, n: int, alive: list) -> None:
    by_hex: dict = {}
    for p in range(n):
        for si in alive[p]:
            by_hex.setdefault(s.ships[si].pos, set()).add(p)
    anywhere = flow.declare_anywhere(s)
    for p in range(n):
        want = [si for si in alive[p] if anywhere or len(by_hex[s.ships[si].pos]) > 1]
        order = list(s.order[p])
        c = s.cur[p]
        if order != want:
            _fail(f"$.order[{p}]", "not the player's ships that may declare (self_destruct_scope)")
        if c > len(order) or s.waiting[p] != (c < len(order)):
            _fail(f"$.cur[{p}]", "not a declaration step of this player")
        for j, si in enumerate(order):
            if (j < c) != isinstance(s.plan[si], bool):
                _fail(f"$.plan[{si}]", "declarations exactly for the ships already declared")
    for si, x in enumerate(s.ships):
        if x.pending:
            _fail(f"$.ships[{si}].pending", "no pending hit points in the destruction phase")
        if s.plan[si] is not None and not any(si in s.order[p] for p in range(n)):
            _fail(f"$.plan[{si}]", "a declaration for a ship that does not declare")
