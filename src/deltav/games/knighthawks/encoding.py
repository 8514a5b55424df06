"""Integer actions of Knight Hawks: a fixed numbering of every decomposed action (docs/research.md).

Ships are numbered in scenario order, weapons by their index in a ship's list, traps by their rank in the
position's list of traps (trap ids are random; at most twice the scenario's traps plus every mine and seeker
the ships carry), repair targets by a fixed vocabulary (``hull``, ``adf``, ``mr``, ``w<i>``, ``d<i>``,
``short``, ``ccs``, ``nav``, ``dc``, ``fire``). A course's speed is numbered as the change from the ship's
current speed (within the largest ADF), so it needs no speed bound; a ``lay``'s path index is bounded by
``4 * map radius + 2 * largest ADF`` (no plotted path on the map is longer). The numbering depends only on the
scenario and the options. This module owns the encoding only.
"""

from __future__ import annotations

from deltav.games.actionspace import (
    SKETCH_SIZE,
    ActionSpace,
    Context,
    Encoding,
    Features,
    Kind,
    Relative,
    Values,
    hashed_features,
    initial_position_spaces,
    ints,
    seat,
)

from . import messages as m
from .movement_phase import activation
from .repair import MAX_BLOCK
from .ships import STATUS_NAMES

SCREENS = ("PS", "ES", "SS", "MS", "none")


def _build(state) -> ActionSpace:
    ships = state.ships
    ids = [s.id for s in ships]
    sh = Values(ids)
    weapons = max((len(s.weapons) for s in ships), default=0)
    defenses = max((len(s.defenses) for s in ships), default=0)
    layers = [s.id for s in ships if any(w[0] in ("M", "S") for w in s.weapons)]
    traps = len(state.mines) + sum(max(0, w[1]) for s in ships for w in s.weapons if w[0] in ("M", "S"))
    icms = sum(max(0, d[1]) for s in ships for d in s.defenses if d[0] == "ICM")
    adf = max((s.adf0 for s in ships), default=0)
    at_hi = 4 * state.map.radius + 2 * adf
    targets = ["hull", "adf", "mr", *(f"w{i}" for i in range(weapons)), *(f"d{i}" for i in range(defenses)),
               "short", "ccs", "nav", "dc", "fire"]

    def trap_index(ctx: Context, v):
        tid, layer, turn = v
        mines = ctx.state.mines
        for i, mm in enumerate(mines):
            if mm[0] == tid:
                got = activation(ctx.state, tid)
                return i if layer in (None, got.layer) and turn in (None, got.turn) else None
        return None

    def trap_value(ctx: Context, i: int):
        mines = ctx.state.mines
        if i < len(mines):
            got = activation(ctx.state, mines[i][0])
            return got.seeker, got.layer, got.turn
        return f"trap-none-{i}", None, None

    def speed_index(ctx: Context, v):
        d = v - ctx.state.ships[ctx.state.index[ctx.fields["ship"]]].speed
        return d + adf if -adf <= d <= adf else None

    def speed_value(ctx: Context, i: int):
        return ctx.state.ships[ctx.state.index[ctx.fields["ship"]]].speed + i - adf

    space = ActionSpace([
        Kind(m.Screen, (("ship", sh), ("screen", Values(SCREENS)))),
        Kind(m.Lay, (("ship", Values(layers)), ("kind", Values(("M", "S"))), ("at", ints(0, at_hi)))),
        # trap ids are random (they must not count earlier drops), so a seeker is numbered by its rank in the
        # position's list of traps; determinized worlds add the sampled traps a player cannot see to that list
        # (the ship that dropped it and the turn it did are read off the position)
        Kind(m.Activate, ((("seeker", "layer", "turn"), Relative(2 * traps, trap_index, trap_value)),)),
        Kind(m.Orbit, (("ship", sh), ("clockwise", Values((False, True))))),
        Kind(m.Course, (("ship", sh), ("speed", Relative(2 * adf + 1, speed_index, speed_value)),
                        ("facing", ints(0, 5)))),
        Kind(m.Step, (("turn", ints(-1, 1)),)),
        Kind(m.EndMovement),
        Kind(m.Assign, (("ship", sh), ("weapon", ints(0, weapons - 1)), ("target", sh))),
        Kind(m.Fire),
        Kind(m.Intercept, (("icms", ints(0, icms)), ("evade", Values((False, True))))),
        Kind(m.Repair, (("ship", sh), ("target", Values(targets)), ("points", ints(1, MAX_BLOCK)))),
        Kind(m.EndRepair),
    ])
    space.meta = {"ships": ids, "weapons": weapons, "defenses": defenses, "radius": state.map.radius,
                  "traps": traps}
    return space


