"""The design phase (rules section on ship design; only for a side without a fleet named by the scenario):
every designing side at once, secretly, step by step: adopt a built-in fleet, or per ship its size, thrust,
evasion, endurance and weapons (targeting, damage) within ``60 x size`` design points (and ``stat_cap``); then
``done``. The last ``done`` commissions every fleet's ships and deployment begins.

This module must not touch deployment beyond starting it.
"""

from __future__ import annotations

from functools import lru_cache

from deltav.core.errors import IllegalAction, ScenarioError
from deltav.core.jsonin import shown
from deltav.games.deepspace import flow
from deltav.games.deepspace.choices import DONE
from deltav.games.deepspace.design import POINTS_PER_SIZE, ShipDesign, builtin_fleet_ids, load_fleet
from deltav.games.deepspace.limits import DESIGN_STAGES
from deltav.games.deepspace.messages import (
    Commissioned,
    Designed,
    DesignStep,
    Done,
    EndShip,
    NewShip,
    SetStat,
    UseFleet,
    WeaponDamage,
    WeaponTargeting,
)
from deltav.games.deepspace.ship import Ship


@lru_cache(maxsize=64)
def fleets_within(levels: int, stat_cap: int) -> tuple[str, ...]:
    """The built-in fleets a side of ``levels`` size levels may adopt during the design phase."""
    out = []
    for fid in builtin_fleet_ids():
        try:
            f = load_fleet(fid, stat_cap)
        except ScenarioError:
            continue
        if f.levels_used <= levels:
            out.append(fid)
    return tuple(out)


def bounds(state, p: int) -> tuple[int, int, int, bool]:
    """The design step now: ``(stage, lo, hi, extra)``: levels lo..hi are open; ``extra`` says whether the
    stage's other action (``done`` at stage 0, ``end_ship`` at stage 4) is open."""
    size, t, e, en, weapons, stage, pend = state.drafts[p]
    cap = state.opts["stat_cap"]
    if stage == 0:
        free = state.levels[p] - sum(d.size for d in state.designs[p])
        return 0, 1, free, bool(state.designs[p]) and (free == 0 or state.opts["fleet_levels"] == "at_most")
    left = POINTS_PER_SIZE * size - (size * (t + e + en) + sum(a + b for a, b in weapons))
    if stage in (1, 2, 3):
        hi = left // size
        return stage, 0, min(hi, cap) if cap else hi, False
    if stage == 4:
        # a weapon needs one point: targeting 0 needs damage >= 1
        return 4, 0, (min(left, cap) if cap else left) if left >= 1 else -1, (
            t + e + en + sum(a + b for a, b in weapons) > 0
        )
    left -= pend
    return 5, 1 if pend == 0 else 0, min(left, cap) if cap else left, False


def legal(state, p: int) -> list:
    stage, lo, hi, extra = bounds(state, p)
    if stage == 0:
        out: list = [NewShip(k) for k in range(lo, hi + 1)]
        if not state.designs[p]:
            out += [UseFleet(f) for f in fleets_within(state.levels[p], state.opts["stat_cap"])]
        if extra:
            out.append(DONE)
        return out
    if stage in (1, 2, 3):
        return [SetStat(DESIGN_STAGES[stage], v) for v in range(lo, hi + 1)]
    if stage == 4:
        return ([EndShip()] if extra else []) + [WeaponTargeting(v) for v in range(lo, hi + 1)]
    return [WeaponDamage(v) for v in range(lo, hi + 1)]


def is_legal(state, p: int, a) -> bool:
    stage, lo, hi, extra = bounds(state, p)
    if stage == 0:
        if isinstance(a, UseFleet):
            return not state.designs[p] and a.fleet in fleets_within(state.levels[p], state.opts["stat_cap"])
        return (isinstance(a, Done) and extra) or (isinstance(a, NewShip) and lo <= a.size <= hi)
    if stage in (1, 2, 3):
        return isinstance(a, SetStat) and a.stat == DESIGN_STAGES[stage] and lo <= a.level <= hi
    if stage == 4:
        return (isinstance(a, EndShip) and extra and name_problem(a.name) is None) or (
            isinstance(a, WeaponTargeting) and lo <= a.level <= hi)
    return isinstance(a, WeaponDamage) and lo <= a.level <= hi


#: the longest name a designer may give a ship design
DESIGN_NAME_LEN = 40


def name_problem(name: str | None) -> str | None:
    """Why ``name`` cannot name a ship design (``end_ship``), or None: None (the default name) or 1 to
    ``DESIGN_NAME_LEN`` printable characters, not only spaces."""
    if name is None:
        return None
    if not name.strip():
        return "a design's name has at least one character besides spaces"
    if len(name) > DESIGN_NAME_LEN:
        return f"a design's name has at most {DESIGN_NAME_LEN} characters, not {len(name)}"
    if not name.isprintable():
        return "a design's name has printable characters only (no line breaks or control characters)"
    return None


#: the kinds of action a design takes (the phase table refuses the others with :func:`order_error`)
KINDS = (NewShip, UseFleet, SetStat, WeaponTargeting, WeaponDamage, EndShip, Done)


