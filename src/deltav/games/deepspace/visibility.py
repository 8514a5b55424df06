"""Views of Deep Space Combat, their secret tokens, and determinization: a full state consistent with one
player's view, built from the view alone (so a search bot cannot peek at hidden enemy designs or plots).

A view (``view(state, player)``) shows every ship's public side (size, status, position and velocity once
deployed, hit points taken, what it has shown in fire and movement); the viewer's own ships add their design
and stat levels; ``mine`` holds the viewer's pending plots, deployment, declarations, allocation and designs.
``view(state, None)`` (a spectator) shows only the public side.

A view is a JSON-ready value nobody can use to change the state. New in every view: the top-level dict, the
``players`` and ``ships`` lists, ``mine`` and the ``plans`` dict in it. Everything else is read-only and shared
(``deltav.core.frozen.Frozen`` records and tuples), handed to every view until the values it shows change:

- ships' public records: kept with the state (``DeepSpaceState._vships``, carried over by ``clone``) with the
  values each was made of (``_ship_key``: the ship's changing values, read for every ship in one pass and
  compared as one list); a changed ship gets a new record, the others are kept;
- a viewer's own ship records (the public one plus design, stats, partial damage, pending hit points): kept with
  the ship (``Ship.view_rec``, carried over by ``copy``) with copies of the stat slots and partial damage;
- the players' records: kept with the state (``_vplayers``) with copies of the scores and waiting flags;
- the options, the report and its entries, the shot log (the state's own tuple of tuples), the result, the ship
  ids of an order, plan entries, designs and drafts: kept by the identity of the never-mutated object they show.

The rules code never clears any of these: a changed value makes a new record.

What the view hides and how it is filled in:

- Enemy ship stats: sampled per ship within its size's design budget (``60 x size``, less the hit points it has
  taken), consistent with what was observed: thrust at least the largest velocity change seen since it was last
  damaged, at least as many weapons as have fired, each weapon's damage at least ``ceil(hp / 12)`` for the most
  hit points it dealt since the ship was last damaged. Then, among ``CANDIDATES`` such samples, one is drawn with
  probability proportional to the likelihood of the public shot log between that ship and the viewer's own
  ships (hit or miss and hit points, computed with the viewer's current stats: an approximation, since stats
  may have changed since the shot).
- Enemy ships of a side that fights with a fixed fleet named by the scenario: their designs are public (the
  scenario file the view names in ``options.scenario``), so only the allocation of the hit points they have
  taken is sampled, among :func:`damaged_variants` consistent with what they have shown (weighted by the shot
  log likelihood as above). Sides that design their fleet during play are sampled as above.
- Other players' pending plots, deployments and declarations: if they have submitted, a plausible one is sampled
  (keep velocity and fire every weapon at the nearest enemy; deploy at a random hex of the zone at rest; do not
  self-destruct); if not, their progress is cleared.
- Other players' allocation progress: reset to the hit points they received (public).
- Other players' fleet designs during the design phase: sampled fleets of their size levels when they are done.
- The dice: a fresh generator drawn from ``rng``.

Determinization by reuse (a bot draws several worlds from the view of the decision at hand): the first draw
from a view reads it once (:class:`_World`, kept by the view's identity in a small cache, checked against a few
per-step facts and the identity of its containers); each ship record is read into a template once per record
(shared records: the views of many steps read a ship once). Every world is a new state made of copies of what
was read, with only the hidden parts drawn, in the order and with the draws a fresh read takes
(``tests/deepspace/test_worlds.py`` holds the fresh read as the reference). The view is never changed, and must
not be changed after it was determinized.

The view's JSON shape is declared once, as ``ViewJson`` (below), from which the client's types are written
(web/tools/gen_types.py; tests/web/test_generated_types.py reads every view of every scenario against it).

This module owns views and sampling only; the rules stay in the phase modules and the pure modules.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Any, Literal, NotRequired, TypedDict

from deltav.core.errors import IllegalAction, OptionError, ScenarioError
from deltav.core.frozen import Frozen, freeze, read_once
from deltav.core.hexgrid import distance
from deltav.core.protocol import Result
from deltav.core.rng import Rng
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.design import POINTS_PER_SIZE, ShipDesign
from deltav.games.deepspace.limits import ALIVE, DESIGN_STAGES, STATUS_NAMES
from deltav.games.deepspace.odds import TWO_D6, p_hit
from deltav.games.deepspace.scenarios import scenario_for
from deltav.games.deepspace.ship import Ship
from deltav.games.deepspace.state_schema import DesignJ

# --- the view's JSON shape (web/src/generated/deepspace.ts is written from it) ----------------------------------

class ShipDesignJson(DesignJ):
    """A ship design (``ShipDesign.to_json()``)."""


class SeenJson(TypedDict):
    """What a ship has shown: the largest thrust, the weapons fired, each one's largest damage."""

    thrust: int
    weapons: int
    damage: list[int]


class ShipJson(TypedDict):
    """A ship's public record; the owner's adds its design and stats."""

    id: str
    owner: int
    size: int
    status: Literal["active", "destroyed", "withdrawn"]
    pos: tuple[int, int] | None
    vel: tuple[int, int] | None
    hp_taken: int
    incoming: int
    seen: SeenJson
    design: NotRequired[str]
    name: NotRequired[str]
    thrust: NotRequired[int]
    evasion: NotRequired[int]
    endurance: NotRequired[int]
    weapons: NotRequired[list[tuple[int, int]]]
    """(targeting, damage) per weapon."""
    partial: NotRequired[tuple[int, int, int]]
    pending: NotRequired[int]


