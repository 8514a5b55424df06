"""Fire: which defense an attack is resolved against, the chance to hit with every modifier, the forward
field of fire with its head-on row, line of fire past planets and the attack roll.

Owns: to-hit arithmetic and fire geometry as pure functions. Must not roll dice or change ships (state.py
resolves attacks; damage.py applies hits).
"""

from __future__ import annotations

from functools import cache

from deltav.core import hexgrid
from deltav.games.knighthawks.rulings import DEFAULT, Rulings
from deltav.games.knighthawks.ships import OK, Ship
from deltav.games.knighthawks.tables import tables

Hex = tuple[int, int]


def operating_defenses(ship: Ship, rules: Rulings = DEFAULT) -> list[str]:
    """The defenses operating on ``ship`` now: RH (passive, never shorted or destroyed) and the active screen.
    A powered screen needs power (no short) and must not be destroyed; a released masking screen stays."""
    out = []
    for d in ship.defenses:
        if d[0] == "RH" and d[3] == OK:
            out.append("RH")
    if ship.ms_turns > 0:
        out.append("MS")
    s = ship.screen
    if s is not None and not ship.short:
        i = ship.defense_index(s)
        if i >= 0 and ship.defenses[i][3] == OK:
            out.append(s)
    return out


def defense_column(weapon: str, defenses: list[str], rules: Rulings = DEFAULT) -> str:
    """G11: the column an attack uses. A defense that attracts the weapon (PS<-EB, ES<-PB, and with the ruling
    SS<-T/S/M) is used whenever it operates; otherwise the most effective one (lowest to-hit); 'none' if the
    target has no defense operating."""
    t = tables()
    if not defenses:
        return "none"
    for d in defenses:
        attracts = t.defenses[d].attracts
        if weapon in attracts and (d != "SS" or rules.stasis_attracts_guided):
            return d
    row = t.combat[weapon]
    best = defenses[0]
    for d in defenses[1:]:
        if row[d] < row[best]:
            best = d
    return best


def half_damage(weapon: str, column: str) -> bool:
    return (weapon, column) in tables().half_damage


def chance_to_hit(
    weapon: str,
    column: str,
    distance: int,
    head_on: bool = False,
    ccs: bool = False,
    icms: int = 0,
    evade_mr: int = 0,
) -> int:
    """The modified percent chance: table value, +10 head-on (FF weapons), -5 x range (RD), -10 for a CCS
    hit, the weapon's ICM modifier per interceptor fired, -5 x MR for a target evading a torpedo. May be
    below 0 or above 100 (the 5 and 96 automatic results decide those)."""
    w = tables().weapons[weapon]
    c = tables().combat[weapon][column]
    if head_on and w.ff:
        c += 10
    if w.rd:
        c -= 5 * distance
    if ccs:
        c -= 10
    if icms:
        c += w.icm * icms
    if evade_mr and weapon == "T":
        c -= 5 * evade_mr
    return c


def roll_hits(roll: int, chance: int, rules: Rulings = DEFAULT) -> bool:
    """G12: within range, 5 or less always hits and 96 or more always misses; otherwise hit on roll <= chance."""
    if rules.auto_results:
        if roll <= 5:
            return True
        if roll >= 96:
            return False
        return roll <= chance
    return roll <= max(chance, 5)


def weapon_range(weapon: str, rules: Rulings = DEFAULT) -> int:
    if weapon == "EB":
        return rules.eb_range
    return tables().weapons[weapon].range


