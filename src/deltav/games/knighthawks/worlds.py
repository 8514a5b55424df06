"""Knight Hawks determinization by reuse: the worlds a search bot draws from one view, without reading the view
again for every world.

``view.sample_world`` defines a sampled world (its JSON, and the draws it takes from the RNG); this module gives
the very same state faster. The first draw from a view reads it into a base state (the view's ships and mines as
they are, no hidden trap, a placeholder RNG) kept with the view, by identity, in a small cache; every draw clones
the base and takes the same draws in the same order as ``sample_world``: each hidden trap's hex and kind, then,
once a repair turn has passed, the secret repairs of each active enemy ship; the world's RNG last. Reading a view
is cheap too: a ship's view record is read-only (``Frozen``) and shared by every view until the ship changes, so
the ``Ship`` read from it is kept by the record's identity (and shared, never changed, by the bases), as are the
rules read from the options record and the map read from the map record. A view must not be changed after it was
determinized (a few per-step facts are checked and a changed view is read again; plain-dict records are always
read afresh).

Owns: :func:`determinize` (``KnightHawks.determinize`` delegates here) and its cache. Must never read anything but
the view, and never change it.
"""

from __future__ import annotations

from collections.abc import Mapping

from deltav.core.frozen import Frozen, read_once
from deltav.core.rng import Rng
from deltav.games.knighthawks.movement import MapInfo
from deltav.games.knighthawks.repair import sample_secret_repairs
from deltav.games.knighthawks.rulings import Rulings
from deltav.games.knighthawks.ships import Ship
from deltav.games.knighthawks.state import KHState
from deltav.games.knighthawks.visibility import _open_cells


class _World:
    """What every world drawn from one view shares: the base state, the hexes a hidden trap may lie on and
    which ships may have been repaired in secret."""

    __slots__ = ("view", "guard", "base", "cells", "repairable")


#: Recently determinized views, by identity (the view is held, so its id is not reused while it is cached): a bot
#: draws its worlds from the view of the decision at hand, so a few are enough.
_WORLDS: dict[int, _World] = {}
_WORLDS_MAX = 16


def _guard(v: Mapping) -> tuple:
    """A few facts of a view that change with every step (a view changed after it was cached is read again)."""
    return (v["turn"], v["half"], v["stage"], v["fire_mode"], len(v["ships"]), len(v["mines"]),
            v.get("hidden_mines", 0), len(v["declared"]), len(v["attacks"]), len(v["plots"]), v["viewer"])


def _seen(view: Mapping) -> _World | None:
    """The cached world of ``view`` if it was drawn from before (and has not changed since), else None."""
    w = _WORLDS.get(id(view))
    if w is not None and w.view is view and w.guard == _guard(view):
        return w
    return None


def _keep(view: Mapping, w: _World) -> None:
    if id(view) not in _WORLDS and len(_WORLDS) >= _WORLDS_MAX:
        del _WORLDS[next(iter(_WORLDS))]
    _WORLDS[id(view)] = w


#: Ships read from read-only ship records (``Frozen``), by the record's identity: a ship's record is shared by
#: every view until one of its values changes, so the views of a game read each ship once. The worlds' base
#: states share these ships and never change them (every draw clones them). Room for the records of the views of
#: a few dozen positions at once.
_ship = read_once(Ship.from_json, 2048)


#: The rules of a read-only options record and the map of a read-only map record, by the record's identity (held):
#: a game's views share them.
_SETUP: dict[int, tuple] = {}


def _setup(rec: Mapping, make):
    if type(rec) is not Frozen:
        return None  # from_json reads it
    hit = _SETUP.get(id(rec))
    if hit is None or hit[0] is not rec:
        if len(_SETUP) >= 256:
            _SETUP.clear()
        hit = _SETUP[id(rec)] = (rec, make(rec))
    return hit[1]


def _mapinfo(m: Mapping) -> MapInfo:
    return MapInfo.build(m["radius"], [(n, (h[0], h[1])) for n, h in m["planets"]])


def _world(view: Mapping, player: int) -> _World:
    """Read ``view`` into the base state of its worlds (the view's ships and mines as they are, no hidden trap, a
    placeholder RNG): ``KHState.from_json`` of ``sample_world``'s JSON but the draws, its ships, rules and map
    taken from the caches above (the view is read, never kept or changed)."""
    obj = {k: v for k, v in view.items() if k not in ("viewer", "hidden_mines", "mover")}
    obj["rng"] = _RNG0
    w = _World()
    w.view = view
    w.guard = _guard(view)
    w.base = KHState.from_json(obj, ships=[_ship(sj) for sj in view["ships"]],
                               rules=_setup(view["options"], Rulings.from_options),
                               mapinfo=_setup(view["map"], _mapinfo))
    w.cells = ()
    if view.get("hidden_mines", 0):
        w.cells = _open_cells(view["map"]["radius"], tuple((h[0], h[1]) for _, h in view["map"]["planets"]))
    w.repairable = ()
    if view["turn"] > 3:  # a repair turn has passed: the enemy may have repaired in secret
        w.repairable = tuple(i for i, sj in enumerate(view["ships"])
                             if sj["owner"] != player and sj["status"] == "active")
    _keep(view, w)
    return w


_RNG0 = Rng(0).to_json()


def determinize(view: Mapping, player: int, rng: Rng) -> KHState:
    """``KHState.from_json(view.sample_world(view, player, rng))``, the same state after the same draws from
    ``rng``, built by cloning the state read from the view once (its ships read once per record)."""
    w = _seen(view)
    if w is None:
        w = _world(view, player)
    s = w.base.clone()
    s._cache = {}  # lookups the base made knew neither the sampled traps nor the repairs
    cells = w.cells
    for k in range(view.get("hidden_mines", 0)):
        h = cells[rng.below(len(cells))]
        kind = "M" if rng.below(2) == 0 else "S"
        s.mines.append((f"trap-sampled-{k + 1}", 1 - player, kind, h, -1, 0, ""))
    base_ships = w.base.ships
    for i in w.repairable:
        s.ships[i] = sample_secret_repairs(base_ships[i], rng)
    s.rng = Rng(rng.next64())
    return s
