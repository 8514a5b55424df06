"""The reach shadow of Delta-V tactical (issue 26, "beyond the reference"): from a seat's own view, for each
enemy ship it sees, every hex that ship could occupy after its next movement: its drift (position + velocity +
the gravity it has queued), moved by one burn, or by two where it may overload (a warship with two fuel that has
not overloaded since its last maintenance), or a landing from orbit; a disabled or captured ship only drifts,
an emplaced orbital base stays put. Courses that crash or leave the map are left out: the ship would not be
there.

``reach_shadow(view, seat)`` is a pure function of the view (the answer of ``TacticalGame.advise`` to the
request ``{"kind": "reach"}``)::

    {"kind": "reach", "ships": [{"ship": "p1s0", "type": "frigate", "from": "2,2", "drift": "1,3",
                                 "hexes": [{"hex": "1,3", "burns": 0, "lands": false}, ...]}]}

``drift`` is where the ship coasts (null if coasting crashes); ``hexes`` every hex it could end its move on,
each with the fewest burns that get it there (0: coasting, 1, 2: an overload) and whether it would be landed
there; sorted by burns, then hex. The courses are the engine's own (``preview.preview_courses`` of every legal
order of that ship, on a world determinized from the view: the seen ships are exact there, and no unseen ship
changes a course), so a hex of the shadow is one the ship can really reach. This module changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deltav.core.errors import MalformedAction
from deltav.core.rng import Rng

from .model import hkey


def reach_shadow(view: Mapping[str, Any], seat: int) -> dict:
    """The reach shadow of every enemy ship ``seat`` sees in ``view`` (see the module docstring)."""
    from .astrogation_phase import order_options_uncached
    from .courses import orderable
    from .preview import preview_courses
    from .state import TacticalState
    from .visibility import determinize

    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
        raise MalformedAction("seat", f"a seat 0 or 1 is required, got {seat!r}")
    world = determinize(view, seat, Rng(0), TacticalState)
    out = []
    for rec in view.get("ships", ()):
        if rec.get("owner") == seat or rec.get("destroyed"):
            continue
        sh = world.ship(rec["id"])
        if sh is None:
            continue
        entry = {"ship": sh.id, "type": sh.type.name, "from": hkey(sh.pos), "drift": None, "hexes": []}
        out.append(entry)
        if not orderable(sh):  # an emplaced orbital base: it stays where it is
            entry["drift"] = hkey(sh.pos)
            entry["hexes"] = [{"hex": hkey(sh.pos), "burns": 0, "lands": False}]
            continue
        orders = order_options_uncached(world, sh)
        best: dict = {}
        for order, pv in zip(orders, preview_courses(world, sh.id, orders)):
            if pv.crashes:
                continue
            burns = 0 if order.burn is None else 1 if order.overload is None else 2
            if burns == 0:
                entry["drift"] = hkey(pv.destination)
            got = best.get(pv.destination)
            if got is None or burns < got[0]:
                best[pv.destination] = (burns, pv.lands)
        entry["hexes"] = [{"hex": hkey(h), "burns": b, "lands": lands}
                          for h, (b, lands) in sorted(best.items(), key=lambda kv: (kv[1][0], kv[0]))]
    return {"kind": "reach", "ships": out}
