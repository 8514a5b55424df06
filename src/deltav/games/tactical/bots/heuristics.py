"""Heuristics for Delta-V tactical bots: where a ship wants to go (its goal hexes) and how good a course is
(distance to the goal after this move and after the next drift, landings, orbits, crash and stranding risk).

Everything here works on a state a bot may see: a determinized world (``Decision.sample_world()``) whose own
ships are exact. This module must not mutate states.
"""

from __future__ import annotations

from functools import lru_cache

from deltav.core.hexgrid import distance
from deltav.games.tactical.courses import course_for
from deltav.games.tactical.movement import CRASH, LANDING, compute_course, speed

from .routes import edge_row, nearest_distance, safe

Hex = tuple[int, int]
CRASH_PENALTY = -1_000_000.0
REFUEL_AT = 6
#: score cost of a certain planetary-defense hit (score_course); 337.5 makes the usual two-base zone (8/9 chance
#: of damage) cost 300, the flat penalty it replaced
PD_COST = 337.5


def goal_hexes(world, sh) -> tuple[tuple[Hex, ...], str]:
    """The hexes ship ``sh`` is heading for and why: its target body's bases; the Grand Tour's next checkpoint
    (then home); beyond the northern edge for an escaping ship (where an escape can win; else the row inside it);
    else the nearest visible enemy ship."""
    gmap = world.gmap
    pl = world.players[sh.owner]
    # leaving the map wins only where the rules let an escape win (ruling 1, ``escape_is_winnable``); without it a
    # ship off the map is lost, and the runners hold the row inside the edge ("edge", arriving slowly): the
    # pursuers must come to them, and the runners play for their other victory (Escape's pilgrims: the moral one)
    escaping = pl.escape_wins and world.rules.escape_edge == "north" and world.options["escape_is_winnable"]
    own_bases = tuple(h for h in pl.bases if h not in world.destroyed_bases and h in gmap.base)
    if (sh.fuel is not None and sh.fuel <= REFUEL_AT and own_bases and not (sh.landed and sh.pos in own_bases)
            and not escaping):
        return own_bases, "refuel"
    if world.rules.checkpoints:
        # the home body is never the first checkpoint (movement_phase.record_checkpoints skips it then)
        left = [b for b in world.rules.checkpoints if b not in pl.visited and (pl.visited or b != pl.home)]
        if not left:
            return tuple(h for h in gmap.bases_of.get(pl.home, ()) if h not in world.destroyed_bases), "home"
        best = None
        for b in left:
            hexes = gmap.gravity_hexes_of.get(b) or frozenset(gmap.bodies[b].surface)
            d = min(distance(sh.pos, h) for h in hexes)
            if best is None or d < best[0]:
                best = (d, b, hexes)
        ring = tuple(sorted(h for h in best[2] if h not in gmap.surface))
        return ring or tuple(sorted(best[2])), "checkpoint"
    if pl.target:
        return tuple(h for h in gmap.bases_of.get(pl.target, ()) if h not in world.destroyed_bases), "target"
    if escaping:
        return edge_row(gmap, gmap.bounds[2] - 1), "escape"
    if pl.escape_wins and world.rules.escape_edge == "north":  # an escape that cannot win: hold inside the edge
        return edge_row(gmap, gmap.bounds[2] + 1), "edge"
    enemies = [e for e in world.ships if e.owner != sh.owner and not e.destroyed and world.visible(e, sh.owner)]
    if enemies:
        return tuple(e.pos for e in enemies), "enemy"
    theirs = tuple(h for h in world.players[1 - sh.owner].bases if h not in world.destroyed_bases)
    if theirs:
        return theirs, "patrol"  # hunt where the unseen enemy is likely to be: near its bases
    return ((0, -5),), "patrol"


def survivable(world, pos: Hex, vel: Hex, pending: tuple[int, ...], fuel: int | None) -> bool:
    """Can a ship here avoid crashing or leaving the map on its next move (coasting or one burn)? The
    planner's one-move :func:`~deltav.games.tactical.bots.routes.safe` (memoised: plain values and the fixed map)."""
    return safe(world.gmap, pos, vel, tuple(pending), fuel, 1, frozenset(world.destroyed_bases),
                world.options["grazing_is_contact"])


