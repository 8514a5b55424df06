"""The look-ahead of the hard Knight Hawks bot: the exact expected exchange of fire a plotted move leads to.

A move in Knight Hawks buys three things, all computable from the public position with the game's own tables:

- **offense** this turn: after every ship has moved, the moving side fires at enemies that do not move in
  between, so the end hex and facing fix exactly which weapons bear (range, forward field of fire, head-on
  row, planets in the way) and with which chance (the target's operating defenses, range diffusion, CCS,
  the ICMs the target's hex can fire, torpedo evasion);
- **exposure** this turn: the non-moving side fires defensively at the best hex of the mover's path with every
  weapon that is not moving-player-only, forward-firing ones only where the path crosses their field;
- **threat** next turn: the enemy then moves and fires offensively; a ship ending within reach of many enemy
  weapons (their range plus how far they can close) will take their fire.

Values are in "hull-point equivalents weighted by the ship's worth": one hit of a weapon is worth its
``heuristics.hit_value`` (mean hull damage and system hits from the Damage Table, computed from the tables),
times the target's weight (its victory points per hull point, more as it nears destruction).

Owns: pure scoring functions over a (sampled) state and hypothetical positions. Must not change the state or
choose actions (the bots in bots/ do).
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.games.knighthawks.bots.heuristics import hit_value
from deltav.games.knighthawks.combat import (
    chance_to_hit,
    defense_column,
    half_damage,
    in_forward_field,
    operating_defenses,
    weapon_range,
)
from deltav.games.knighthawks.ships import ACTIVE, OK, Ship
from deltav.games.knighthawks.tables import tables

FF_REACH = 64


def worth(sh: Ship, extra_damage: float = 0.0) -> float:
    """The value of one hull point of damage to ``sh``: its points spread over its hull, rising as it nears
    destruction (a kill ends its fire and scores its points)."""
    left = max(1.0, sh.hp - sh.dmg - extra_damage)
    return (0.5 + sh.points / 100) * (1 + 12 / left)


def clamp_chance(c: int | float) -> float:
    """The real chance of a hit within range (automatic results: 5 always hits, 96+ always misses)."""
    return max(5, min(95, c)) / 100


def icm_pool(state, target: Ship) -> int:
    """Interceptors the target's hex can fire (any ship of its side there)."""
    return sum(s.icms_available() for s in state.ships
               if s.owner == target.owner and s.status == ACTIVE and s.pos == target.pos)


def hit_chance(state, code: str, target: Ship, dist: int, head: bool, ccs: bool, firer_masked: bool = False,
               icms_expected: int | None = None) -> tuple[float, bool]:
    """(probability of a hit, half damage) for one shot, with the defense column the rules pick, the ICMs the
    target's hex is expected to fire (at most 3) and evasion of torpedoes by small craft."""
    rules = state.rules
    col = defense_column(code, operating_defenses(target, rules), rules)
    half = half_damage(code, col)
    row = tables().combat[code]
    if firer_masked and code in ("LC", "LB") and row["MS"] < row[col]:
        col, half = "MS", True
    w = tables().weapons[code]
    icms = 0
    if w.icm:
        icms = min(3, icm_pool(state, target)) if icms_expected is None else icms_expected
    evade = target.mr if code == "T" and target.evasive and target.mr > 0 and target.docked is None else 0
    return clamp_chance(chance_to_hit(code, col, dist, head, ccs, icms, evade)), half


def shot_ev(state, code: str, target: Ship, dist: int, head: bool, ccs: bool, firer_masked: bool = False,
            extra_damage: float = 0.0) -> float:
    """Expected weighted damage of one shot (probability x hit value x the target's worth)."""
    p, half = hit_chance(state, code, target, dist, head, ccs, firer_masked)
    hv = hit_value(code) * (0.6 if half else 1.0)
    return p * hv * worth(target, extra_damage) * objective_factor(state, target)


def objective_factor(state, target: Ship) -> float:
    """The ship a scenario turns on (the escorted ship that must exit, the station that must be destroyed)
    decides the game: damage to it counts double."""
    v = state.victory
    return 2.0 if v.get("kind") in ("exit", "destroy") and v.get("ship") == target.id else 1.0


def _targets(state, player: int) -> list[Ship]:
    return [s for s in state.ships if s.owner != player and s.status == ACTIVE
            and not (s.docked is not None and s.kind in ("fighter", "scout"))]


def offense(state, me: Ship, pos, facing: int, player: int) -> float:
    """Expected weighted damage ``me`` deals in its own fire phase from ``pos``/``facing`` (each weapon at its
    best target; the enemies do not move before it fires)."""
    enemies = _targets(state, player)
    if not enemies:
        return 0.0
    planets = state.map.planets
    total = 0.0
    masked = me.ms_turns > 0
    for code, n, _mx, stt in me.weapons:
        if stt != OK or n == 0:
            continue
        w = tables().weapons[code]
        if not w.fired or (me.docked is not None and (w.ff or code == "T")):
            continue
        reach = weapon_range(code, state.rules)
        best = 0.0
        for e in enemies:
            d = hexgrid.distance(pos, e.pos)
            if d > reach:
                continue
            head = False
            if w.ff:
                f = in_forward_field(pos, facing, e.pos, FF_REACH)
                if f is None:
                    continue
                head = f
            if planets and state.map.blocked(pos, e.pos):
                continue
            v = shot_ev(state, code, e, d, head, me.ccs, masked)
            if w.ltd and n > 0:
                v *= 0.85  # a round spent is gone for later turns
            if v > best:
                best = v
        total += best
    return total