class DraftJson(TypedDict):
    """The ship being designed, stat by stat."""

    size: int
    thrust: int
    evasion: int
    endurance: int
    weapons: list[tuple[int, int]]
    stage: Literal["size", "thrust", "evasion", "endurance", "weapon", "damage"]
    targeting: int


class PlanJson(TypedDict, total=False):
    """A ship's pending order: a deployment (``pos``, ``vel``), a plot (``withdraw``, ``vel``, ``shots``: weapon
    and target ship id, null to hold fire) or a self-destruct declaration (``detonate``)."""

    pos: tuple[int, int]
    vel: tuple[int, int] | None
    withdraw: bool
    shots: list[tuple[int, str | None]]
    detonate: bool


class MineJson(TypedDict):
    """The viewer's own secrets (``mine``; a finished match's full view shows each player's as ``private``)."""

    waiting: bool
    designs: NotRequired[list[ShipDesignJson]]
    draft: NotRequired[DraftJson]
    order: NotRequired[list[str]]
    cursor: NotRequired[int | tuple[int, int]]
    column: NotRequired[int | None]
    plot_id: NotRequired[str]
    plans: NotRequired[dict[str, PlanJson]]


class PlayerJson(TypedDict):
    name: str
    size_levels: int
    zone: tuple[int, int, int]
    inflicted: int
    received: int
    score: int
    waiting: bool
    private: NotRequired[MineJson]
    """A finished match's full view only: what ``mine`` shows this player."""


class ResultJson(TypedDict):
    winners: list[int]
    reason: str
    scores: list[float] | None


class ViewJson(TypedDict):
    """What one player (or a spectator) may know (:func:`view`; docs/deepspace.md "The view")."""

    game: Literal["deepspace"]
    you: int | None
    phase: Literal["design", "deploy", "plot", "allocate", "destruct", "over"]
    step: Literal["", "fire", "blast"]
    round: int
    round_limit: int
    options: dict[str, Any]
    players: list[PlayerJson]
    ships: list[ShipJson]
    report: list[dict[str, Any]]
    """The latest events, as the log's events."""
    shots: list[tuple[str, int, str, int, bool, int]]
    """The public shot log: (shooter, weapon, target, roll, hit, hit points)."""
    result: ResultJson | None
    mine: NotRequired[MineJson]


def secret_tokens(state, player: int | None) -> set[str]:
    """Strings a view for ``player`` must never hold: other sides' design ids and, while plotting, plot ids."""
    out = {s.design for s in state.ships if s.owner != player}
    if state.phase == "plot":
        out.update(state.plot_id(q) for q in range(state.num_players) if q != player)
    return out


def full_view(state) -> dict:
    """What an observer who knows everything sees (a finished match's replay): ``view(None)`` with every ship's
    owner record (design, name, stat levels, partial damage) and each player's record holding its secrets under
    ``private`` (what ``mine`` shows that player: plots, deployment, declarations, allocation, designs, draft)."""
    out = view(state, None)
    ships = out["ships"]
    for p in range(state.num_players):
        own = _ships_view(state, p)
        for i, s in enumerate(state.ships):
            if s.owner == p:
                ships[i] = own[i]
    out["players"] = [Frozen({**rec, "private": _private_view(state, p)}) for p, rec in enumerate(out["players"])]
    return out


def view(state, player: int | None) -> dict:
    """What ``player`` (None: a spectator) may know of the position, as a JSON-ready value: the top-level dict,
    the ``players`` and ``ships`` lists, ``mine`` and the dicts and lists it holds directly are new in every view;
    every other part is read-only and shared (``Frozen`` records and tuples, see the module docstring)."""
    n = state.num_players
    if player is not None and (type(player) is not int or not 0 <= player < n):
        raise IllegalAction("protocol.player", f"no such player {player!r} (players are 0..{n - 1})")
    ships = _ships_view(state, player)
    res = state._result
    out: dict = {
        "game": "deepspace",
        "you": player,
        "phase": state.phase,
        "step": state.sub,
        "round": state.round,
        "round_limit": state.round_limit,
        "options": _options_view(state.opts),
        "players": _players_view(state),
        "ships": ships,
        "report": _report_view(state.report),
        "shots": _shots_view(state.shots),
        "result": _result_view(res) if res is not None else None,
    }
    if player is not None:
        out["mine"] = _private_view(state, player)
    return out


#: The values of a ship that its public record is made of and that change in play (all immutable), read in C.
#: Its id, owner and size never change, and the records are carried only to clones of the ship (same ship).
_ship_key = attrgetter("pos", "vel", "status", "hp_taken", "incoming", "seen_thrust", "seen_weapons", "seen_damage")


class _Ships:
    """A state's ship records as last shown (``DeepSpaceState._vships``, carried over by ``clone``, never
    changed once made): the values each public record was made of, the records, and each player's ship
    indices."""

    __slots__ = ("keys", "recs", "own")

    def __init__(self, keys: list, recs: tuple, own: dict):
        self.keys = keys
        self.recs = recs
        self.own = own