def score_course(world, sh, preview, goals, why: str, lookahead: bool = True) -> float:
    """Higher is better. ``preview`` is a :class:`~deltav.games.tactical.preview.CoursePreview`. Without
    ``lookahead`` (the easy bot's short sight) a course that leaves no survivable next move is not penalised."""
    if preview.crashes:
        return CRASH_PENALTY
    if preview.escapes:
        return 1e6
    pl = world.players[sh.owner]
    score = 0.0
    dest = preview.destination
    if preview.lands:
        body = preview.body
        if why == "target" and body == pl.target:
            return 5e5
        if why == "home" and body == pl.home:
            return 5e5
        if why == "refuel" and dest in goals:
            return 4e5
        if sh.landed and preview.fuel_spent == 0:
            score -= 30.0  # staying landed wastes a turn
    if preview.orbit_after is not None and (
        (why == "target" and preview.orbit_after == pl.target) or (why == "home" and preview.orbit_after == pl.home)
        or (why == "refuel" and any(world.gmap.base.get(g) == preview.orbit_after for g in goals))
    ):
        score += 2000.0
    v = preview.velocity
    drift = (dest[0] + v[0], dest[1] + v[1])
    d_now = nearest_distance(dest, goals, 0)
    d_next = nearest_distance(drift, goals, 0)
    sp = speed(v)
    score -= 3.0 * d_next + 1.5 * d_now
    if why in ("target", "home", "checkpoint", "refuel", "edge"):
        # arrive slowly: speed above what the remaining distance allows is overshoot
        cap = max(1, (d_now + 1) // 2)
        if sp > cap:
            score -= 4.0 * (sp - cap)
    if why == "escape":
        score -= 2.0 * dest[1] + 1.0 * drift[1]
    if why == "enemy":
        score -= 0.5 * max(0, sp - 2)
    if lookahead and preview.outcome != LANDING and not survivable(world, dest, v, preview_pending(preview),
                                                                   preview.fuel_after):
        score -= 50_000.0
    if world.gmap.off_map(drift):
        score -= 500.0
    if preview.outcome != LANDING:
        # the enemy's planetary defense: one 2:1 shot per enemy base in range, at its real odds
        score -= PD_COST * (1.0 - defense_survival(world, sh.owner, dest))
    if preview.outcome != LANDING and why != "enemy":
        # ending in an enemy's hex means a ram (both roll): worst for colonists and unarmed hulls
        for e in world.ships:
            if e.owner != sh.owner and not e.destroyed and not e.landed and e.pos == dest \
                    and world.visible(e, sh.owner):
                score -= 450.0 if (sh.passengers or sh.type.defensive or sh.fugitive) else 150.0
                break
    if preview.fuel_after is not None:
        score -= 0.3 * preview.fuel_spent
        if preview.fuel_after <= 1 and why != "escape":
            score -= 40.0
    return score


def in_enemy_defense(world, owner: int, h: Hex) -> bool:
    """Would a ship of ``owner`` at ``h`` be shot by the enemy's planetary defense?"""
    rules = world.rules
    if not (rules.combat and rules.planetary_defense):
        return False
    gmap = world.gmap
    g = gmap.gravity.get(h)
    if g is None:
        return False
    for b in world.players[1 - owner].bases:
        if b not in world.destroyed_bases and gmap.base.get(b) == g[1] and distance(b, h) <= 1:
            return True
    return False


def preview_pending(preview) -> tuple[int, ...]:
    return tuple(d for _, d, _, _, ignored in preview.gravity_queued if not ignored)


def evaluate(state, player: int) -> float:
    """A static evaluation of a (possibly determinized) state for ``player`` in [-1, 1], for search bots'
    leaf values: material (combat factors weighted by health, objective ships counted extra) and objective
    progress (distance of the best ship to its goal, checkpoints visited), own minus the opponent's."""
    res = state.result()
    if res is not None:
        if not res.winners:
            return 0.0
        return 1.0 if player in res.winners else -1.0
    score = [0.0, 0.0]
    for p in (0, 1):
        pl = state.players[p]
        best = None
        for sh in state.ships:
            if sh.owner != p or sh.destroyed:
                continue
            health = max(0.0, 1.0 - sh.disabled / 6.0)
            score[p] += (sh.type.combat + 1) * health
            if sh.passengers:
                score[p] += 5.0
            if sh.fugitive:
                score[p] += 10.0
            if pl.target or state.rules.checkpoints or pl.escape_wins:
                goals, _why = goal_hexes(state, sh)
                if goals:
                    d = nearest_distance(sh.pos, goals, 0)
                    best = d if best is None else min(best, d)
        if best is not None:
            score[p] += 20.0 / (1.0 + best)
        score[p] += 6.0 * len(pl.visited)
    total = score[0] + score[1]
    if total <= 0:
        return 0.0
    return (score[player] - score[1 - player]) / total


def rollout_policy(state, player: int, legal: list, rng):
    """A cheap playout policy for search (``deltav.agents.rollout``): each ship takes a random order that does not
    crash or leave the map (up to four tries), nobody surrenders, groups fire at full strength at a random
    target, ordnance is launched rarely, logistics are skipped, and fleet building buys a few random hulls."""
    first = legal[0].TYPE
    if state.phase == "astrogation":
        if first != "order":
            return next(a for a in legal if a.TYPE == "end_astrogation")
        sid = legal[0].ship
        mine = [a for a in legal if a.TYPE == "order" and a.ship == sid]
        sh = state.ship(sid)
        gmap = state.gmap
        for _ in range(4):
            a = mine[rng.below(len(mine))]
            c = course_for(state, sh, a)
            if c.outcome != CRASH and not gmap.off_map(c.destination):
                return a
        return mine[0]
    if state.phase == "ordnance":
        if len(legal) > 1 and rng.below(4) == 0:
            return legal[rng.below(len(legal) - 1)]
        return legal[-1]
    if state.phase == "combat":
        fires = [a for a in legal if a.TYPE == "fire" and a.strength is None]
        if fires:
            return fires[rng.below(len(fires))]
        adds = [a for a in legal if a.TYPE == "add_attacker"]
        if adds:
            return adds[rng.below(len(adds))]
        return legal[-1]
    if state.phase == "logistics":
        return legal[-1]
    if state.phase == "fleet_building":
        ready = [a for a in legal if a.TYPE == "fleet_ready"]
        if ready and (rng.below(3) == 0 or len(legal) == 1):
            return ready[0]
        buys = [a for a in legal if a.TYPE == "buy"]
        if buys:
            return buys[rng.below(len(buys))]
    return legal[rng.below(len(legal))]


def _damage_value(counts, combat: int) -> float:
    """Expected loss of a ship of printed ``combat`` hit with the result counts of ``combat.result_counts``:
    D_n costs n/6 of the ship, E all of it (value = combat factor + 1)."""
    worth = combat + 1
    total = 0.0
    for r, n in enumerate(counts):
        if n:
            total += n * (1.0 if r >= 6 else r / 6.0)
    return worth * total / 6.0


def attack_value(world, attackers, target, split: bool = False, memo: dict | None = None):
    """Expected damage dealt minus expected counterattack damage taken when ``attackers`` (ships) fire at
    ``target`` at full strength (combat.py numbers; the dice are averaged); ``split``: return the pair
    ``(dealt, taken)`` instead.

    ``memo``: a dict kept by the caller while no ship of ``world`` changes (``ScriptedBot._combat_memo``: one
    combat phase until the next shot), keyed by the attackers (as a set), the target and the counterattackers found
    (their ids: what the value reads of the world; an unseen placeholder can only enter as a counterattacker)."""
    from deltav.games.tactical import combat as cb
    from deltav.games.tactical.combat_phase import combatant

    # a defensive-only target does not counter, its armed hex mates on its course do
    mates = [sh for sh in world.ships
             if sh.owner == target.owner and not sh.destroyed and not sh.landed and sh.control == "own"
             and not sh.type.defensive and sh.type.combat > 0 and sh.pos == target.pos and sh.vel == target.vel]
    if memo is not None:
        # the value does not depend on the attackers' order (sums, maxima, and the primary attacker by its
        # combat factor, disabled turns and id): a group formed one attacker at a time meets its own entry
        key = (tuple(sorted(a.id for a in attackers)), target.id, tuple(sh.id for sh in mates))
        got = memo.get(key)
        if got is None:
            got = memo[key] = attack_value(world, attackers, target, True)
        return got if split else got[0] - got[1]
    atk = [combatant(a) for a in attackers]
    full = sum(a.strength for a in atk)
    tc = combatant(target)
    col = cb.odds_column(full, tc.strength)
    pen = cb.group_range_modifier(atk, tc.position) + cb.group_velocity_modifier(atk, tc.velocity)
    pen -= 1 if any(a.heroic for a in atk) else 0
    gain = _damage_value(cb.result_counts(col, pen), target.type.combat)
    counters = []
    for sh in mates:
        c = combatant(sh)
        if c.strength > 0:
            counters.append(c)
    if not counters:
        return (gain, 0.0) if split else gain
    primary = cb.primary_attacker(atk)
    ccol = cb.odds_column(sum(c.strength for c in counters), full)
    cpen = cb.group_range_modifier(counters, primary.position) + cb.group_velocity_modifier(counters, primary.velocity)
    cpen -= 1 if any(c.heroic for c in counters) else 0
    psh = world.ship(primary.id)
    loss = _damage_value(cb.result_counts(ccol, cpen), psh.type.combat)
    return (gain, loss) if split else gain - loss


def attack_plan(world, player: int, nearest: bool = False, memo: dict | None = None, _search: bool = False):
    """The best attack open to ``player`` now in the combat phase, as ``(target id, attacker ids)``: every free
    ship that may attack and sees the target (plus the group already formed) fires at it; None if no attack
    deals damage at least 0.9 times what its counterattack is expected to cost (:func:`attack_value`).

    ``nearest`` (hard, issue 30): the group is the best of those within a range and velocity penalty, over every
    such bound its ships give (:func:`attack_groups`), not every ship that sees the target: the group fires with
    its worst ship's range penalty, and one ship 30 hexes away (line of sight crosses the map) turned a 1:1
    shot at range 1 into no attack at all (Interplanetary War: two frigates side by side at rest for 40 turns).

    ``memo``: as :func:`attack_value`'s (kept while no ship changes); each free ship's targets are kept in it
    too, by the ship and the targets already attacked (``ship_targets`` reads those and the ships), and the
    plan of an attack's first decision (no group yet), which the decisions that form its group (each adding the
    next attacker of the plan) get again without a search: planned again, they would find the same. With the
    group ``g`` (a prefix of the plan's attackers) in, the candidates are those of the first decision that
    contain ``g`` (:func:`attack_groups`' bounds start at ``g``'s penalties), each with the same value (the
    value does not depend on the attackers' order), listed in the same order, and the plan is among them."""
    from deltav.games.tactical.combat_phase import _free_attackers, ship_targets

    cs = world.combat
    group = tuple(cs.group) if cs is not None else ()
    attacked = tuple(cs.attacked) if cs is not None else ()
    if memo is not None and not _search:
        if group:
            kept = memo.get("plan")
            if kept is not None and kept[0] == attacked and kept[1] is not None \
                    and kept[1][1][:len(group)] == group and kept[2] == nearest:
                return kept[1]
        else:
            plan = attack_plan(world, player, nearest, memo, True)
            memo["plan"] = (attacked, plan, nearest)
            return plan
    free = _free_attackers(world)
    # the targets of each free ship alone, once (asked again for every target below)
    if memo is None:
        alone = {sh.id: ship_targets(world, (sh.id,)) for sh in free if sh.id not in group}
    else:
        alone = {}
        for sh in free:
            if sh.id not in group:
                key = ("targets", sh.id, attacked)
                ids = memo.get(key)
                if ids is None:
                    ids = memo[key] = tuple(t.id for t in ship_targets(world, (sh.id,)))
                alone[sh.id] = [world.ship(x) for x in ids]
    if group:
        targets = ship_targets(world, group)
    else:
        seen: dict[str, object] = {}
        for sh in free:
            for t in alone[sh.id]:
                seen.setdefault(t.id, t)
        targets = list(seen.values())
    best = None
    for t in targets:
        ids = group + tuple(sh.id for sh in free if sh.id not in group and t in alone[sh.id])
        for sub in (attack_groups(world, group, ids, t) if nearest else (ids,)):
            ships = [world.ship(x) for x in sub]
            gain, loss = attack_value(world, ships, t, split=True, memo=memo)
            v = gain - loss
            # near-even trades are taken: the attacker keeps the initiative (a disabled target drifts next turn)
            if gain > 0 and gain >= 0.9 * loss and (best is None or v > best[0] or (v == best[0] and t.id < best[1])):
                best = (v, t.id, sub)
    return None if best is None else (best[1], best[2])


def attack_groups(world, group: tuple, ids: tuple, target) -> list[tuple]:
    """The attacking groups worth comparing against ``target`` among ``ids`` (the ships that see it; ``group``,
    the group already formed, always in): for each bound on the range and velocity penalties that one of the
    ships has, every ship within both bounds. The group fires with its largest range and velocity penalties, and
    more strength under the same penalties never hurts (better odds, and a weaker counterattack against the
    larger group), so the best group is one of these. Each group keeps the order of ``ids``; no duplicates."""
    from deltav.games.tactical import combat as cb

    tpos, tvel = target.pos, target.vel
    pen = {}
    for x in ids:
        sh = world.ship(x)
        pen[x] = (cb.range_modifier(sh.path, sh.pos, tpos), cb.velocity_modifier(sh.vel, tvel))
    r0 = max((pen[x][0] for x in group), default=0)
    v0 = max((pen[x][1] for x in group), default=0)
    out = []
    seen = set()
    for rb in sorted({max(r0, pen[x][0]) for x in ids}):
        for vb in sorted({max(v0, pen[x][1]) for x in ids}):
            sub = tuple(x for x in ids if x in group or (pen[x][0] <= rb and pen[x][1] <= vb))
            if sub and sub not in seen:
                seen.add(sub)
                out.append(sub)
    return out


@lru_cache(maxsize=200_000)
def landing_next(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], fuel: int | None, goals: frozenset,
                 destroyed_bases: frozenset = frozenset(), grazing: bool = False) -> bool:
    """Can a flying ship in this state land on one of ``goals`` with its next order (coasting, or one burn with
    or without the ``land`` flag, any ignorable weak gravity ignored)? The normal and hard bots' look one move
    past the course they choose: a carrier that ends its move in such a state lands next turn."""
    burns = (None, 0, 1, 2, 3, 4, 5) if (fuel is None or fuel > 0) else (None,)
    for b in burns:
        for land in ((False, True) if b is not None else (False,)):
            c = compute_course(gmap, pos, vel, fuel, pending, False, False, b, None, (), land, destroyed_bases,
                               grazing)
            if c.outcome == LANDING and c.destination in goals:
                return True
            if c.ignorable:
                c = compute_course(gmap, pos, vel, fuel, pending, False, False, b, None, c.ignorable, land,
                                   destroyed_bases, grazing)
                if c.outcome == LANDING and c.destination in goals:
                    return True
    return False


