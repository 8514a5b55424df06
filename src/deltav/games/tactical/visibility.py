"""Views of a Delta-V tactical state (what one player, or a spectator, may know), the secret tokens a view must
never hold, and determinization for search bots: a full state consistent with one player's view, built from the
view alone.

Views: a fresh JSON-ready dict per call that nobody can use to change the state. What does not change from one
step to the next is built once and shared, read-only (``deltav.core.frozen.Frozen`` records and tuples): a
ship's record is kept with the ship (``Ship.view_rec``) with the tuple of every value it was made of and made
again when one changes; player and ordnance records are kept by their values; the options, the rules and the
queued orders once per (never mutated) object. The top-level dict and its lists are new in every view. Fog of
war (rulings 4 and 7): an undetected enemy ship is only counted
(``unseen_enemy_ships``), undetected enemy ordnance is left out, the opponent's queued orders, launches,
forming combat group, transfers and secret fleet purchases are hidden; a spectator (``None``) sees what both
players may both see.

What the view hides and how it is sampled: undetected enemy ships (the view gives only their number) become
placeholder corvettes (ids ``unseen-<k>``) on empty hexes outside the viewer's detection ranges; the Escape
fugitive, if not revealed, is one of the enemy's unrevealed hidden-identity ships chosen at random; the enemy's
secret fleet purchases are taken as empty; the opponent's queued orders are empty. The RNG is fresh.

Speed (bots sample many worlds per decision from one view): the first determinization of a view reads it once
into a state (``TacticalState.from_json`` builds its own objects, so the view is never mutated) and keeps it with
the view, by identity, in a small cache; every later sample of that view clones the kept state and redraws only
the hidden parts (the fugitive, the unseen ships' hexes, the RNG). A view must therefore not be changed after it
was determinized (a few per-step facts are checked and a changed view is read again). The hexes where an
unseen ship may be are the map's open hexes (computed once per map) minus those within detection range of the
viewer's ships and bases (a set built from rings, not a distance test per hex).

Determinization must never read anything but the view; views read the state and never change it.

The view's JSON shape is declared once, as ``ViewJson`` (the state's records of ``state_schema`` where the JSON is
the same), from which the client's types are written (web/tools/gen_types.py; tests/web/test_generated_types.py
reads every view of every scenario against it).
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Any, Literal, NotRequired, TypedDict

from deltav.core import hexgrid
from deltav.core.frozen import Frozen, freeze, read_once
from deltav.core.rng import Rng

from .combat_phase import CombatState
from .flow import FLEET
from .mapdata import default_map
from .model import Player, Ship, hparse
from .shiptypes import ship_types
from .state_schema import CombatJ, OrderJ, OrdnanceJ, PlayerJ, Purchase, ResultJ, RulesJ, ShipJ
from .state_schema import _orders as _orders_loader

PLACEHOLDER_TYPE = "corvette"


# --- the view's JSON shape (web/src/generated/tactical.ts is written from it) -----------------------------------

class ViewShipJson(ShipJ):
    """A ship's record in a view (``Ship.to_json(identity)``): a hidden identity the viewer may not know reads
    "unknown"."""

    identity: NotRequired[Literal["fugitives", "decoy", "unknown"]]


class ViewPlayerJson(PlayerJ):
    """A player's record in a view: ``spent`` is null for the opponent's during fleet building (secret)."""

    spent: int | None


class ViewJson(TypedDict):
    """What one player (or a spectator) may know (:func:`state_view`; docs/tactical.md "The view")."""

    scenario: str
    name: str
    options: dict[str, Any]
    rules: RulesJ
    turn: int
    first_player: Literal[0, 1]
    active_player: Literal[0, 1]
    phase: Literal["fleet_building", "astrogation", "ordnance", "combat", "logistics", "game_over"]
    players: list[ViewPlayerJson]
    ships: list[ViewShipJson]
    unseen_enemy_ships: int
    """Enemy ships afloat that this viewer has not detected (fog of war)."""
    ordnance: list[OrdnanceJ]
    next_ordnance: int
    destroyed_bases: list[str]
    destroyed_asteroids: list[str]
    moral_victory_flag: bool
    result: ResultJ | None
    orders: dict[str, OrderJ]
    """The queued orders by ship id (the active player's own only)."""
    launched: list[str]
    hazards: list[tuple[str, str]]
    """(ship id, hex key) of each hazard the viewer may see."""
    combat: CombatJ | None
    transfers: int
    purchases: NotRequired[list[list[Purchase] | None]]
    """During fleet building: each player's purchases, null for the other player's (secret)."""


#: How far the viewer's ships and bases detect (design/tactical.md 1.11): no unseen ship can stand within them.
SHIP_RANGE = 3
BASE_RANGE = 5


@lru_cache(maxsize=4)
def _open_hexes(gmap) -> tuple[tuple[int, int], ...]:
    """The map's hexes in row order that are no body surface, gravity hex, base or asteroid."""
    lo_q, hi_q, lo_r, hi_r = gmap.bounds
    blocked = (gmap.surface, gmap.gravity, gmap.base, gmap.asteroids)
    return tuple((q, r) for q in range(lo_q, hi_q + 1) for r in range(lo_r, hi_r + 1)
                 if not any((q, r) in b for b in blocked))


@lru_cache(maxsize=256)
def _unseen_candidates(gmap, mine: tuple, bases: tuple) -> tuple[tuple[int, int], ...]:
    """The open hexes outside detection range of every one of ``mine`` (ship hexes) and ``bases``."""
    seen: set = set()
    for m in mine:
        seen.update(hexgrid.spiral(m, SHIP_RANGE))
    for b in bases:
        seen.update(hexgrid.spiral(b, BASE_RANGE))
    lo_q, _, lo_r, _ = gmap.bounds
    return tuple(h for h in _open_hexes(gmap) if h not in seen) or ((lo_q, lo_r),)


# --- views ------------------------------------------------------------------------------------------------

_BASE_KEYS: dict[tuple, tuple[str, ...]] = {}


def _base_keys(bases: tuple) -> tuple[str, ...]:
    """The ``"q,r"`` keys of a player's base hexes (the tuple is replaced, never mutated, when bases change)."""
    keys = _BASE_KEYS.get(bases)
    if keys is None:
        keys = tuple(f"{h[0]},{h[1]}" for h in bases)
        if len(_BASE_KEYS) < 10_000:
            _BASE_KEYS[bases] = keys
    return keys


#: Shared read-only records by the values they are made of (players, ordnance: a few fields, often unchanged
#: from one step to the next); cleared when large (a long search meets many).
_PLAYER_RECS: dict[tuple, Frozen] = {}
_ORDNANCE_RECS: dict[tuple, Frozen] = {}
_RECS_MAX = 20_000


#: The values a player's record is made of (the shown ``spent`` is added: it depends on the viewer).
_player_key = attrgetter("home", "target", "escape_wins", "bases", "credits", "visited", "ready")


def player_view(st, q: int, player: int | None) -> Frozen:
    """Player ``q``'s record as ``player`` sees it: read-only, kept with the player (``Player.view_rec``, carried
    over by ``copy``) with the values it was made of, one record per shown ``spent`` (hidden from the opponent
    during fleet building)."""
    pl = st.players[q]
    # secret purchases (from the opponent and from spectators): not even their total
    spent = None if st.phase == FLEET and q != player else pl.spent
    k = (_player_key(pl), spent)
    hit = pl.view_rec
    if hit is not None and hit[0] == k:
        return hit[1]
    rec = _PLAYER_RECS.get(k)
    if rec is None:
        if len(_PLAYER_RECS) >= _RECS_MAX:
            _PLAYER_RECS.clear()
        rec = _PLAYER_RECS[k] = Frozen(
            home=pl.home, target=pl.target, escape_wins=pl.escape_wins, bases=_base_keys(pl.bases),
            credits=pl.credits, spent=spent, visited=pl.visited, ready=pl.ready)
    pl.view_rec = (k, rec)
    return rec


_ORDERS: dict[int, tuple] = {}
_ORDER_RECS: dict[int, tuple] = {}


def _order_rec(o) -> Frozen:
    """One order's record, read-only, kept by the order object (a frozen value, held so its id is not reused)."""
    hit = _ORDER_RECS.get(id(o))
    if hit is not None and hit[0] is o:
        return hit[1]
    if len(_ORDER_RECS) >= _RECS_MAX:
        _ORDER_RECS.clear()
    rec = Frozen(type="order", ship=o.ship, burn=o.burn, overload=o.overload, land=o.land, weak=tuple(o.weak))
    _ORDER_RECS[id(o)] = (o, rec)
    return rec


def _orders_view(orders: dict) -> Frozen:
    """The queued orders by ship id, sorted, read-only: one record per orders dict (the state replaces the dict
    and never changes it; clones share it), made of one shared record per order."""
    if not orders:
        return _NO_ORDERS
    hit = _ORDERS.get(id(orders))
    if hit is not None and hit[0] is orders:
        return hit[1]
    rec = Frozen({k: _order_rec(orders[k]) for k in sorted(orders)})
    if len(_ORDERS) >= 1000:
        _ORDERS.clear()
    _ORDERS[id(orders)] = (orders, rec)  # the dict is held, so its id is not reused while cached
    return rec


_NO_ORDERS = Frozen()


def ordnance_view(st, o, player: int | None, fog: bool) -> Frozen:
    """An ordnance item's record as ``player`` sees it (read-only, shared by every view showing the same
    values)."""
    launcher = o.ship
    if launcher and fog:
        sh = st._index.get(launcher)
        if sh is not None and sh.owner != player and not sh.detected:
            launcher = None  # an undetected launcher stays unknown
    k = (o.id, o.owner, o.kind, o.pos, o.vel, o.pending, o.turns, launcher, o.detected)
    rec = _ORDNANCE_RECS.get(k)
    if rec is None:
        if len(_ORDNANCE_RECS) >= _RECS_MAX:
            _ORDNANCE_RECS.clear()
        rec = _ORDNANCE_RECS[k] = Frozen(
            id=o.id, owner=o.owner, kind=o.kind, position=o.pos, velocity=o.vel, pending_gravity=o.pending,
            turns_remaining=o.turns, launched_by=launcher, detected=o.detected)
    return rec


def next_ordnance_view(st, player: int | None, seen: list) -> int:
    """The next ordnance number as far as ``player`` can tell: one past the highest id it sees (the true counter
    would count the enemy's undetected launches)."""
    if not st.options["fog_of_war"]:
        return st.next_ordnance
    ids = [int(o.id[3:]) for o in seen if o.id[3:].isdigit()]
    return max(ids, default=0) + 1


def combat_view(st, player: int | None) -> dict | None:
    """The combat bookkeeping: all of it for the active player; for the opponent and a spectator only what fire
    has shown (the ships that have fired, the targets attacked), not the group being formed."""
    c = st.combat
    if c is None:
        return None
    d = c.to_json()
    if player is not None and player == st.active_player:
        return d
    fired = c.used + (c.group if c.allocated else ())
    d["used"] = [x for x in fired if st.visible(st._index[x], player)]
    d["group"] = []
    d["allocated"] = 0
    d["group_hex"] = None
    return d


_OPTIONS: dict[int, tuple] = {}


def _options_view(options: dict) -> Frozen:
    """The options a view shows (all but the scenario path, sorted), read-only: one record per options dict (a
    game's options never change; clones share the dict)."""
    hit = _OPTIONS.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    rec = freeze({k: options[k] for k in sorted(options) if k != "scenario"})
    if len(_OPTIONS) > 1000:
        _OPTIONS.clear()
    _OPTIONS[id(options)] = (options, rec)  # the dict is held, so its id is not reused while cached
    return rec


#: Every value of a ship that its view record is made of (all immutable: ints, strings, tuples), read in C.
_record_key = attrgetter("id", "owner", "type", "pos", "vel", "fuel", "pending", "landed", "destroyed", "cause",
                         "disabled", "overload_used", "cargo_used", "passengers", "nukes", "detected", "heroic",
                         "control", "resupplied", "path", "hidden", "fugitive", "revealed", "carrying_base",
                         "emplaced")


def _template(k: tuple) -> Frozen:
    (sid, owner, stype, pos, vel, fuel, pending, landed, destroyed, cause, disabled, overload_used, cargo_used,
     passengers, nukes, detected, heroic, control, resupplied, path, hidden, fugitive, revealed, carrying_base,
     emplaced) = k
    out = {
        "id": sid,
        "owner": owner,
        "type": stype.name,
        "position": pos,
        "velocity": vel,
        "fuel": fuel,
        "pending_gravity": pending,
        "landed": landed,
        "destroyed": destroyed,
        "cause": cause,
        "disabled": disabled,
        "overload_used": overload_used,
        "cargo_used": cargo_used,
        "passengers": passengers,
        "nukes": nukes,
        "detected": detected,
        "heroic": heroic,
        "control": control,
        "resupplied": resupplied,
        "path": path,
        "carrying_base": carrying_base,
        "emplaced": emplaced,
    }
    if hidden:
        out["hidden_identity"] = True
        out["revealed"] = revealed
        out["identity"] = "fugitives" if fugitive else "decoy"
    return Frozen(out)


def ship_view(sh, identity: bool) -> Frozen:
    """A ship's record in a view: the JSON of ``Ship.to_json(identity)``, read-only and shared by every view
    until one of the ship's values changes. The ship keeps it (``Ship.view_rec``, carried over by ``copy``) with
    the tuple of every value it was made of, and the variant with the identity hidden once it was asked: a changed
    value makes new records, so the rules code never has to clear them."""
    k = _record_key(sh)
    hit = sh.view_rec
    if hit is None or hit[0] != k:
        hit = sh.view_rec = [k, _template(k), None]
    if identity or not sh.hidden:
        return hit[1]
    unknown = hit[2]
    if unknown is None:
        unknown = hit[2] = Frozen({**hit[1], "identity": "unknown"})
    return unknown


_RULES: dict[int, tuple] = {}


def _rules_view(rules) -> Frozen:
    """``rules.to_json()``, read-only, made once per rules object (a frozen dataclass: a scenario's rule flags
    never change; clones share it)."""
    key = id(rules)
    hit = _RULES.get(key)
    if hit is None or hit[0] is not rules:
        if len(_RULES) > 1000:
            _RULES.clear()
        hit = _RULES[key] = (rules, freeze(rules.to_json()))  # the object is held, so its id is not reused
    return hit[1]


def state_view(st, player: int | None) -> dict:
    """What ``player`` (0 or 1; None for a spectator) may know of the state, as a fresh JSON-ready dict."""
    options = st.options
    fog = options["fog_of_war"]
    ships = []
    add = ships.append
    unseen = 0
    key = _record_key
    for sh in st.ships:
        if sh.owner == player or not fog or sh.detected:
            hit = sh.view_rec  # ship_view's record, inlined for the common case (kept and not hidden)
            if hit is not None and not sh.hidden and hit[0] == key(sh):
                add(hit[1])
            else:
                add(ship_view(sh, sh.owner == player or sh.revealed))
        elif not sh.destroyed:
            unseen += 1
    seen_ordnance = [o for o in st.ordnance if not fog or o.owner == player or o.detected] if st.ordnance else ()
    mine = player is not None and player == st.active_player
    index = st._index
    out = {
        "scenario": st.scenario,
        "name": st.name,
        "options": _options_view(options),
        "rules": _rules_view(st.rules),
        "turn": st.turn,
        "first_player": st.first_player,
        "active_player": st.active_player,
        "phase": st.phase,
        "players": [player_view(st, 0, player), player_view(st, 1, player)],
        "ships": ships,
        "unseen_enemy_ships": unseen,
        "ordnance": [ordnance_view(st, o, player, fog) for o in seen_ordnance] if seen_ordnance else [],
        "next_ordnance": next_ordnance_view(st, player, seen_ordnance) if seen_ordnance or not fog else 1,
        "destroyed_bases": sorted(f"{h[0]},{h[1]}" for h in st.destroyed_bases) if st.destroyed_bases else [],
        "destroyed_asteroids": (sorted(f"{h[0]},{h[1]}" for h in st.destroyed_asteroids)
                                if st.destroyed_asteroids else []),
        "moral_victory_flag": st.moral,
        "result": st.res.to_json() if st.res else None,
        # the opponent and a spectator: queued orders and launches are private
        "orders": _orders_view(st.orders) if mine else _NO_ORDERS,
        "launched": st.launched if mine else (),
        "hazards": [[s, f"{h[0]},{h[1]}"] for s, h in st.hazards
                    if not fog or index[s].owner == player or index[s].detected],
        "combat": combat_view(st, player),
        "transfers": st.transfers if mine else 0,
    }
    if st.phase == FLEET:
        out["purchases"] = [[list(x) for x in st.purchases[q]] if player == q else None for q in range(2)]
    return out


def full_view(st) -> dict:
    """What an observer who knows everything sees (a finished match's replay): ``view(None)`` with the fog
    lifted: every ship with its hidden identity, every ordnance item and its launcher, the hazards, the next
    ordnance number, the active player's queued orders, launches, combat group and transfers, every player's
    spending and secret fleet purchases."""
    out = state_view(st, None)
    out["players"] = [player_view(st, q, q) for q in range(2)]
    out["ships"] = [ship_view(sh, True) for sh in st.ships]
    out["unseen_enemy_ships"] = 0
    out["ordnance"] = [ordnance_view(st, o, None, False) for o in st.ordnance]
    out["next_ordnance"] = st.next_ordnance
    out["hazards"] = [[s, f"{h[0]},{h[1]}"] for s, h in st.hazards]
    out["orders"] = _orders_view(st.orders)
    out["launched"] = st.launched
    out["combat"] = st.combat.to_json() if st.combat is not None else None
    out["transfers"] = st.transfers
    if st.phase == FLEET:
        out["purchases"] = [[list(x) for x in st.purchases[q]] for q in range(2)]
    return out


def secret_tokens(st, player: int | None) -> set[str]:
    """The strings ``player``'s view must never contain: undetected enemy ship and ordnance ids, the fugitives'
    identity while it is unrevealed, the opponent's secret purchases."""
    out: set[str] = set()
    for sh in st.ships:
        if not st.visible(sh, player):
            out.add(sh.id)
        if sh.hidden and sh.fugitive and not sh.revealed and (player is None or sh.owner != player):
            out.add("fugitives")
    for o in st.ordnance:
        if not st.ordnance_visible(o, player):
            out.add(o.id)
    if st.phase == FLEET:
        for q in range(2):
            if q != player:
                for item in st.purchases[q]:
                    out.add(item[0])
    return out


# --- determinization ------------------------------------------------------------------------------------------


class _World:
    """What determinizing one view always gives: the state the view describes (hidden identities as decoys, no
    unseen ships, a placeholder RNG), which ships' identity is drawn and where unseen ships may be."""

    __slots__ = ("view", "guard", "base", "hidden", "known", "unseen", "cands", "player")


#: The view keys read again on their own when a new view differs from the last one read only there
#: (:func:`_reread`): the orders queued so far (the next ship's astrogation decision) and the combat group
#: forming (the next attacker added), with the state field each fills and its loader.
_REREAD = {
    "orders": ("orders", lambda v: _orders_loader(v, None)),
    "combat": ("combat", lambda v: CombatState.from_json(v) if v is not None else None),
}
#: the last _World read ([_World] or [None]): the next decision's view is most often the same but for _REREAD
_LAST: list = [None]


#: Recently determinized views (by identity; the view is held, so its id is not reused while it is cached). A
#: bot determinizes the view of the decision at hand, so a few are enough; each one held keeps a view and a
#: state alive (a hundred objects and more the cyclic garbage collector walks in every full collection).
_WORLDS: dict[int, _World] = {}
_WORLDS_MAX = 16


def _guard(v) -> tuple:
    """A few facts of a view that change with every step (a view changed after it was cached is rebuilt)."""
    return (v["turn"], v["phase"], v["active_player"], len(v["ships"]), len(v["ordnance"]), v["unseen_enemy_ships"],
            len(v["orders"]), len(v["hazards"]), v["transfers"])


#: ships read from read-only view records (``Frozen``), by the record's identity: a ship's record is shared by
#: every view until one of its values changes, so the views of one player-turn read each ship once. The worlds'
#: base states share these ships and never change them (determinize clones them).
_ship = read_once(Ship.from_json, 512)
#: players read from read-only view records, likewise (shared by the base states, copied by their clones)
_player = read_once(Player.from_json, 64)


def _reread(prev: _World | None, view, player: int) -> _World | None:
    """A _World for ``view`` made from ``prev`` (the last one read) if the two views differ only in the keys of
    :data:`_REREAD`: the base state shares every field of ``prev``'s (base states are never changed:
    determinize clones them) but those, read again from the new view; exactly what reading the whole view gives.
    None if anything else differs."""
    if prev is None or prev.player != player:
        return None
    old = prev.view
    if old is view or prev.guard != _guard(old):
        return None  # a view changed after it was read (as for the cache by identity: read again)
    if len(old) != len(view):
        return None
    changed = []
    for k, x in view.items():
        if k not in old:
            return None
        y = old[k]
        if x is y:
            continue
        if k in _REREAD:
            if x != y:
                changed.append(k)
        elif x != y:
            return None
    base = prev.base
    cls = type(base)
    nb = cls.__new__(cls)
    for slot in _SLOTS(cls):
        setattr(nb, slot, getattr(base, slot))
    for k in changed:
        field, load = _REREAD[k]
        setattr(nb, field, load(view[k]))
    nb._opts = {}
    w = _World()
    w.view = view
    w.guard = _guard(view)
    w.base = nb
    w.hidden, w.known, w.unseen, w.cands, w.player = prev.hidden, prev.known, prev.unseen, prev.cands, player
    return w


@lru_cache(maxsize=8)
def _SLOTS(cls) -> tuple:  # noqa: N802 (a constant per class)
    return tuple(cls.fields.slots)


def _world(view, player: int, state_cls) -> _World:
    w = _WORLDS.get(id(view))
    if w is not None and w.view is view and w.guard == _guard(view):
        return w
    w = _reread(_LAST[0], view, player)
    if w is not None:
        _keep(w)
        return w
    v = view
    ships = v["ships"]
    purchases = v.get("purchases") or [[], []]
    obj = {
        "options": {**v["options"], "scenario": v["scenario"]},
        "scenario": v["scenario"],
        "name": v["name"],
        "rules": v["rules"],
        "rng": Rng(0).to_json(),
        "players": (),  # read below, each record once (_player)
        "ships": (),  # read below, each record once (_ship)
        "ordnance": v["ordnance"],
        "next_ordnance": v["next_ordnance"],
        "destroyed_bases": v["destroyed_bases"],
        "destroyed_asteroids": v["destroyed_asteroids"],
        "orders": v["orders"],
        "launched": v["launched"],
        "hazards": v["hazards"],
        "combat": v["combat"],
        "transfers": v["transfers"],
        "moral": v["moral_victory_flag"],
        "escaped": None,
        "result": v["result"],
        "turn": v["turn"],
        "first_player": v["first_player"],
        "active_player": v["active_player"],
        "phase": v["phase"],
        "purchases": [p if p is not None else [] for p in purchases],
    }
    w = _World()
    w.view = view
    w.guard = _guard(view)
    w.base = base = state_cls.from_json(obj)  # reads the view into new objects
    base.players = [_player(rec) for rec in v["players"]]
    base.ships = [_ship(rec) for rec in ships]  # an "unknown" identity reads as a decoy
    base._index = {sh.id: sh for sh in base.ships}
    w.hidden = tuple(i for i, s in enumerate(ships) if s.get("hidden_identity") and s.get("identity") == "unknown")
    w.known = any(s.get("identity") == "fugitives" for s in ships)
    w.unseen = v.get("unseen_enemy_ships", 0)
    w.cands = ()
    if w.unseen:
        mine = tuple(tuple(s["position"]) for s in ships if s["owner"] == player and not s["destroyed"])
        bases = tuple(hparse(h) for h in v["players"][player]["bases"])
        w.cands = _unseen_candidates(default_map(), mine, bases)
    w.player = player
    _keep(w)
    return w


def _keep(w: _World) -> None:
    if len(_WORLDS) >= _WORLDS_MAX:
        del _WORLDS[next(iter(_WORLDS))]
    _WORLDS[id(w.view)] = w
    _LAST[0] = w


def determinize(view, player: int, rng: Rng, state_cls):
    """A full ``state_cls`` consistent with ``player``'s view, the hidden parts drawn from ``rng``. The first call
    for a view reads it into a state; later calls for the same (unchanged) view clone that state and draw again,
    giving the very state a fresh read would (same ships in the same order, same draws from ``rng``)."""
    w = _world(view, player, state_cls)
    s = w.base.clone()
    s._opts = {}
    ships = s.ships
    if w.hidden:  # the fugitive: one of the unrevealed hidden-identity ships, unless the view shows it
        pick = None if w.known else rng.choice(w.hidden)
        for i in w.hidden:
            ships[i].fugitive = i == pick
    if w.unseen:  # undetected enemy ships: placeholders on open hexes out of the viewer's detection
        stype = ship_types()[PLACEHOLDER_TYPE]
        index = s._index
        for k in range(w.unseen):
            sh = Ship(f"unseen-{k}", 1 - player, stype, rng.choice(w.cands), (0, 0), 20)
            ships.append(sh)
            index[sh.id] = sh
    s.rng = Rng(rng.next64())
    return s