def _ships_view(state, player: int | None) -> list:
    """The ships' records: a new list of shared read-only records. The public records are checked against the
    values they were made of in one pass (``_ship_key`` over every ship, compared as one list); a viewer's own
    ship adds its stats, kept with the ship (``Ship.view_rec``) and checked against copies of them."""
    ships = state.ships
    keys = [*map(_ship_key, ships)]
    c = state._vships
    if c is None or c.keys != keys:
        c = state._vships = _remake_ships(ships, keys, c)
    out = [*c.recs]
    if player is None:
        return out
    for i in c.own.get(player, ()):
        s = ships[i]
        pub = out[i]
        hit = s.view_rec
        if hit is None or hit[0] is not pub or hit[1] != s.lv or hit[2] != s.partial or hit[3] != s.pending:
            hit = s.view_rec = _own_rec(s, pub)
        out[i] = hit[4]
    return out


def _remake_ships(ships: list, keys: list, old: _Ships | None) -> _Ships:
    recs = []
    same = old is not None and len(old.keys) == len(keys)
    for i, s in enumerate(ships):
        k = keys[i]
        if same and old.keys[i] == k:
            recs.append(old.recs[i])
            continue
        pos, vel, status, hp_taken, incoming, seen_thrust, nw, seen_damage = k
        if pos is None:
            pos = vel = None
        else:
            pos = (pos[0], pos[1])
            vel = (vel[0], vel[1])
        recs.append(Frozen({
            "id": s.id, "owner": s.owner, "size": s.size, "status": STATUS_NAMES[status], "pos": pos, "vel": vel,
            "hp_taken": hp_taken, "incoming": incoming,
            "seen": Frozen({"thrust": seen_thrust, "weapons": nw, "damage": tuple(seen_damage[:nw])}),
        }))
    if same:
        own = old.own
    else:
        own: dict[int, list[int]] = {}
        for i, s in enumerate(ships):
            own.setdefault(s.owner, []).append(i)
    return _Ships(keys, tuple(recs), own)


def _own_rec(s: Ship, pub: Frozen) -> tuple:
    """The owner's record of ship ``s``: its public record ``pub``, then its design, stats, partial damage and
    pending hit points; returned with what it was made of (``pub``, copies of the stat slots and partial damage,
    the pending hit points) as ``Ship.view_rec``."""
    lv = s.lv
    wk = tuple(lv[3:])
    weapons = _WEAPONS.get(wk)
    if weapons is None:
        if len(_WEAPONS) >= _KEPT_MAX:
            _WEAPONS.clear()
        weapons = _WEAPONS[wk] = tuple(zip(wk[::2], wk[1::2]))
    partial = s.partial
    rec = Frozen({
        **pub,
        "design": s.design,
        "name": s.name,
        "thrust": lv[0],
        "evasion": lv[1],
        "endurance": lv[2],
        "weapons": weapons,
        "partial": tuple(partial),
        "pending": s.pending,
    })
    return (pub, lv[:], partial[:], s.pending, rec)


#: the ``weapons`` of own records ((targeting, damage) pairs) by the stat slots they are made of
_WEAPONS: dict[tuple, tuple] = {}


#: Read-only parts of views kept by the (never mutated) objects they show, by identity: each entry holds its
#: object, so the id is not reused while it is kept. Cleared when large (a long search meets many).
_OPTIONS: dict[int, tuple] = {}
_REPORTS: dict[int, tuple] = {}
_EVENTS: dict[int, tuple] = {}
_SHOTS: dict[int, tuple] = {}
_RESULTS: dict[int, tuple] = {}
_KEPT_MAX = 4096


def _kept(cache: dict, obj, make):
    """``make(obj)`` kept in ``cache`` by ``obj``'s identity (``obj`` must never be mutated)."""
    hit = cache.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    if len(cache) >= _KEPT_MAX:
        cache.clear()
    rec = make(obj)
    cache[id(obj)] = (obj, rec)
    return rec


def _options_view(opts: dict) -> Frozen:
    """The options, read-only: one record per options dict (a game's options never change; clones share it)."""
    hit = _OPTIONS.get(id(opts))
    if hit is not None and hit[0] is opts:
        return hit[1]
    return _kept(_OPTIONS, opts, freeze)


def _players_view(state) -> list:
    """The players' records (a new list of shared read-only records), kept with the state
    (``DeepSpaceState._vplayers``, carried over by ``clone``) with copies of the scores and flags they show (the
    names, size levels and zones never change in a game)."""
    inflicted, received, waiting = state.inflicted, state.received, state.waiting
    c = state._vplayers
    if c is None or c[0] != inflicted or c[1] != received or c[2] != waiting:
        names, levels, zones = state.names, state.levels, state.zones
        recs = tuple(
            Frozen({
                "name": names[p],
                "size_levels": levels[p],
                "zone": tuple(zones[p]),
                "inflicted": inflicted[p],
                "received": received[p],
                "score": inflicted[p] - received[p],
                "waiting": waiting[p],
            })
            for p in range(len(names))
        )
        c = state._vplayers = (inflicted[:], received[:], waiting[:], recs)
    return [*c[3]]


def _report_view(report: tuple) -> tuple:
    """The latest events' report, read-only: one tuple per report tuple (the state replaces it, never changes
    it), each entry frozen once (a report extended by a later step reuses the entries it shares)."""
    if not report:
        return ()
    hit = _REPORTS.get(id(report))
    if hit is not None and hit[0] is report:
        return hit[1]
    return _kept(_REPORTS, report, lambda r: tuple(_kept(_EVENTS, e, freeze) for e in r))


