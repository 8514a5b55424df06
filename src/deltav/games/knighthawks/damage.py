"""The Advanced Game damage system as pure functions over a ship record, with every roll passed in.

Owns: reading the Damage Table for a modified roll, the cumulation and fall-through rules (a result the ship
cannot take becomes a hull hit), applying an effect to the ship's roster, hull damage arithmetic (HDR,
double, half), drive losses and the break-up chance of a severely damaged ship. Must not roll dice, look at
other ships or the map, or know about phases (state.py does).

Typical use (state.py)::

    eff = classify(ship, roll + dtm)              # what the hit does to this ship (no change yet)
    pts = hull_points(dice_total, eff.double, half) if eff.kind == "hull" else 0
    apply_effect(ship, eff, pts)
"""

from __future__ import annotations

from dataclasses import dataclass

from deltav.games.knighthawks.rulings import DEFAULT, Rulings
from deltav.games.knighthawks.ships import DESTROYED, OK, Ship
from deltav.games.knighthawks.tables import DamageRow, tables


@dataclass(frozen=True, slots=True)
class Effect:
    """What one damage result does. ``result`` is the table's result; ``kind`` what actually happens ("hull"
    when a result falls through); ``index`` the system hit (weapon or defense list index) or -1; ``loss``
    the ADF/MR points lost; ``parts`` the parts of a disastrous fire that apply; ``note`` why it fell through."""

    modified: int
    result: str
    kind: str
    double: bool = False
    index: int = -1
    loss: int = 0
    parts: tuple[str, ...] = ()
    note: str = ""

    def describe(self) -> str:
        return self.kind if not self.note else f"{self.kind} ({self.note})"


def row_for(modified: int) -> DamageRow:
    return tables().damage_row(modified)


def drive_loss(adf0: int, adf: int, amount: str) -> int:
    """ADF points a drive hit removes: 1, half the *original* ADF rounded up (ADF 3 loses 2, keeps 1), or all;
    never more than the ship has left."""
    if amount == "one":
        loss = 1
    elif amount == "half":
        loss = (adf0 + 1) // 2
    else:
        loss = adf
    return min(loss, adf)


def hull_points(dice_total: int, double: bool = False, half: bool = False, round_up: bool = True) -> int:
    """Hull damage of a hull hit: the HDR roll, halved for the starred cells (G6: rounded up), then doubled."""
    pts = dice_total
    if half:
        pts = (pts + 1) // 2 if round_up else pts // 2
    if double:
        pts *= 2
    return pts


def breakup_chance(hp: int, damage: int, points_used: int) -> int:
    """Percent chance a severely damaged ship breaks apart: (damage - floor(hp/2)) x ADF and MR points used.
    0 unless the ship is severely damaged (damage > half its original hull points)."""
    excess = damage - hp // 2
    if excess <= 0 or points_used <= 0:
        return 0
    return excess * points_used


def maneuver_points(old_speed: int, new_speed: int, turns: int = 0, rotated: int = 0) -> int:
    """ADF and MR points a move uses for the break-up check: the speed change (ADF), the hexsides turned on the
    way and the hexsides rotated in place (MR). Entering orbit is a deceleration to speed 0; rotating in orbit
    or while docked uses MR like rotating in open space."""
    return abs(new_speed - old_speed) + turns + rotated


def breaks_apart(hp: int, damage: int, points_used: int, roll: int) -> bool:
    """The d100 ``roll`` breaks the ship apart if it is at most the chance."""
    return roll <= breakup_chance(hp, damage, points_used)


def _hull(modified: int, row: DamageRow, note: str, double: bool = False) -> Effect:
    return Effect(modified, row.result, "hull", double=double, note=note)


def _find_system(systems: list, priority: tuple[str, ...], skip_destroyed: bool) -> tuple[int, str]:
    """Index of the system a weapon/defense hit destroys, or (-1, reason)."""
    for code in priority:
        carried = [i for i, s in enumerate(systems) if s[0] == code]
        if not carried:
            continue
        for i in carried:
            if systems[i][3] == OK:
                return i, ""
        if not skip_destroyed:
            return -1, f"{code} already destroyed"
    return -1, "no listed system"