action_space = initial_position_spaces(_build, "knighthawks")

_ENCODING = Encoding(action_space)
num_distinct_actions = _ENCODING.num_distinct_actions
encode = _ENCODING.encode
decode = _ENCODING.decode
legal_mask = _ENCODING.legal_mask
observation_string = _ENCODING.observation_string


STAGES = ("move", "declare", "intercept", "repair", "over")
STATUSES = STATUS_NAMES
SCREENS_ON = ("PS", "ES", "SS", "MS")
MAX_TRAPS = 32


def planes(state, view: dict) -> Features:
    """The fixed-layout planes of a Knight Hawks view (docs/research.md): per ship slot (scenario order), then
    traps and the turn. Owners are seen from the viewer (0 = the viewer's side)."""
    meta = action_space(state).meta
    me = view.get("viewer")
    radius = max(1, meta["radius"])
    ships = {s.get("id"): s for s in view.get("ships") or []}
    f = Features()
    f.segment("ships")
    for sid in meta["ships"]:
        s = ships.get(sid) or {}
        f.flag(s)
        f.one_hot(seat(s.get("owner"), me, 2), (0, 1))
        f.one_hot(s.get("status"), STATUSES)
        h = s.get("hex") or [0, 0]
        f.num(h[0], radius)
        f.num(h[1], radius)
        f.one_hot(s.get("facing"), range(6))
        f.num(s.get("speed"), 10)
        hp = s.get("hp") or 0
        f.num(hp, 100)
        f.num((hp - (s.get("damage") or 0)) / hp if hp else 0)
        f.num(s.get("adf"), 5)
        f.num(s.get("mr"), 5)
        f.one_hot(s.get("screen"), SCREENS_ON)
        f.flag(s.get("evading"))
        f.flag(s.get("orbit"))
        f.flag(s.get("docked"))
        dmg = s.get("damaged_systems") or {}
        for k in ("short", "ccs", "nav", "dc", "fire"):
            f.flag(dmg.get(k))
        for group, width in (("weapons", meta["weapons"]), ("defenses", meta["defenses"])):
            rows = s.get(group) or []
            for i in range(width):
                w = rows[i] if i < len(rows) else None
                f.flag(w)
                f.flag(w and w[3] == 0)  # in working order
                f.num((w[1] / w[2]) if w and w[2] and w[2] > 0 and w[1] >= 0 else (1 if w else 0))
    f.segment("traps")
    mines = view.get("mines") or []
    for k in range(MAX_TRAPS):
        t = mines[k] if k < len(mines) else None
        f.flag(t)
        f.one_hot(seat(t[1], me, 2) if t else None, (0, 1))
        f.one_hot(t[2] if t else None, ("M", "S"))
        h = t[3] if t else [0, 0]
        f.num(h[0], radius)
        f.num(h[1], radius)
    f.num(view.get("hidden_mines"), 5)
    f.segment("turn")
    f.num(view.get("turn"), max(1, view.get("turn_limit") or 12))
    f.one_hot(view.get("stage"), STAGES)
    f.flag(view.get("half"))
    f.one_hot(seat(view.get("mover"), me, 2), (0, 1))
    sc = view.get("scores") or [0, 0]
    f.num(sc[me or 0] if len(sc) > (me or 0) else 0, 100)
    f.num(sc[1 - (me or 0)] if len(sc) > 1 else 0, 100)
    return f


def observation(state, player: int | None) -> list[float]:
    """The fixed-length observation vector of ``player``: the planes of ``view(player)``, then a hashed sketch
    of the whole view (docs/research.md). Reads the view (and the public configuration) only."""
    view = state.view(player)
    return planes(state, view).done() + hashed_features(view, SKETCH_SIZE)

