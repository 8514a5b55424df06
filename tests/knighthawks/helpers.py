"""Builders for hand-made Knight Hawks positions used by the tests."""

from __future__ import annotations

from deltav.games import load_all
from deltav.games.knighthawks.scenarios import parse_scenario

load_all()


def scenario_dict(ships, planets=(), mines=(), victory=None, radius=12, turn_limit=12, first=0):
    return {
        "id": "test",
        "title": "test",
        "map_radius": radius,
        "turn_limit": turn_limit,
        "first": first,
        "sides": ["A", "B"],
        "victory": victory or {"kind": "battle"},
        "planets": [{"name": n, "hex": list(h)} for n, h in planets],
        "ships": [dict(s) for s in ships],
        "mines": [dict(m) for m in mines],
    }


def make_state(ships, planets=(), mines=(), victory=None, seed=1, options=None, **kw):
    from deltav.games.knighthawks import KnightHawks
    from deltav.games.knighthawks.state import KHState

    sc = parse_scenario(scenario_dict(ships, planets, mines, victory, **kw), "test")
    opts = KnightHawks.resolve_options(options or {})
    return KHState.from_scenario(sc, opts, seed)


def ship(id, side, cls, hex, facing=0, speed=0, **extra):
    d = {"id": id, "side": side, "class": cls, "hex": list(hex), "facing": facing, "speed": speed}
    d.update(extra)
    return d