def defense_shots(world, owner: int, h: Hex) -> int:
    """How many shots the enemy's planetary defense fires at a ship of ``owner`` standing at ``h`` (one per
    intact enemy base of the body whose gravity hex ``h`` is, at distance at most 1)."""
    rules = world.rules
    if not (rules.combat and rules.planetary_defense):
        return 0
    gmap = world.gmap
    g = gmap.gravity.get(h)
    if g is None:
        return 0
    return sum(1 for b in world.players[1 - owner].bases
               if b not in world.destroyed_bases and gmap.base.get(b) == g[1] and distance(b, h) <= 1)


def _defense_miss() -> float:
    """The chance that one planetary-defense shot (2:1, no modifiers) does no damage."""
    from deltav.games.tactical import combat as cb

    counts = cb.result_counts(cb.odds_column(2, 1), 0)
    return counts[0] / sum(counts)


def defense_survival(world, owner: int, h: Hex) -> float:
    """The chance that a ship of ``owner`` at ``h`` comes through the enemy's planetary defense undamaged."""
    n = defense_shots(world, owner, h)
    return _defense_miss() ** n if n else 1.0


def gun_threat(tac, sh, dest: Hex, vel: Hex, landed: bool = False) -> float:
    """The chance that the best gun shot any visible enemy can take at ship ``sh`` ending its move at ``dest``
    with ``vel`` does damage, over every course each enemy can fly next (``tac`` is a
    :class:`~deltav.games.tactical.bots.tactics.Tactics` of ``sh``'s owner; exact odds, range, velocity, line of
    sight). Shots of several enemies are combined as independent. ``landed``: the landed enemies that can take
    off and fire count too (``Tactics.landed_shooters``)."""
    from .tactics import shot, strength

    my_str = strength(sh)
    worth = sh.type.combat + 1.0
    miss = 1.0
    for e, courses in (tac.shooters + tac.landed_shooters if landed else tac.shooters):
        es = strength(e)
        best = 0.0
        for epath, edest, evel in courses:
            _v, hit = shot(tac.world, epath, edest, evel, es, dest, vel, my_str, sh.disabled, worth, e.heroic, None)
            if edest == dest:
                hit = max(hit, 4.0 / 6.0)
            if hit > best:
                best = hit
        miss *= 1.0 - best
    return 1.0 - miss