def classify(ship: Ship, modified: int, rules: Rulings = DEFAULT) -> Effect:
    """The effect of a damage result with modified roll ``modified`` on ``ship`` (the ship is not changed).
    Applies every cumulation rule: drive/steering hits on a ship with none left, a hit on a missing or
    destroyed system, a second CCS/DC hit or fire (and, K2, a second short or navigation hit) become hull hits."""
    row = tables().damage_row(modified)
    r = row.result
    if r == "hull":
        return Effect(modified, r, "hull", double=row.double)
    if r == "drive":
        if ship.adf <= 0:
            return _hull(modified, row, "no ADF left")
        return Effect(modified, r, "drive", loss=drive_loss(ship.adf0, ship.adf, row.amount))
    if r == "steering":
        if ship.mr <= 0:
            return _hull(modified, row, "no MR left")
        return Effect(modified, r, "steering", loss=1 if row.amount == "one" else ship.mr)
    if r in ("weapon", "defense"):
        systems = ship.weapons if r == "weapon" else ship.defenses
        i, why = _find_system(systems, row.priority, rules.priority_skips_destroyed)
        if i < 0:
            return _hull(modified, row, why)
        return Effect(modified, r, r, index=i)
    if r == "short":
        if ship.short and rules.repeat_flag_hit == "hull":
            return _hull(modified, row, "power already short-circuited")
        return Effect(modified, r, "short")
    if r == "ccs":
        if ship.ccs:
            return _hull(modified, row, "combat control already hit")
        return Effect(modified, r, "ccs")
    if r == "nav":
        if ship.nav and rules.repeat_flag_hit == "hull":
            return _hull(modified, row, "navigation already hit")
        return Effect(modified, r, "nav")
    if r == "fire":
        if ship.fire:
            return _hull(modified, row, "already burning")
        return Effect(modified, r, "fire")
    if r == "dcr":
        if ship.dch:
            return _hull(modified, row, "damage control already hit")
        return Effect(modified, r, "dcr")
    # disastrous fire (G3)
    parts = []
    if not ship.dch:
        parts.append("dcr")
    if ship.adf > 0:
        parts.append("adf")
    if ship.mr > 0:
        parts.append("mr")
    if not ship.ccs:
        parts.append("ccs")
    if not ship.fire:
        parts.append("fire")
    if not parts or (rules.disaster_fallback == "hull" and len(parts) < 5):
        return _hull(modified, row, "disastrous fire already in effect")
    return Effect(modified, r, "disaster", parts=tuple(parts))


def apply_effect(ship: Ship, eff: Effect, hull: int = 0, rules: Rulings = DEFAULT) -> bool:
    """Apply ``eff`` to the ship's roster (``hull``: the hull points of a hull hit). Returns True if the
    ship is destroyed by it (hull damage reaching its hull points)."""
    k = eff.kind
    if k == "hull":
        ship.dmg += hull
        return ship.dmg >= ship.hp
    if k == "drive":
        ship.adf = max(0, ship.adf - eff.loss)
    elif k == "steering":
        ship.mr = max(0, ship.mr - eff.loss)
    elif k == "weapon":
        code = ship.weapons[eff.index][0]
        if rules.weapon_hit_scope == "type":
            ship.weapons = [(c, n, m, DESTROYED if c == code and st == OK else st) for c, n, m, st in ship.weapons]
        else:
            c, n, m, _ = ship.weapons[eff.index]
            ship.weapons[eff.index] = (c, n, m, DESTROYED)
    elif k == "defense":
        c, n, m, _ = ship.defenses[eff.index]
        if c in ("MS", "ICM") and rules.store_hit == "one" and n > 1:
            ship.defenses[eff.index] = (c, n - 1, m, OK)
        else:
            ship.defenses[eff.index] = (c, n, m, DESTROYED)
            if ship.screen == c:
                ship.screen = None  # a hit on a screen that is switched on turns it off (a released MS stays)
    elif k == "short":
        # the powered screen stays switched on but stops working while the short lasts (combat.py's
        # operating_defenses, ICMs in Ship.icms_available): repairing the short brings it back
        ship.short = True
    elif k == "ccs":
        ship.ccs = True
    elif k == "nav":
        ship.nav = True
    elif k == "fire":
        ship.fire = True
    elif k == "dcr":
        ship.dch = True
    elif k == "disaster":
        for p in eff.parts:
            if p == "dcr":
                ship.dch = True
            elif p == "adf":
                ship.adf = 0
            elif p == "mr":
                ship.mr = 0
            elif p == "ccs":
                ship.ccs = True
            elif p == "fire":
                ship.fire = True
    return False