def order_error(state, p: int, a) -> IllegalAction:
    """The refusal of an action of another kind than a design step (``deepspace.design.order``)."""
    return IllegalAction(*_refusal(state, p, a))


def apply(state, p: int, a) -> list:
    if not is_legal(state, p, a):
        raise IllegalAction(*_refusal(state, p, a))
    size, t, e, en, weapons, stage, pend = state.drafts[p]
    if isinstance(a, Done):
        state.waiting[p] = False
        ev: list = [Designed(p)]
        if not any(state.waiting):
            ev += commission(state)
        return ev
    if isinstance(a, UseFleet):
        state.designs[p] = load_fleet(a.fleet, state.opts["stat_cap"]).ships
    elif isinstance(a, NewShip):
        state.drafts[p] = (a.size, 0, 0, 0, (), 1, 0)
    elif isinstance(a, SetStat):
        if stage == 1:
            t = a.level
        elif stage == 2:
            e = a.level
        else:
            en = a.level
        state.drafts[p] = (size, t, e, en, weapons, stage + 1, 0)
    elif isinstance(a, WeaponTargeting):
        state.drafts[p] = (size, t, e, en, weapons, 5, a.level)
    elif isinstance(a, WeaponDamage):
        state.drafts[p] = (size, t, e, en, weapons + ((pend, a.level),), 4, 0)
    else:  # EndShip
        k = len(state.designs[p])
        d = ShipDesign(a.name.strip() if a.name is not None else f"Design {k + 1}", size, t, e, en, weapons)
        state.designs[p] = state.designs[p] + (d,)
        state.drafts[p] = (0, 0, 0, 0, (), 0, 0)
    size, t, e, en, weapons, stage, pend = state.drafts[p]
    return [DesignStep(p, size, t, e, en, weapons, (p,))]


def _refusal(state, p: int, a) -> tuple[str, str]:
    """The rule id and sentence for a design step that :func:`is_legal` refused."""
    size, t, e, en, weapons, stage, pend = state.drafts[p]
    free = state.levels[p] - sum(d.size for d in state.designs[p])
    cap = state.opts["stat_cap"]
    name = DESIGN_STAGES[stage]
    order = ("deepspace.design.order", f"{type(a).TYPE} is not the next design step (the design is at stage {name!r})")
    if stage == 0:
        if isinstance(a, UseFleet):
            if state.designs[p]:
                return "deepspace.design.order", "a ready-made fleet is adopted before any ship is designed"
            if a.fleet in builtin_fleet_ids():
                return "deepspace.design.size_levels", f"fleet {a.fleet!r} needs more than the side's {free} size levels"
            return "deepspace.design.fleet", f"no built-in fleet {a.fleet!r} (built-in: {', '.join(builtin_fleet_ids())})"
        if isinstance(a, NewShip):
            if a.size < 1:
                return "deepspace.design.size", f"a ship's size is at least 1, not {shown(a.size)}"
            return "deepspace.design.size_levels", f"size {shown(a.size)} is not available: {free} size levels left"
        if isinstance(a, Done):
            if not state.designs[p]:
                return "deepspace.design.no_ship", "design at least one ship before done"
            return (
                "deepspace.design.size_levels",
                f"the fleet's ships must total the side's {state.levels[p]} size levels: {free} are still unused",
            )
        return order
    level = getattr(a, "level", None)
    fits = (
        (stage in (1, 2, 3) and isinstance(a, SetStat) and a.stat == name)
        or (stage == 4 and isinstance(a, WeaponTargeting))
        or (stage == 5 and isinstance(a, WeaponDamage))
    )
    if stage == 4 and isinstance(a, EndShip):
        if name_problem(a.name) is not None:
            return "deepspace.design.name", name_problem(a.name)
        return "deepspace.design.empty_ship", "a ship needs at least one stat above zero besides size"
    if not fits:
        return order
    if stage == 5 and level == 0 and pend == 0:
        return "deepspace.design.empty_weapon", "a weapon needs at least one level of targeting or damage"
    if level < 0:
        return "deepspace.design.level", f"a level is at least 0, not {shown(level)}"
    unit = size if stage in (1, 2, 3) else 1
    left = POINTS_PER_SIZE * size - (size * (t + e + en) + sum(x + y for x, y in weapons)) - pend
    if cap and level > cap and level * unit <= left:
        return "deepspace.design.stat_cap", f"{shown(level)} exceeds the stat cap {cap}"
    return (
        "deepspace.design.points",
        f"{shown(level)} levels of {name if stage < 4 else 'targeting' if stage == 4 else 'damage'} cost "
        f"{shown(level * unit)} "
        f"design points; {shown(left)} of the ship's {POINTS_PER_SIZE * size} (60 x size {size}) are left",
    )


def commission(state) -> list:
    """Every fleet is designed: its ships enter the record (ids ``s<player>-<k>``); deployment begins."""
    ev: list = []
    ships = []
    for p in range(state.num_players):
        for k, d in enumerate(state.designs[p]):
            s = Ship.make(f"s{p}-{k}", p, k, d)
            ships.append(s)
            ev.append(Commissioned(s.id, p, s.size))
    state.ships = ships
    state.index = {s.id: i for i, s in enumerate(ships)}
    state.plan = [None] * len(ships)
    return ev + flow.start_deploy(state)