def exposure(state, me: Ship, path, player: int, share: dict | None = None) -> float:
    """Expected weighted damage the enemy's defensive fire deals to ``me`` moving along ``path`` (its start
    hex first): each enemy weapon that may fire defensively, at the best hex of the path. ``share`` (enemy
    ship id -> divisor) spreads an enemy's fire over the targets it has."""
    planets = state.map.planets
    total = 0.0
    for e in state.ships:
        if e.owner == player or e.status != ACTIVE:
            continue
        ep = e.pos
        part = 0.0
        for code, n, _mx, stt in e.weapons:
            if stt != OK or n == 0:
                continue
            w = tables().weapons[code]
            if not w.fired or w.mpo or (e.docked is not None and w.ff):
                continue
            reach = weapon_range(code, state.rules)
            best = None
            for h in path:
                d = hexgrid.distance(ep, h)
                if d > reach:
                    continue
                head = False
                if w.ff and d > 0:
                    f = in_forward_field(ep, e.facing, h, FF_REACH)
                    if f is None:
                        continue
                    head = f
                elif w.ff:
                    head = True
                if planets and state.map.blocked(ep, h):
                    continue
                key = (10 if head else 0) - (5 * d if w.rd else 0)
                if best is None or key > best[0]:
                    best = (key, d, head)
            if best is None:
                continue
            part += shot_ev(state, code, me, best[1], best[2], e.ccs, e.ms_turns > 0)
        if part and share:
            part /= share.get(e.id, 1)
        total += part
    return total


def threat(state, me: Ship, pos, player: int) -> float:
    """Expected weighted damage the enemy could deal to ``me`` at ``pos`` in its next offensive fire: each
    enemy weapon counts when ``pos`` is within its range plus the hexes the enemy can close (its speed plus
    ADF), at the range it can close to; forward-firing weapons count half unless the enemy can also turn
    toward ``pos`` (it needs MR)."""
    total = 0.0
    for e in state.ships:
        if e.owner == player or e.status != ACTIVE:
            continue
        d = hexgrid.distance(e.pos, pos)
        move = e.speed + e.adf if e.kind != "station" else 0
        for code, n, _mx, stt in e.weapons:
            if stt != OK or n == 0:
                continue
            w = tables().weapons[code]
            if not w.fired:
                continue
            reach = weapon_range(code, state.rules)
            if d > reach + move:
                continue
            rng = max(1, d - move) if move else d
            if rng > reach:
                continue
            head = False
            factor = 1.0
            if w.ff:
                if e.kind == "station":
                    continue
                f = in_forward_field(e.pos, e.facing, pos, FF_REACH)
                if f is None:
                    factor = 0.6 if e.mr > 0 else 0.2
                head = bool(f)
            total += factor * shot_ev(state, code, me, rng, head, e.ccs)
    return total


def potential(state, me: Ship, pos, player: int) -> float:
    """How much of ``me``'s fire could bear next turn from ``pos`` (enemies within weapon range plus the
    hexes ``me`` can close): keeps a ship from drifting out of the fight."""
    enemies = _targets(state, player)
    if not enemies:
        return 0.0
    move = me.speed + me.adf
    total = 0.0
    for code, n, _mx, stt in me.weapons:
        if stt != OK or n == 0:
            continue
        w = tables().weapons[code]
        if not w.fired:
            continue
        reach = weapon_range(code, state.rules)
        best = 0.0
        for e in enemies:
            d = hexgrid.distance(pos, e.pos)
            if d > reach + move:
                continue
            v = shot_ev(state, code, e, max(1, d - move), w.ff, me.ccs)
            best = max(best, v)
        total += best
    return total


# --- rollouts: the real engine plays the consequences of a plan ----------------------------------------------


def policy_action(bot, state, player: int, legal: list):
    """The scripted captain's choice in ``state`` (a sampled world the searcher owns), without building a
    view: ``bot`` is a ScriptedCaptain instance playing ``player`` in the rollout."""
    from deltav.games.knighthawks import messages as m

    if len(legal) == 1:
        return legal[0]
    kinds = {type(a) for a in legal}
    if m.Step in kinds:
        return bot._step(legal)
    if m.Intercept in kinds:
        return bot._intercept(state, legal)
    if m.Assign in kinds or m.Fire in kinds:
        return bot._fire(state, player, legal)
    if m.Repair in kinds or m.EndRepair in kinds:
        return bot._repair(state, player, legal)
    return bot._move(state, player, legal, None)


def play_until_next_move(state, player: int, bots: tuple, max_steps: int = 600) -> None:
    """Plays ``state`` forward with the scripted captains until ``player``'s next movement phase starts (so
    the enemy's whole reply is seen), or the game ends."""
    start_turn, start_half = state.turn, state.half
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        if (state.stage == "move" and state.mover == player and state.plotting is None and not state.plots
                and not state.screened and (state.turn, state.half) != (start_turn, start_half)):
            return
        q = state.current_players()[0]
        legal = state.legal_actions(q)
        a = policy_action(bots[q], state, q, legal)
        state.apply_action(q, a)
        steps += 1


def outcome_value(state, player: int) -> float:
    """The value of a rolled-out state for ``player``: material in points (own worth minus the enemy's), a
    decided game counted as the whole of both fleets."""
    from deltav.games.knighthawks.bots.heuristics import material

    if state.is_terminal():
        res = state.result()
        total = sum(s.points for s in state.ships)
        if res is not None and res.winners == (player,):
            return total
        if res is not None and res.winners and player not in res.winners:
            return -total
    return material(state, player)