def _shots_view(shots: tuple) -> tuple:
    """The public shot log, read-only: the state's own tuple when its entries are tuples (as the rules make
    them), else a tuple of tuples made once per log."""
    if not shots:
        return ()
    hit = _SHOTS.get(id(shots))
    if hit is not None and hit[0] is shots:
        return hit[1]
    return _kept(_SHOTS, shots, lambda sh: sh if all(type(x) is tuple for x in sh) else tuple(tuple(x) for x in sh))


def _result_view(res: Result) -> Frozen:
    return _kept(_RESULTS, res, lambda r: freeze(r.to_json()))


def _private_view(state, p: int) -> dict:
    """The player's own secrets: its pending plot/deployment/declarations/allocation, its designs (a new dict,
    and new ``plans``; the records in them read-only and shared)."""
    ph = state.phase
    mine: dict = {"waiting": state.waiting[p]}
    if ph == "design":
        mine["designs"] = [*_kept(_DESIGNS, state.designs[p], _designs_rec)]
        mine["draft"] = _kept(_DRAFTS, state.drafts[p], _draft_rec)
    elif ph in ("deploy", "plot", "destruct", "allocate"):
        order = state.order[p]
        ships = state.ships
        index = state.index
        hit = _ORDERS.get(id(order))
        if hit is None or hit[0] is not order or hit[1] is not index:
            if len(_ORDERS) >= _KEPT_MAX:
                _ORDERS.clear()
            hit = _ORDERS[id(order)] = (order, index, tuple(ships[i].id for i in order))
        ids = hit[2]
        mine["order"] = ids
        c = state.cur[p]
        mine["cursor"] = c if type(c) is not list else c[:]  # an int or a tuple of ints
        if ph in ("deploy", "plot"):
            mine["column"] = state.col[p]
        if ph == "plot":
            mine["plot_id"] = state.plot_id(p)
        entries = {}
        plan = state.plan
        for k, i in enumerate(order):
            pl = plan[i]
            if pl is None:
                continue
            sid = ids[k]
            if ph == "destruct":
                entries[sid] = _DETONATE if pl else _HOLD
                continue
            e = _ENTRIES.get(id(pl))
            if e is None or e[0] is not pl or e[1] is not index or e[2] != sid:
                if ph == "deploy":
                    rec = Frozen({"pos": (pl[0], pl[1]), "vel": (pl[2], pl[3])})
                else:
                    rec = Frozen({
                        "withdraw": pl[0] is None,
                        "vel": tuple(pl[0]) if pl[0] is not None else None,
                        "shots": tuple((w, ships[ti].id if ti >= 0 else None) for w, ti in pl[1]),
                    })
                if len(_ENTRIES) >= _KEPT_MAX:
                    _ENTRIES.clear()
                e = _ENTRIES[id(pl)] = (pl, index, sid, rec)  # the plan is held, so its id is not reused
            entries[sid] = e[3]
        mine["plans"] = entries
    return mine


#: ``mine``'s read-only parts, by the identity of the (never mutated) tuples they show: ship ids of an order (with
#: the state's id index they were read from), plan entries (with that index and the ship's id), fleet designs,
#: drafts.
_ORDERS: dict[int, tuple] = {}
_ENTRIES: dict[int, tuple] = {}
_DESIGNS: dict[int, tuple] = {}
_DRAFTS: dict[int, tuple] = {}
_DETONATE = Frozen({"detonate": True})
_HOLD = Frozen({"detonate": False})


def _designs_rec(designs: tuple) -> tuple:
    return tuple(freeze(d.to_json()) for d in designs)


def _draft_rec(draft: tuple) -> Frozen:
    size, t, e, en, weapons, stage, pend = draft
    return Frozen({
        "size": size, "thrust": t, "evasion": e, "endurance": en,
        "weapons": tuple((a, b) for a, b in weapons), "stage": DESIGN_STAGES[stage], "targeting": pend,
    })


