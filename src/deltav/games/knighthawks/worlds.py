"""Knight Hawks determinization by reuse: the worlds a search bot draws from one view, without reading the view
again for every world.

``view.sample_world`` defines a sampled world (its JSON, and the draws it takes from the RNG); this module gives
the very same state faster. The first draw from a view is ``sample_world``'s own (a bot that draws one world
per decision pays nothing more); the second reads the view once into a base state (the view's ships and mines
as they are, no hidden trap, a placeholder RNG) kept with the view, by identity, in a small cache; from then on
every draw clones the base and takes the same draws in the same order as ``sample_world``: each hidden
trap's hex and kind, then, once a repair turn has passed, the secret repairs of each active enemy ship; the world's
RNG last. A view must therefore not be changed after it was determinized (a few per-step facts are checked and a
changed view is read again).

Owns: :func:`determinize` (``KnightHawks.determinize`` delegates here) and its cache. Must never read anything but
the view, and never change it.
"""

from __future__ import annotations

from collections.abc import Mapping

from deltav.core.rng import Rng
from deltav.games.knighthawks.repair import sample_secret_repairs
from deltav.games.knighthawks.state import KHState
from deltav.games.knighthawks.view import _open_cells, sample_world


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


def _remember(view: Mapping) -> None:
    """Note a first draw from ``view`` (its base is read at the second)."""
    w = _World()
    w.view = view
    w.guard = _guard(view)
    w.base = None
    _keep(view, w)


def _keep(view: Mapping, w: _World) -> None:
    if id(view) not in _WORLDS and len(_WORLDS) >= _WORLDS_MAX:
        del _WORLDS[next(iter(_WORLDS))]
    _WORLDS[id(view)] = w


def _world(view: Mapping, player: int) -> _World:
    obj = {k: v for k, v in view.items() if k not in ("viewer", "hidden_mines", "mover")}
    obj["rng"] = Rng(0).to_json()
    w = _World()
    w.view = view
    w.guard = _guard(view)
    w.base = KHState.from_json(obj)  # new objects: the view is read, never kept
    w.cells = ()
    if view.get("hidden_mines", 0):
        w.cells = _open_cells(view["map"]["radius"], tuple((h[0], h[1]) for _, h in view["map"]["planets"]))
    w.repairable = ()
    if view["turn"] > 3:  # a repair turn has passed: the enemy may have repaired in secret
        w.repairable = tuple(i for i, sj in enumerate(view["ships"])
                             if sj["owner"] != player and sj["status"] == "active")
    _keep(view, w)
    return w


def determinize(view: Mapping, player: int, rng: Rng) -> KHState:
    """``KHState.from_json(view.sample_world(view, player, rng))``, the same state after the same draws from
    ``rng``; from the second draw from a view on, built by cloning the state read from the view once."""
    w = _seen(view)
    if w is None:
        _remember(view)
        return KHState.from_json(sample_world(view, player, rng))
    if w.base is None:
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