@cache
def corridor_offsets(facing: int, reach: int) -> dict[Hex, bool]:
    """Offsets of the forward field of fire (three hexes wide) out to ``reach``: the centre row (head-on,
    True) runs straight ahead from the ship's own hex; each side row starts at the hex ahead-left/ahead-right
    of the ship and runs parallel to it. Every hex is within hex distance ``reach``."""
    out: dict[Hex, bool] = {}
    d = hexgrid.DIRECTIONS[facing % 6]
    for k in range(reach + 1):
        out[(d[0] * k, d[1] * k)] = True
    for side in (1, -1):
        s = hexgrid.DIRECTIONS[(facing + side) % 6]
        for k in range(reach + 1):
            h = (s[0] + d[0] * k, s[1] + d[1] * k)
            if hexgrid.length(h) <= reach:
                out.setdefault(h, False)
    return out


_corridor_offsets = corridor_offsets  # the old private name


def in_forward_field(pos: Hex, facing: int, target: Hex, reach: int) -> bool | None:
    """None if ``target`` is outside the ship's forward field of fire out to ``reach``; else True if it is in
    the head-on (centre) row (the ship's own hex counts as head-on), False for a side row."""
    off = (target[0] - pos[0], target[1] - pos[1])
    return corridor_offsets(facing % 6, reach).get(off)


def fire_blocked(a: Hex, b: Hex, planets: frozenset) -> bool:
    """A planet blocks a shot when the shortest path must pass through its hex: a planet on a definite hex of
    the line between the centres (endpoints excluded), or planets on both hexes of a grazed hexside.

    The hexes nearest the line's point at step ``i`` are all at distance ``i`` from ``a`` and ``n - i`` from
    ``b`` (checked exhaustively for lines up to ``_EXACT_MAX`` hexes long), so a planet at distances ``d1`` and
    ``d2`` can only lie on the line if ``d1 + d2 == n``, and then only at step ``d1``: one cached step per
    candidate planet instead of the whole line analysis."""
    if not planets or a == b:
        return False
    aq, ar = a
    bq, br = b
    dq = bq - aq
    dr = br - ar
    n = max(abs(dq), abs(dr), abs(dq + dr))
    if n > _EXACT_MAX:
        return _fire_blocked_full(a, b, planets)
    for p in planets:
        d1 = max(abs(p[0] - aq), abs(p[1] - ar), abs(p[0] - aq + p[1] - ar))
        d2 = max(abs(p[0] - bq), abs(p[1] - br), abs(p[0] - bq + p[1] - br))
        if d1 + d2 == n and d1 and d2:
            key = (dq, dr, d1)
            step = _STEPS.get(key)
            if step is None:
                if len(_STEPS) > 200_000:
                    _STEPS.clear()
                step = _STEPS[key] = hexgrid._nearest_hexes(dq * d1, dr * d1, n)
            if (p[0] - aq, p[1] - ar) in step and all((aq + s[0], ar + s[1]) in planets for s in step):
                return True
    return False


_EXACT_MAX = 70  # the step-distance property above was verified for every line up to this length
_STEPS: dict = {}  # (dq, dr, i) -> hexes nearest step i of the line from the origin to (dq, dr) (hexgrid's exact rule)


def _fire_blocked_full(a: Hex, b: Hex, planets: frozenset) -> bool:
    """fire_blocked by the whole line analysis (lines longer than ``_EXACT_MAX``)."""
    aq, ar = a
    bq, br = b
    n = max(abs(bq - aq), abs(br - ar), abs(bq - aq + br - ar))
    for p in planets:  # only a planet (almost) on the straight path can block it
        d1 = max(abs(p[0] - aq), abs(p[1] - ar), abs(p[0] - aq + p[1] - ar))
        d2 = max(abs(p[0] - bq), abs(p[1] - br), abs(p[0] - bq + p[1] - br))
        if d1 + d2 <= n + 1 and d1 and d2:
            break
    else:
        return False
    la = hexgrid.analyze_offset(b[0] - a[0], b[1] - a[1])
    q, r = a
    for step in la.steps[1:-1]:
        if len(step) == 1:
            h = (q + step[0][0], r + step[0][1])
            if h in planets:
                return True
        elif all((q + s[0], r + s[1]) in planets for s in step):
            return True
    return False
