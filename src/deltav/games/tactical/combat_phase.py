"""The combat side of a player-turn (design/tactical.md 1.4, 1.8, 1.10): the post-movement steps (orbital-base
resupply, hidden-identity inspection, capture, ramming), asteroid hazards, the gun combat phase (decomposed
declarations), counterattacks, heroism, anti-nuke fire and planetary defense. The numbers (odds, tables,
modifiers, counterattack groups) come from the pure functions of ``combat.py``; this module applies them to
the state, rolling every die with ``state.rng`` in the order of 1.16.

Decomposition of the combat phase (one decision at a time, then ``end_combat``):

1. ``add_attacker(ship)`` puts one of your ships that may attack into the group being formed (it must share a
   possible target with the ships already in the group);
2. ``fire(target, strength)`` makes the group attack one enemy ship (``strength`` null: the group's whole
   remaining strength; an integer: a reduced attack) or one enemy nuke (whole strength only). After a reduced
   attack on a ship, the group's remaining strength may ``fire`` at other ships in the same hex (split fire);
   ``add_attacker`` then starts a new group;
3. ``end_combat``: planetary defense fires, then logistics (if any transfer is possible) or the end of the
   player-turn.

A ship attacks in at most one group per phase; a target is attacked at most once per phase.
This module must not touch movement or ordnance movement.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.hexgrid import analyze_offset

from . import combat as cb
from . import logistics
from .flow import check_victory, destroy, end_player_turn, resupply
from .messages import (
    AddAttacker,
    AttackDeclared,
    AttackerAdded,
    Counterattack,
    DamageRoll,
    DetectionChanged,
    EndCombat,
    Fire,
    HeroismEarned,
    IdentityRevealed,
    OrdnanceRemoved,
    PhaseChanged,
    ShipCaptured,
    ShipDestroyed,
    ShipResupplied,
)
from .model import hkey


class CombatState:
    """Bookkeeping of one combat phase: ships that have fired, targets attacked, the group being formed, and
    the strength it has already declared (split fire) at which hex."""

    __slots__ = ("used", "attacked", "group", "allocated", "group_hex")

    def __init__(self):
        self.used: tuple[str, ...] = ()
        self.attacked: tuple[str, ...] = ()
        self.group: tuple[str, ...] = ()
        self.allocated = 0
        self.group_hex = None

    def copy(self) -> CombatState:
        c = CombatState.__new__(CombatState)
        c.used = self.used
        c.attacked = self.attacked
        c.group = self.group
        c.allocated = self.allocated
        c.group_hex = self.group_hex
        return c

    def to_json(self) -> dict:
        return {
            "used": list(self.used),
            "attacked": list(self.attacked),
            "group": list(self.group),
            "allocated": self.allocated,
            "group_hex": hkey(self.group_hex) if self.group_hex else None,
        }

    @classmethod
    def from_json(cls, o: dict) -> CombatState:
        c = cls()
        c.used = tuple(o["used"])
        c.attacked = tuple(o["attacked"])
        c.group = tuple(o["group"])
        c.allocated = o["allocated"]
        if o["group_hex"]:
            a, b = o["group_hex"].split(",")
            c.group_hex = (int(a), int(b))
        return c


# --- helpers ------------------------------------------------------------------------------------------------


def reveal(state, ships) -> list:
    """Fog of war (ruling 4): a ship that fires (an attack, a counterattack) or captures is detected."""
    events = []
    for sh in ships:
        if not sh.detected:
            sh.detected = True
            events.append(DetectionChanged(sh.id, True, hkey(sh.pos), (sh.vel[0], sh.vel[1])))
    return events


def _policy(sh) -> str:
    return sh.type.fires_disabled


def may_attack(state, sh) -> bool:
    return (sh.owner == state.active_player and not sh.destroyed and cb.can_attack(
        defensive_only=sh.type.defensive, disabled_turns=sh.disabled, policy=_policy(sh), active=not sh.landed,
        resupplied=sh.resupplied, own_control=sh.control == "own") and sh.type.combat > 0)


def combatant(sh):
    return cb.make_combatant(sh.id, sh.type.combat, sh.disabled, sh.pos, sh.vel, sh.path, sh.heroic, _policy(sh))


def _is_body(state):
    surface = state.gmap.surface
    return surface.__contains__


#: map -> {(origin, target): line of sight} (a pure function of the map's body hexes); the map stays out of the
#: inner keys, which leaves them plain tuples the cyclic garbage collector stops tracking
_LOS: dict = {}


def _sees(state, sh, target_pos) -> bool:
    origin = cb.closest_approach(sh.path, sh.pos, target_pos)
    memo = _LOS.get(state.gmap)
    if memo is None or len(memo) > 100_000:
        if len(_LOS) >= 8:
            _LOS.clear()
        memo = _LOS[state.gmap] = {}
    key = (origin, target_pos)
    try:
        got = memo.get(key)
    except TypeError:  # a hex given as a list
        return cb.line_of_sight(origin, target_pos, _is_body(state))
    if got is None:
        got = memo[key] = cb.line_of_sight(origin, target_pos, _is_body(state))
    return got


def ship_targets(state, group_ids) -> list:
    """Enemy ships the whole group may attack now (active, detected, not yet attacked, LOS from each)."""
    cs = state.combat
    out = []
    members = [state.ship(x) for x in group_ids]
    for t in state.ships:
        if t.owner == state.active_player or t.destroyed or t.landed or not t.detected:
            continue
        if cs is not None and t.id in cs.attacked:
            continue
        if all(_sees(state, m, t.pos) for m in members):
            out.append(t)
    return out


def nuke_targets(state, group_ids) -> list:
    cs = state.combat
    members = [state.ship(x) for x in group_ids]
    out = []
    for o in state.ordnance:
        if o.owner == state.active_player or o.kind != "nuke" or o.destroyed or not o.detected:
            continue
        if cs is not None and o.id in cs.attacked:
            continue
        if all(_sees(state, m, o.pos) for m in members):
            out.append(o)
    return out


def _free_attackers(state) -> list:
    cs = state.combat
    used = set(cs.used) | set(cs.group) if cs is not None else set()
    return [sh for sh in state.ships if sh.id not in used and may_attack(state, sh)]


def attack_possible(state) -> bool:
    if not state.rules.combat:
        return False
    return any(ship_targets(state, (sh.id,)) or nuke_targets(state, (sh.id,)) for sh in _free_attackers(state))


# --- post-movement steps (1.4 step 3 c-f) -------------------------------------------------------------------


def queue_hazards(state, sh, course) -> None:
    """Asteroid hazards of a move ending at speed > 1: one per definite asteroid hex entered (start excluded,
    destroyed asteroids ignored) and one per grazed hexside whose two hexes are both asteroids."""
    gone = state.destroyed_asteroids
    ast = state.gmap.asteroids
    a = analyze_offset(course.destination[0] - course.start[0], course.destination[1] - course.start[1])
    q0, r0 = course.start
    hz = []
    for step in a.steps[1:]:
        hexes = [(q0 + dq, r0 + dr) for dq, dr in step]
        if len(hexes) == 1:
            h = hexes[0]
            if h in ast and h not in gone:
                hz.append((sh.id, h))
        elif len(hexes) == 2 and all(h in ast and h not in gone for h in hexes):
            hz.append((sh.id, min(hexes)))
    if hz:
        state.hazards = state.hazards + hz


def _damage(state, sh, result, source: str, roll: int, modifier: int = 0, odds=None) -> list:
    """Apply a table result to a ship; returns the events (damage roll, maybe destruction)."""
    events = []
    if result == cb.Damage.NONE:
        turns, elim = sh.disabled, False
    else:
        turns, elim = cb.apply_damage(sh.disabled, result)
    to = state.audience(sh)
    events.append(DamageRoll(source, sh.id, roll, modifier, odds, result.label, turns if not elim else sh.disabled, to))
    if elim:
        destroy(sh, source)
        events.append(ShipDestroyed(sh.id, hkey(sh.pos), source, None, to))
    else:
        sh.disabled = turns
    return events


def post_movement(state, p: int) -> list:
    events: list = []
    ships = state.ships
    # c. orbital-base resupply: same hex and velocity as an own emplaced orbital base (overload not reset)
    bases = [b for b in ships if b.emplaced and not b.destroyed and b.owner == p]
    for b in bases:
        for sh in ships:
            if sh is b or sh.owner != p or sh.destroyed or sh.emplaced or sh.landed:
                continue
            if sh.pos == b.pos and sh.vel == b.vel:
                resupply(sh, full=False)
                b.resupplied = True
                events.append(ShipResupplied(sh.id, hkey(sh.pos), state.audience(sh)))
    movers = [sh for sh in ships if sh.owner == p and not sh.destroyed and not sh.landed and sh.disabled == 0
              and sh.control == "own"]
    # d. inspection of hidden identities (Escape)
    if state.rules.hidden_identity:
        for m in movers:
            for e in ships:
                if e.owner != p and e.hidden and not e.revealed and not e.destroyed and e.pos == m.pos \
                        and e.vel == m.vel and not e.landed:
                    e.revealed = True
                    events.append(IdentityRevealed(e.id, "fugitives" if e.fugitive else "decoy"))
    # e. capture of disabled enemies
    for m in movers:
        for e in ships:
            if e.owner != p and not e.destroyed and not e.landed and e.disabled > 0 and e.pos == m.pos \
                    and e.vel == m.vel:
                e.owner = p
                e.control = "captured"
                e.detected = True
                if e.hidden and not e.revealed:
                    e.revealed = True
                    events.append(IdentityRevealed(e.id, "fugitives" if e.fugitive else "decoy"))
                events.extend(reveal(state, (m,)))  # docking with an enemy ship reveals the captor
                events.append(ShipCaptured(e.id, m.id))
    # f. ramming: every pair of opposing ships in one hex, both roll
    active = [s for s in ships if not s.destroyed and not s.landed and s.control != "captured"]
    for i, a in enumerate(active):
        for b in active[i + 1:]:
            if a.owner != b.owner and a.pos == b.pos and not a.destroyed and not b.destroyed:
                for x in (a, b):
                    die = state.rng.d6()
                    events.extend(_damage(state, x, cb.other_damage("ram", die), "ram", die))
    return events


# --- entering and leaving the combat phase ------------------------------------------------------------------


def enter_after_movement(state) -> list:
    """After movement: roll the active player's asteroid hazards, then open the combat phase if an attack is
    possible; else planetary defense and on to logistics or the end of the player-turn."""
    events: list = []
    p = state.active_player
    mine = [h for h in state.hazards if state.ship(h[0]).owner == p]
    if mine:
        state.hazards = [h for h in state.hazards if state.ship(h[0]).owner != p]
        for sid, _h in mine:
            sh = state.ship(sid)
            if sh.destroyed:
                continue
            die = state.rng.d6()
            events.extend(_damage(state, sh, cb.other_damage("asteroid", die), "asteroid", die))
        events.extend(check_victory(state))
        if state.res is not None:
            return events
    if attack_possible(state):
        state.combat = CombatState()
        state.phase = "combat"
        events.append(PhaseChanged(p, "combat"))
        return events
    events.extend(leave_combat(state))
    return events


def leave_combat(state) -> list:
    events: list = []
    if state.rules.combat and state.rules.planetary_defense:
        events.extend(planetary_defense(state))
        events.extend(check_victory(state))
        if state.res is not None:
            return events
    state.combat = None
    events.extend(_remove_destroyed_ordnance(state))
    if logistics.phase_available(state):
        state.phase = "logistics"
        state.transfers = 0
        events.append(PhaseChanged(state.active_player, "logistics"))
        return events
    events.extend(end_player_turn(state))
    return events


def _remove_destroyed_ordnance(state) -> list:
    if any(o.destroyed for o in state.ordnance):
        state.ordnance = [o for o in state.ordnance if not o.destroyed]
    return []


def planetary_defense(state) -> list:
    """Every intact base of the active player on a body with gravity shoots (2:1, no modifiers) each active
    enemy ship in that body's gravity within 1 hex of it, then (2:1 with range and velocity) each enemy nuke it
    sees. (Our engine always resolves it at the end of the combat step; the reference skips it when the combat
    phase is not entered, see docs.)"""
    events: list = []
    p = state.active_player
    gmap = state.gmap
    enemies = [sh for sh in state.ships if sh.owner != p and not sh.destroyed and not sh.landed]
    nukes = any(o.owner != p and o.kind == "nuke" and not o.destroyed and o.detected for o in state.ordnance)
    if not enemies and not nukes:
        return events
    zones = gmap.fire_zone
    for b in state.players[p].bases:
        zone = zones.get(b)
        if zone is None or b in state.destroyed_bases:
            continue
        for sh in enemies:
            if sh.pos in zone and not sh.destroyed:
                # (the zone is the base body's gravity within 1 hex: cb.in_base_fire_zone)
                die = state.rng.d6()
                shot = cb.planetary_defense_shot(die)
                events.extend(_damage(state, sh, shot.result, "planetary_defense", die, 0, shot.odds_label))
        if not nukes:
            continue
        for o in state.ordnance:
            if o.owner == p or o.kind != "nuke" or o.destroyed or not o.detected:
                continue  # ruling 7: an undetected nuke cannot be shot at
            if cb.line_of_sight(b, o.pos, _is_body(state)):
                die = state.rng.d6()
                shot = cb.base_anti_nuke_shot(b, o.pos, o.vel, die)
                if cb.nuke_destroyed(shot):
                    o.destroyed = True
                    events.append(OrdnanceRemoved(o.id, "shot"))
    return events


# --- the combat phase: legal actions and application --------------------------------------------------------


def legal(state, player: int) -> list:
    cs = state.combat
    out: list = []
    group = cs.group
    free = _free_attackers(state)
    if group:
        if cs.allocated:
            full = sum(combatant(state.ship(x)).strength for x in group)
            left = full - cs.allocated
            for t in ship_targets(state, group):
                if t.pos == cs.group_hex:
                    out.append(Fire(t.id, None))
                    out.extend(Fire(t.id, k) for k in range(1, left + 1))
            for sh in free:
                if ship_targets(state, (sh.id,)) or nuke_targets(state, (sh.id,)):
                    out.append(AddAttacker(sh.id))
        else:
            full = sum(combatant(state.ship(x)).strength for x in group)
            for t in ship_targets(state, group):
                out.append(Fire(t.id, None))
                out.extend(Fire(t.id, k) for k in range(1, full + 1))
            for o in nuke_targets(state, group):
                out.append(Fire(o.id, None))
            for sh in free:
                g2 = group + (sh.id,)
                if ship_targets(state, g2) or nuke_targets(state, g2):
                    out.append(AddAttacker(sh.id))
    else:
        for sh in free:
            if ship_targets(state, (sh.id,)) or nuke_targets(state, (sh.id,)):
                out.append(AddAttacker(sh.id))
    out.append(EndCombat())
    return out


def apply(state, player: int, action) -> list:
    cs = state.combat
    if isinstance(action, EndCombat):
        return leave_combat(state)
    if isinstance(action, AddAttacker):
        sh = state.ship(action.ship)
        if sh is None:
            raise IllegalAction("tactical.combat.unknown_ship", f"no ship {action.ship!r}")
        if sh.owner != player:
            raise IllegalAction("tactical.combat.not_yours", f"ship {action.ship} is not yours")
        if action.ship in cs.used or action.ship in cs.group:
            raise IllegalAction("tactical.combat.already_attacked", f"ship {action.ship} already attacks this phase")
        if not may_attack(state, sh):
            raise IllegalAction("tactical.combat.cannot_attack",
                                f"ship {action.ship} cannot attack (landed, disabled, defensive, resupplied or "
                                f"not under your control)")
        new_group = (action.ship,) if cs.allocated else cs.group + (action.ship,)
        if not (ship_targets(state, new_group) or nuke_targets(state, new_group)):
            raise IllegalAction("tactical.combat.no_target", "this group would have no target it can see")
        c = cs.copy()
        if cs.allocated:
            c.used = c.used + c.group
            c.allocated = 0
            c.group_hex = None
        c.group = new_group
        state.combat = c
        return [AttackerAdded(action.ship, state.audience(sh))]
    if isinstance(action, Fire):
        return _fire(state, player, action)
    raise AssertionError(action)  # the phase table lets only this phase's kinds in (state.PHASES)


def _fire(state, player: int, action: Fire) -> list:
    cs = state.combat
    if not cs.group:
        if cs.used:
            raise IllegalAction("tactical.combat.group_spent",
                                "the group has fired all its strength: add attackers to form a new group")
        raise IllegalAction("tactical.combat.no_group", "add at least one attacker first")
    group = cs.group
    members = [state.ship(x) for x in group]
    atk = [combatant(m) for m in members]
    full = sum(a.strength for a in atk)
    target = state.ship(action.target)
    nuke = None
    if target is None:
        nuke = next((o for o in state.ordnance if o.id == action.target and not o.destroyed), None)
        if nuke is None:
            raise IllegalAction("tactical.combat.unknown_target", f"no target {action.target!r}")
        if nuke.owner == player or nuke.kind != "nuke":
            raise IllegalAction("tactical.combat.target", "only enemy nukes can be shot at")
        if nuke not in nuke_targets(state, group):
            raise IllegalAction("tactical.combat.line_of_sight", "the group cannot see that nuke (or it was shot at)")
        cb.allocate_strength(full, cs.allocated, action.strength, nuke=True)
    else:
        if target.owner == player:
            raise IllegalAction("tactical.combat.target", "you cannot attack your own ship")
        if target not in ship_targets(state, group):
            why = cb.gun_target_error(enemy=True, active=not (target.landed or target.destroyed),
                                      detected=target.detected, landed=target.landed, destroyed=target.destroyed)
            if why is not None:
                raise IllegalAction(*why)
            if target.id in cs.attacked:
                raise IllegalAction("tactical.combat.already_targeted", "that ship was already attacked this phase")
            raise IllegalAction("tactical.combat.line_of_sight", "a body blocks the line of sight of an attacker")
        declared = cb.allocate_strength(full, cs.allocated, action.strength, group_target_hex=cs.group_hex,
                                        target_hex=target.pos)
    # --- validated: resolve
    events: list = []
    c = cs.copy()
    if nuke is not None:
        die = state.rng.d6()
        shot = cb.resolve_anti_nuke(atk, nuke.pos, nuke.vel, die)
        events.extend(reveal(state, members))
        events.append(AttackDeclared(group, nuke.id, full, 0, shot.odds_label, shot.range_mod, shot.velocity_mod, 0))
        events.append(DamageRoll("anti_nuke", nuke.id, die, shot.modified - die, shot.odds_label, shot.result.label,
                                 0, None))
        if cb.nuke_destroyed(shot):
            nuke.destroyed = True
            state.ordnance = [o for o in state.ordnance if o is not nuke]
            events.append(OrdnanceRemoved(nuke.id, "shot"))
        c.attacked = c.attacked + (nuke.id,)
        c.used = c.used + group
        c.group = ()
        c.allocated = 0
        c.group_hex = None
        state.combat = c
        events.extend(check_victory(state))
        return events
    tc = combatant(target)
    # a defensive-only target never counters itself, but armed ships of its side in its hex on its course do
    counters = []
    for sh in state.ships:
        if sh.owner == target.owner and not sh.destroyed and cb.can_counterattack(
                combat=sh.type.combat, defensive_only=sh.type.defensive, disabled_turns=sh.disabled,
                policy=_policy(sh), active=not sh.landed, resupplied=sh.resupplied,
                own_control=sh.control == "own"):
            counters.append(combatant(sh))
    cgroup = cb.counter_group(tc, counters)
    die = state.rng.d6()
    cdie = state.rng.d6() if cgroup else None
    out = cb.resolve_attack(atk, tc, die, declared=declared, counterattackers=cgroup, counter_die=cdie)
    shot = out.attack
    events.extend(reveal(state, members + [state.ship(x) for x in out.counter_ids]))
    events.append(AttackDeclared(group, target.id, declared, shot.defence_strength, shot.odds_label, shot.range_mod,
                                 shot.velocity_mod, shot.heroism))
    if out.counter is not None:
        cs_ = out.counter
        events.append(Counterattack(out.counter_ids, out.counter_target_id, cs_.attack_strength, cs_.defence_strength,
                                    cs_.odds_label, cs_.range_mod, cs_.velocity_mod, cs_.heroism))
        prim = state.ship(out.counter_target_id)
        events.extend(_damage(state, prim, cs_.result, "counter", cs_.die, cs_.modified - cs_.die, cs_.odds_label))
    events.extend(_damage(state, target, shot.result, "gun", die, shot.modified - die, shot.odds_label))
    if out.heroism:
        for m in members:
            m.heroic = True
        events.append(HeroismEarned(group))
    c.attacked = c.attacked + (target.id,)
    allocated = cs.allocated + declared
    still = sum(combatant(m).strength for m in members)  # a counterattack may have disabled a member
    if allocated >= still or any(m.destroyed for m in members):
        c.used = c.used + group
        c.group = ()
        c.allocated = 0
        c.group_hex = None
    else:
        c.allocated = allocated
        c.group_hex = target.pos
    state.combat = c
    events.extend(check_victory(state))
    return events