def sample_levels(
    size: int,
    rng: Rng,
    hp_taken: int = 0,
    seen_thrust: int = 0,
    seen_weapons: int = 0,
    seen_damage: tuple[int, ...] = (),
) -> list[int]:
    """Stat slots (thrust, evasion, endurance, then targeting/damage per weapon) of a plausible design."""
    nw = max(seen_weapons, 1 + rng.below(3))
    req_d = [(seen_damage[w] + 11) // 12 if w < len(seen_damage) else 0 for w in range(nw)]
    required = size * seen_thrust + sum(req_d)
    budget = max(POINTS_PER_SIZE * size - hp_taken, required + 1)
    avail = budget - required
    weights = [rng.random() + 0.05 for _ in range(3 + 2 * nw)]
    total = sum(weights)
    pts = [int(avail * w / total) for w in weights]
    lv = [seen_thrust + pts[0] // size, pts[1] // size, pts[2] // size]
    for w in range(nw):
        lv.append(pts[3 + 2 * w])
        lv.append(req_d[w] + pts[4 + 2 * w])
    if sum(lv) == 0:
        lv[3] = 1
    return lv


CANDIDATES = 4
#: allocations considered for a damaged ship whose design is public (see :func:`damaged_variants`)
PUBLIC_VARIANTS = 4


@lru_cache(maxsize=65536)
def damage_pmf(damage: int, endurance: int) -> dict[int, float]:
    """Exact distribution of the hit points of a damage roll (0 collects every roll at or below zero)."""
    out: dict[int, float] = {}
    for a, wa in TWO_D6:
        for e, we in TWO_D6:
            hp = a * damage - e * endurance
            hp = hp if hp > 0 else 0
            out[hp] = out.get(hp, 0.0) + wa * we / 1296
    return out


def shot_likelihood(lv: list[int], sid: str, own: dict[str, list[int]], shots) -> float:
    """Likelihood of the logged shots between enemy ship ``sid`` (candidate stat slots ``lv``) and the viewer's
    ships (``own``: id -> stat slots)."""
    like = 1.0
    nw = (len(lv) - 3) // 2
    for att, w, tgt, rng_, hit, hp in shots:
        if att == sid and tgt in own:
            if w >= nw:
                return 0.0
            t, d = lv[3 + 2 * w], lv[4 + 2 * w]
            ev, en = own[tgt][1], own[tgt][2]
        elif tgt == sid and att in own:
            mine = own[att]
            if 4 + 2 * w >= len(mine):
                continue
            t, d = mine[3 + 2 * w], mine[4 + 2 * w]
            ev, en = lv[1], lv[2]
        else:
            continue
        ph = p_hit(t, ev, rng_)
        like *= ph if hit else 1.0 - ph
        if hit:
            like *= damage_pmf(d, en).get(hp, 0.0)
        if like == 0.0:
            return 0.0
    return like


def sample_fleet(levels: int, rng: Rng) -> tuple[ShipDesign, ...]:
    out = []
    left = levels
    while left > 0:
        size = 1 + rng.below(left)
        lv = sample_levels(size, rng)
        out.append(ShipDesign(f"Design {len(out) + 1}", size, lv[0], lv[1], lv[2],
                              tuple((lv[k], lv[k + 1]) for k in range(3, len(lv), 2))))
        left -= size
    return tuple(out)


@lru_cache(maxsize=32)
def _scenario(ref: str, stat_cap: int, size_levels: str = ""):
    try:
        return scenario_for({"scenario": ref, "stat_cap": stat_cap, "size_levels": size_levels})
    except (ScenarioError, OptionError, OSError):
        return None


def fleet_prior(view: dict) -> dict[str, list[int]]:
    """Undamaged stat slots of every enemy ship whose side fights with a fixed fleet of the scenario (public:
    the scenario file), by ship id. Empty when the scenario cannot be read."""
    return {sid: list(lv) for sid, lv in _prior(view).items()}


def _prior(view: dict) -> dict[str, tuple[int, ...]]:
    """:func:`fleet_prior` as tuples, from a cache keyed by what it depends on (do not mutate the result)."""
    opts = view.get("options", {})
    ships = tuple((sv["id"], sv["owner"], sv["size"]) for sv in view["ships"])
    return _prior_of(str(opts.get("scenario", "")), int(opts.get("stat_cap", 0) or 0), str(opts.get("size_levels", "")),
                     len(view["players"]), view["you"], ships)


@lru_cache(maxsize=1024)
def _prior_of(ref: str, stat_cap: int, size_levels: str, n: int, me, ships: tuple) -> dict[str, tuple[int, ...]]:
    sc = _scenario(ref, stat_cap, size_levels)
    out: dict[str, tuple[int, ...]] = {}
    if sc is None or len(sc.players) != n:
        return out
    for sid, p, size in ships:
        if p == me:
            continue
        fleet = sc.players[p].fleet
        try:
            k = int(sid.rsplit("-", 1)[1])
        except (ValueError, IndexError):
            continue
        if fleet is None or k >= len(fleet.ships) or fleet.ships[k].size != size:
            continue
        d = fleet.ships[k]
        lv = [d.thrust, d.evasion, d.endurance]
        for t, dd in d.weapons:
            lv += [t, dd]
        out[sid] = tuple(lv)
    return out


def strip_levels(size: int, lv: list[int], hp: int, order: list[int], mode: str = "lost") -> list[int]:
    """``lv`` after ``hp`` hit points placed slot by slot in ``order`` (whole levels; the rest by the default
    allocation, leftover damage handled as ``mode``)."""
    lv = list(lv)
    partial = [0, 0, 0]
    left = hp
    for k in order:
        if left <= 0:
            break
        cost = dmg.slot_cost(k, size)
        n = min(lv[k], left // cost)
        lv[k] -= n
        left -= n * cost
    for slot, step in dmg.default_plan(size, lv, partial, left, mode):
        dmg.apply(size, lv, partial, slot, step, mode)
    return lv


def damaged_variants(size: int, lv: list[int], hp: int, k: int) -> list[list[int]]:
    """``k`` plausible stat slots of a ship of design ``lv`` that took ``hp`` hit points: half by the default
    allocation, a quarter keeping the weapons (ship stats lost first, the largest first), a quarter keeping the
    ship stats (weapons lost first). Fresh lists (the variants are computed once per design and damage)."""
    return [list(x) for x in _damaged_variants(size, tuple(lv), hp, k)]


@lru_cache(maxsize=4096)
def _damaged_variants(size: int, lv: tuple[int, ...], hp: int, k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(x) for x in _compute_variants(size, lv, hp, k))


def _compute_variants(size: int, lv, hp: int, k: int) -> list[list[int]]:
    if hp <= 0:
        return [list(lv) for _ in range(k)]
    default = list(lv)
    partial = [0, 0, 0]
    for slot, step in dmg.default_plan(size, default, partial, hp, "lost"):
        dmg.apply(size, default, partial, slot, step, "lost")
    ship_first = sorted(range(3), key=lambda s: -lv[s] * size) + list(range(3, len(lv)))
    weapons_first = sorted(range(3, len(lv)), key=lambda s: -lv[s]) + sorted(range(3), key=lambda s: -lv[s] * size)
    keep_weapons = strip_levels(size, lv, hp, ship_first)
    keep_ship = strip_levels(size, lv, hp, weapons_first)
    out = []
    for i in range(k):
        r = i % 4
        out.append(list(default if r in (0, 2) else keep_weapons if r == 1 else keep_ship))
    return out


class _World:
    """What every world drawn from one view shares (see :func:`determinize`): the view's ships read into
    templates (never changed: each world copies them), the fixed fields of the state, and what is drawn per
    world: which ships' stats (with what each one's draw needs), the other players' deployments, plots and
    designs."""

    __slots__ = ("view", "held", "guard", "fields", "ships", "index", "sampled", "own", "shots", "order", "cur", "col", "plan",
                 "designs", "drafts", "pending", "deploy", "plot", "fleets")


#: Recently determinized views, by identity (the view is held, so its id is not reused while it is cached): a bot
#: draws its worlds from the view of the decision at hand, so a few are enough.
_WORLDS: dict[int, _World] = {}
_WORLDS_MAX = 16


def _guard(v) -> tuple:
    """A few facts of a view that change with every step (a view changed after it was cached is read again)."""
    return (v["phase"], v["step"], v["round"], v["you"], len(v["ships"]), len(v["players"]))


def _held(v) -> tuple:
    """The containers of a view, compared by identity (one replaced after the view was cached: read again)."""
    return (v["ships"], v["players"], v["shots"], v["report"], v["options"], v.get("mine"))


def _read_template(sv) -> Ship:
    x = Ship.__new__(Ship)
    x.id = sv["id"]
    x.owner = sv["owner"]
    x.size = sv["size"]
    x.status = STATUS_NAMES.index(sv["status"])
    x.pos = tuple(sv["pos"]) if sv["pos"] is not None else None
    x.vel = tuple(sv["vel"]) if sv["vel"] is not None else (0, 0)
    x.hp_taken = sv["hp_taken"]
    x.incoming = sv["incoming"]
    seen = sv["seen"]
    x.seen_thrust = seen["thrust"]
    x.seen_weapons = seen["weapons"]
    damage = tuple(seen["damage"])
    if "design" in sv:
        x.name = sv["name"]
        x.design = sv["design"]
        lv = [sv["thrust"], sv["evasion"], sv["endurance"]]
        for t, d in sv["weapons"]:
            lv += [t, d]
        x.partial = list(sv["partial"])
        x.pending = sv["pending"]
    else:
        x.name = "unknown"
        x.design = f"d-p{x.owner}-{x.id.rsplit('-', 1)[-1]}"
        lv = [0, 0, 0] + [0, 0] * max(1, x.seen_weapons)  # an enemy ship alive gets its stats drawn
        x.partial = [0, 0, 0]
        x.pending = 0
    x.lv = lv
    x.view_rec = None
    x.seen_damage = damage + (0,) * ((len(lv) - 3) // 2 - len(damage))
    return x


#: Ship templates read from read-only ship records (``Frozen``), by the record's identity: a ship's record is
#: shared by every view until one of its values changes, so the views of many steps read each ship once.
#: Templates are never changed (every world copies them).
_template = read_once(_read_template, 2048)


def _world(view, player: int) -> _World:
    w = _WORLDS.get(id(view))
    if w is not None and w.view is view and w.guard == _guard(view) and all(map(_is, w.held, _held(view))):
        return w
    players = view["players"]
    n = len(players)
    mine = view.get("mine", {})
    w = _World()
    w.view = view
    w.guard = _guard(view)
    w.held = _held(view)
    w.fields = (
        n, dict(view["options"]), tuple(pl["name"] for pl in players), tuple(pl["size_levels"] for pl in players),
        tuple(tuple(pl["zone"]) for pl in players), view["round_limit"], view["phase"], view["step"],
        view["round"], [pl["inflicted"] for pl in players], [pl["received"] for pl in players],
        [pl["waiting"] for pl in players], tuple(view["report"]),
        Result.from_json(view["result"]) if view["result"] else None,
    )
    shots = view["shots"]
    if _SHOTS.get(id(shots), (None,))[-1] is not shots:  # not a log a view of this process showed: read it
        shots = tuple(tuple(x) for x in shots)
    w.shots = shots
    known = _prior(view)
    ships = w.ships = [_template(sv) for sv in view["ships"]]
    w.own = own = {x.id: x.lv for x, sv in zip(ships, view["ships"]) if "design" in sv}  # read only
    index = {x.id: i for i, x in enumerate(ships)}
    w.index = index
    rel = _relevant(shots, own)
    w.sampled = tuple(_sampling(i, x, tuple(sv["seen"]["damage"]), own, rel.get(x.id, ()), known.get(x.id))
                      for i, (x, sv) in enumerate(zip(ships, view["ships"])) if "design" not in sv and x.status == ALIVE)
    w.plan = plan = [None] * len(ships)
    w.order = order = [() for _ in range(n)]
    w.cur = cur = [0] * n
    w.col = col = [None] * n
    w.designs = [() for _ in range(n)]
    w.drafts = [(0, 0, 0, 0, (), 0, 0) for _ in range(n)]
    w.pending = w.deploy = w.plot = w.fleets = ()
    waiting = w.fields[11]
    ph = view["phase"]
    if ph == "design":
        w.fleets = tuple((q, w.fields[3][q]) for q in range(n) if q != player and not waiting[q])
        w.designs[player] = tuple(
            ShipDesign(d["name"], d["size"], d["thrust"], d["evasion"], d["endurance"],
                       tuple((wp["targeting"], wp["damage"]) for wp in d["weapons"]))
            for d in mine["designs"]
        )  # the viewer's own designs, as the view shows them (``ShipDesign.to_json``)
        dr = mine["draft"]
        w.drafts[player] = (
            dr["size"], dr["thrust"], dr["evasion"], dr["endurance"], tuple(tuple(wp) for wp in dr["weapons"]),
            DESIGN_STAGES.index(dr["stage"]), dr["targeting"],
        )
    elif ph in ("deploy", "plot", "allocate", "destruct"):
        orders = _orders(ships, n, ph)
        pending, deploy, plot = [], [], []
        for q in range(n):
            if q == player:
                order[q] = tuple(index[sid] for sid in mine["order"])
                c = mine["cursor"]
                cur[q] = tuple(c) if isinstance(c, list) else c
                col[q] = mine.get("column")
                continue
            order[q] = tuple(orders[q])
            if waiting[q]:
                cur[q] = {"deploy": (0, 0), "plot": (0, -1)}.get(ph, 0)
                if ph == "allocate":
                    pending.extend(order[q])
                continue
            if ph == "deploy":
                cur[q] = (len(order[q]), 0)
                deploy.append((order[q], w.fields[4][q]))
            elif ph == "plot":
                cur[q] = (len(order[q]), -1)
                plot.extend((i, ships[i].vel, _nearest(ships, ships[i])) for i in order[q])  # vel: a tuple
            elif ph == "destruct":
                cur[q] = len(order[q])
                for i in order[q]:
                    plan[i] = False
            else:
                cur[q] = len(order[q])
        w.pending, w.deploy, w.plot = tuple(pending), tuple(deploy), tuple(plot)
        for sid, e in mine.get("plans", {}).items():
            i = index[sid]
            if ph == "deploy":
                plan[i] = (e["pos"][0], e["pos"][1], e["vel"][0], e["vel"][1])
            elif ph == "plot":
                aims = tuple((wp, index[t] if t is not None else -1) for wp, t in e["shots"])
                plan[i] = (tuple(e["vel"]) if e["vel"] is not None else None, aims)
            elif ph == "destruct":
                plan[i] = e["detonate"]
    if len(_WORLDS) >= _WORLDS_MAX:
        del _WORLDS[next(iter(_WORLDS))]
    _WORLDS[id(view)] = w
    return w


#: the logged shots between each enemy ship and the viewer's ships, by the shot log (its identity: the log is
#: shared by the views of many steps) and the viewer's ship ids
_RELEVANT: dict[int, tuple] = {}


def _relevant(shots: tuple, own: dict) -> dict[str, list]:
    """The logged shots between each ship not in ``own`` and a ship in ``own``, by that ship's id, in log order
    (one pass over the log, kept by the log's identity and ``own``'s ids)."""
    if not shots:
        return {}
    hit = _RELEVANT.get(id(shots))
    if hit is None or hit[0] is not shots:
        if len(_RELEVANT) >= _KEPT_MAX:
            _RELEVANT.clear()
        hit = _RELEVANT[id(shots)] = (shots, {})
    k = tuple(own)
    rel = hit[1].get(k)
    if rel is None:
        rel = {}
        for sh in shots:
            a, t = sh[0], sh[2]
            if t in own:
                if a not in own:
                    rel.setdefault(a, []).append(sh)
            elif a in own:
                rel.setdefault(t, []).append(sh)
        hit[1][k] = rel
    return rel


def _sampling(i: int, x: Ship, seen_damage: tuple[int, ...], own: dict, relevant: list,
              public: tuple[int, ...] | None) -> tuple:
    """What drawing enemy ship ``x``'s stats needs (its index first): the candidates of its public design and
    their weights when it has one consistent with what it has shown, else the logged shots between it and the
    viewer's ships (None: sample its stats with ``sample_levels``); last, the damage its view shows."""
    sid = x.id
    if public is not None:
        # the design is public (the scenario's fleet); only the allocation of the hit points taken is hidden
        seen = tuple((sh, tuple(own[sh[2] if sh[0] == sid else sh[0]])) for sh in relevant)
        cands, weights = _public_candidates(
            x.size, public, x.hp_taken, x.seen_thrust, x.seen_weapons, seen_damage, sid, seen
        )
        if cands:
            return (i, cands, weights, seen_damage)
    return (i, None, relevant, seen_damage)


def _is(a, b) -> bool:
    return a is b


def determinize(view, player: int, rng: Rng, state_cls):
    """A full ``state_cls`` consistent with ``view`` (``player``'s), sampling what it hides (see the module
    docstring). The first call for a view reads it once (:class:`_World`, kept by the view's identity; ship
    records read once per record); every world is then a new state made of copies of what was read, with the
    hidden parts drawn in the same order from ``rng`` as a fresh read would. The view is never changed, and
    must not be changed after it was determinized (a few per-step facts are checked: a changed view is read
    again)."""
    w = _world(view, player)
    rng = Rng(rng.next64())
    (n, opts, names, levels, zones, round_limit, phase, sub, round_, inflicted, received, waiting, report,
     result) = w.fields
    s = state_cls.__new__(state_cls)
    s.num_players = n
    s.rng = Rng(rng.next64())
    s.opts = opts
    s.names = names
    s.levels = levels
    s.zones = zones
    s.round_limit = round_limit
    s.phase = phase
    s.sub = sub
    s.round = round_
    s.inflicted = inflicted[:]
    s.received = received[:]
    s.waiting = waiting[:]
    s.report = report
    s._result = result
    s.shots = w.shots
    s.ships = ships = [x.copy() for x in w.ships]
    own = w.own
    for i, cands, extra, seen_damage in w.sampled:
        x = ships[i]
        if cands is not None:
            lv = list(cands[rng.below(len(cands))]) if extra is None else list(_weighted(cands, extra, rng))
        else:
            size, hp, st, sw = x.size, x.hp_taken, x.seen_thrust, x.seen_weapons
            lv = sample_levels(size, rng, hp, st, sw, seen_damage)
            if extra:
                cs = [lv] + [sample_levels(size, rng, hp, st, sw, seen_damage) for _ in range(CANDIDATES - 1)]
                lv = _weighted(cs, [shot_likelihood(c, x.id, own, extra) for c in cs], rng)
        x.lv = lv
        x.seen_damage = seen_damage + (0,) * ((len(lv) - 3) // 2 - len(seen_damage))
    s.index = w.index  # never changed (clones share it too)
    s.plan = plan = w.plan[:]
    s.order = w.order[:]
    s.cur = w.cur[:]
    s.col = w.col[:]
    s.designs = w.designs[:]
    s.drafts = w.drafts[:]
    s._vships = s._vplayers = None
    for i in w.pending:
        ships[i].pending = ships[i].incoming
    for order, (zq, zr, rad) in w.deploy:
        for i in order:
            while True:
                h = (zq + rng.below(2 * rad + 1) - rad, zr + rng.below(2 * rad + 1) - rad)
                if distance(h, (zq, zr)) <= rad:
                    break
            plan[i] = (h[0], h[1], 0, 0)
    for i, vel, best in w.plot:
        lv = ships[i].lv
        plan[i] = (vel, tuple((k, best) for k in range((len(lv) - 3) // 2) if lv[3 + 2 * k] + lv[4 + 2 * k] > 0))
    for q, levels_q in w.fleets:
        s.designs[q] = _sample_fleet(levels_q, rng)
    return s


@lru_cache(maxsize=8192)
def _public_candidates(size: int, public: tuple[int, ...], hp: int, seen_thrust: int, seen_weapons: int,
                       seen_damage: tuple[int, ...], sid: str, seen: tuple) -> tuple[tuple, tuple | None]:
    """The damaged variants of a public design consistent with what ship ``sid`` has shown, and their shot-log
    likelihoods (None when there is nothing to weigh): computed once per design, damage and shot log, then
    reused by every determinization. ``seen``: the relevant logged shots, each with the stat slots of the
    viewer's ship in it."""
    cands = tuple(
        c for c in _damaged_variants(size, public, hp, PUBLIC_VARIANTS)
        if c[0] >= seen_thrust and (len(c) - 3) // 2 >= seen_weapons
        and all(c[4 + 2 * w] >= (d + 11) // 12 for w, d in enumerate(seen_damage) if 4 + 2 * w < len(c))
    )
    if not seen or len(cands) <= 1:
        return cands, None
    own = {}
    for sh, lv in seen:
        own[sh[2] if sh[0] == sid else sh[0]] = lv
    relevant = [sh for sh, _lv in seen]
    return cands, tuple(shot_likelihood(c, sid, own, relevant) for c in cands)


def _weighted(cands: list[list[int]], weights: list[float], rng: Rng) -> list[int]:
    total = sum(weights)
    if total <= 0.0:
        return cands[0]
    u = rng.random() * total
    for c, w in zip(cands, weights):
        u -= w
        if u < 0:
            return c
    return cands[-1]


def _sample_fleet(levels: int, rng: Rng) -> tuple[ShipDesign, ...]:
    return sample_fleet(levels, rng)


def _orders(ships: list, n: int, ph: str) -> list[list[int]]:
    """Each player's ship indices the phase ``ph`` asks about (the rules' own orders, from public facts)."""
    orders: list[list[int]] = [[] for _ in range(n)]
    if ph == "deploy":
        for i, x in enumerate(ships):
            orders[x.owner].append(i)
    elif ph == "plot":
        for i, x in enumerate(ships):
            if x.status == ALIVE:
                orders[x.owner].append(i)
    elif ph == "allocate":
        for i, x in enumerate(ships):
            if x.status == ALIVE and x.incoming > 0:
                orders[x.owner].append(i)
    else:
        by_hex: dict = {}
        for i, x in enumerate(ships):
            if x.status == ALIVE:
                by_hex.setdefault(x.pos, []).append(i)
        for group in by_hex.values():
            if len({ships[i].owner for i in group}) >= 2:
                for i in group:
                    orders[ships[i].owner].append(i)
        for o in orders:
            o.sort()
    return orders


def _nearest(ships: list, x: Ship) -> int:
    """The index of the enemy ship nearest where ``x`` ends if it keeps its velocity (-1: none): a sampled
    plot fires every armed weapon at it."""
    best = -1
    best_d = None
    here = (x.pos[0] + x.vel[0], x.pos[1] + x.vel[1])
    for i, t in enumerate(ships):
        if t.status == ALIVE and t.owner != x.owner:
            d = distance(here, t.pos)
            if best_d is None or d < best_d:
                best, best_d = i, d
    return best
