"""The movement phase of a side turn (rules 4.1, 1): screens, dropped traps and seeker activation, orbits,
the ship-by-ship plotting of moves (``course`` then one ``step`` per hex) and their execution together at
``end_movement`` (seekers, orbits, plotted moves with break-up checks, docking, then mines and seekers
triggered by the movers).

Owns: the movement-phase decisions on a ``KHState`` record, as module functions (``legal(state, p)``,
``apply(state, p, a)``, ``begin_side_turn``, ``end_movement``). Must not resolve attacks (fire_phase.py does) or
hold movement arithmetic (movement.py does).
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.core.errors import IllegalAction
from deltav.core.jsonin import shown
from deltav.games.knighthawks import damage as dmg
from deltav.games.knighthawks import fire_phase, victory
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.movement import (
    advance,
    completable,
    completable_from,
    orbit_step,
    rotation_cost,
    speed_options,
    start_plot,
    turn_choices,
)
from deltav.games.knighthawks.ships import ACTIVE, GONE, OK, Ship, ensure_shadow, public_count

CARRIER_CAPACITY = 10  # fighters an assault carrier holds
MS_MOVING = 99  # a moving ship's masking screen lasts while it keeps speed and heading
SCREENS = ("PS", "ES", "SS")

_COURSE_OPTIONS: dict = {}  # (map key, the ship's motion facts) -> [(speed, facing)] it may plot
_STEP_OPTIONS: dict = {}  # (map key, plot state but its path, speed, MR, navdir, evading) -> legal turns
_STEPS = {t: m.Step(t) for t in (-1, 0, 1)}
_ACTIONS: dict = {}  # (class, fields) -> action: actions are immutable values, shared between states


def _action(cls, *fields):
    key = (cls, fields)
    a = _ACTIONS.get(key)
    if a is None:
        if len(_ACTIONS) > 100_000:
            _ACTIONS.clear()
        a = _ACTIONS[key] = cls(*fields)
    return a


def begin_side_turn(state, ev: list) -> None:
    mv = state.mover
    state.stage = "move"
    state._cache = {}
    state.plots = {}
    state.plotting = None
    state.screened = []
    state.laid = []
    state.activated = []
    state.orbit_new = {}
    ev.append(m.TurnStarted(state.turn, mv))
    for sh in state.ships:
        if sh.status != ACTIVE:
            continue
        if sh.owner == mv:
            sh.path = (sh.pos,)
            if sh.nav and state.rules.nav_roll == "each_move":
                roll = state.rng.d10()
                sh.navdir = 1 if roll <= 5 else -1
                ev.append(m.NavRoll(sh.id, roll, "left" if roll <= 5 else "right"))
            if 0 < sh.ms_turns < MS_MOVING:
                sh.ms_turns -= 1
                if sh.ms_turns == 0:
                    ev.append(m.MaskingEnded(sh.id))
            if sh.docked is not None:
                host = state._get(sh.docked)
                if sh.dock_turns >= 1 and host is not None and (
                    host.kind == "station" or (host.kind == "carrier" and sh.kind == "fighter")
                ) and sh.kind in ("fighter", "scout") and host.attacked < state.turn - 1:
                    changed = False
                    for i, (c, n, mx, _st) in enumerate(sh.weapons):
                        if c == "AR" and n < mx:
                            public_count(sh, "w", i, mx - n)
                            changed = True
                    if changed:
                        ev.append(m.Rearmed(sh.id))


def _own_movers(state, player: int) -> list[Ship]:
    return [s for s in state.ships if s.owner == player and s.status == ACTIVE]


def _course_options(state, sh: Ship) -> list[tuple[int, int]]:
    """(speed, facing) pairs this ship may plot now (fixed for the phase but for a new orbit: cached)."""
    key = ("course", sh.id, sh.id in state.orbit_new)
    got = state._cache.get(key)
    if got is None:
        got = state._cache[key] = _course_options_uncached(state, sh)
    return got


def _course_options_uncached(state, sh: Ship) -> list[tuple[int, int]]:
    if sh.kind == "station":
        return []
    orbiting = sh.orbit is not None or sh.id in state.orbit_new
    # a pure function of this key: shared by every state on the same map (read-only)
    key = (state.map.key(), sh.pos, sh.facing, sh.speed, sh.adf, sh.mr, sh.evading, sh.navdir if sh.nav else 0,
           orbiting, sh.docked is not None)
    got = _COURSE_OPTIONS.get(key)
    if got is None:
        if len(_COURSE_OPTIONS) > 100_000:
            _COURSE_OPTIONS.clear()
        got = _COURSE_OPTIONS[key] = _course_options_compute(state, sh, orbiting)
    return got


def _course_options_compute(state, sh: Ship, orbiting: bool) -> list[tuple[int, int]]:
    if sh.drifting():
        speeds = [sh.speed]
    elif orbiting or sh.docked is not None:
        speeds = list(range(0, sh.adf + 1))
    else:
        speeds = list(speed_options(sh.speed, sh.adf))
    if sh.evading and sh.mr > 0:
        need = min(sh.mr, max(speeds))
        speeds = [v for v in speeds if v >= need]
    out = []
    rot = sh.mr > 0 and (orbiting or sh.speed == 0)
    navdir = sh.navdir if sh.nav else 0
    for v in speeds:
        facings = range(6) if rot and (v == 0 or orbiting) else (sh.facing,)
        for f in facings:
            if v == 0 or completable_from(state.map, sh.pos, f, v, sh.mr, navdir, sh.evading and sh.mr > 0):
                out.append((v, f))
    return out


def _default_ok(state, sh: Ship) -> bool:
    """An unplotted ship holds its course (same speed, straight, forced turns if any): is that legal?"""
    key = ("default", sh.id)
    got = state._cache.get(key)
    if got is None:
        got = state._cache[key] = _default_ok_uncached(state, sh)
    return got


def _default_ok_uncached(state, sh: Ship) -> bool:
    if sh.kind == "station" or sh.docked is not None or sh.orbit is not None:
        return True
    if not _course_options(state, sh):
        return True  # no legal plot at all: it holds its course (into a planet if it must)
    if sh.evading and sh.mr > 0 and not sh.drifting():
        return False
    if sh.speed == 0:
        return True
    navdir = sh.navdir if sh.nav else 0
    return completable_from(state.map, sh.pos, sh.facing, sh.speed, sh.mr, navdir, False)


def step_options(state) -> tuple[int, ...]:
    sid, speed, facing, turns = state.plotting
    key = ("steps", sid, speed, facing, tuple(turns))
    got = state._cache.get(key)
    if got is not None:
        return got
    sh = state.ship(sid)
    st = replay_plot(state, sh, speed, facing, turns)
    navdir = sh.navdir if sh.nav else 0
    ev = sh.evading and sh.mr > 0
    mp = state.map
    if not st.end and st.done < speed and mp.planet_distance(st.pos) > speed - st.done + 1:
        # no planet or gravity ring within reach of the rest of the move: every turn allowed is legal (the next
        # hex is no planet, and the plot stays completable: movement.completable's distance shortcut)
        got = state._cache[key] = turn_choices(st, sh.mr, navdir, ev)
        return got
    # a pure function of the plot so far (but its path) and the ship's MR: shared by every state
    gkey = (mp.key(), st.pos, st.facing, st.done, st.turns, st.pp, st.pc, st.pd, st.end, speed, sh.mr, navdir, ev)
    got = _STEP_OPTIONS.get(gkey)
    if got is None:
        out = []
        memo: dict = {}
        for t in turn_choices(st, sh.mr, navdir, ev):
            nxt = advance(mp, st, t, speed)
            if nxt is not None and completable(mp, nxt, speed, sh.mr, navdir, ev, False, memo):
                out.append(t)
        if not out:  # forced into a planet with no way out
            out.append(0)
        got = tuple(out)
        if len(_STEP_OPTIONS) > 200_000:
            _STEP_OPTIONS.clear()
        _STEP_OPTIONS[gkey] = got
    state._cache[key] = got
    return got


def move_ok(state, player: int, a) -> bool:
    """Whether a movement-phase action (not a step) is legal now: the same conditions as _move_actions."""
    t = type(a)
    if t is m.EndMovement:
        return all(s.id in state.plots or _default_ok(state, s) for s in _own_movers(state, player))
    if t is m.Activate:
        return a.seeker not in state.activated and any(
            mm[0] == a.seeker and mm[1] == player and mm[2] == "S" and mm[4] < 0 for mm in state.mines) \
            and (a.layer is None or a.layer == activation(state, a.seeker).layer) \
            and (a.turn is None or a.turn == activation(state, a.seeker).turn)
    sh = state._get(a.ship)
    if sh is None or sh.owner != player or sh.status != ACTIVE:
        return False
    if t is m.Lay:
        return a in _lay_options(state, sh)
    if sh.id in state.plots:
        return False
    if t is m.Screen:
        return sh.id not in state.screened and a.screen in _screen_options(state, sh)
    if t is m.Orbit:
        return _can_orbit(state, sh)
    return (a.speed, a.facing) in _course_options(state, sh)


def has_choice(state, player: int) -> bool:
    """Whether the moving player has anything to decide but ending movement."""
    if state.plotting is not None:
        return True
    for sh in _own_movers(state, player):
        sid = sh.id
        if sid in state.plots:
            if _lay_options(state, sh):
                return True
            continue
        screens, rest = _ship_move_actions(state, sh)  # the lookups legal() reads (same conditions)
        if rest or (screens and sid not in state.screened):
            return True
    return any(owner == player and kind == "S" and moves < 0 and mid not in state.activated
               for mid, owner, kind, _h, moves, _f, _layer in state.mines)


def legal(state, player: int) -> list:
    if state.plotting is not None:
        return [_STEPS.get(t) or m.Step(t) for t in step_options(state)]
    out: list = []
    all_default = True
    for sh in _own_movers(state, player):
        sid = sh.id
        if sid in state.plots:
            out.extend(_lay_options(state, sh))
            continue
        screens, rest = _ship_move_actions(state, sh)
        if screens and sid not in state.screened:
            out.extend(screens)
        out.extend(rest)
        if not _default_ok(state, sh):
            all_default = False
    for mid, owner, kind, _h, moves, _f, _layer in state.mines:
        if owner == player and kind == "S" and moves < 0 and mid not in state.activated:
            out.append(activation(state, mid))
    if all_default:
        out.append(m.EndMovement())
    return out


def activation(state, mid: str) -> m.Activate:
    """The activation of waiting seeker ``mid`` as listed: with the ship that dropped it and the turn it did
    (None for one placed before the battle), so no two seekers read alike."""
    layer = next(mm[6] for mm in state.mines if mm[0] == mid) or None
    return m.Activate(mid, layer, state.dropped.get(mid) if layer else None)


def same_activation(state, player: int, a) -> bool:
    """Whether ``a`` is a listed activation in older words: the seeker named, its ship or turn left out (None)."""
    if type(a) is not m.Activate or a.layer is not None and a.turn is not None:
        return False
    legal = state.legal_actions(player)
    return a not in legal and any(type(x) is m.Activate and x.seeker == a.seeker and a.layer in (None, x.layer)
                                  and a.turn in (None, x.turn) for x in legal)


def _ship_move_actions(state, sh: Ship) -> tuple:
    """A ship's screen, lay, and orbit+course actions as at the start of its phase (cached; the callers
    filter what earlier actions of the phase have used up). A ship that has set its screens this phase gets
    no screen actions, under a key of its own: its screen options have changed, and the lookup dict is shared
    with clones where it has not (they must still see the options of the start of the phase)."""
    screened = sh.id in state.screened
    key = ("acts_screened" if screened else "acts", sh.id)
    got = state._cache.get(key)
    if got is None:
        sid = sh.id
        screens = () if screened else tuple(_action(m.Screen, sid, c) for c in _screen_options(state, sh))
        rest = []
        if _can_orbit(state, sh):
            rest.append(_action(m.Orbit, sid, True))
            rest.append(_action(m.Orbit, sid, False))
        rest.extend(_action(m.Course, sid, v, f) for v, f in _course_options(state, sh))
        got = state._cache[key] = (screens, tuple(rest))
    return got


def plotted_path(state, sh: Ship) -> tuple:
    """The hexes a plotted ship will pass through (its start hex first)."""
    speed, facing, turns = state.plots[sh.id]
    if speed == 0:
        return (sh.pos,)
    return replay_plot(state, sh, speed, facing, list(turns), True).path


def _lay_options(state, sh: Ship) -> list:
    """A plotted ship with a mine or seeker system may drop one of each kind in any hex of its path (one
    mine pattern per hex)."""
    if sh.id not in state.plots or sh.docked is not None or sh.id in state.orbit_new or sh.orbit is not None:
        return []
    can_m = can_s = False  # _can_lay of both kinds in one pass (most ships carry neither)
    for c, n, _mx, stt in sh.weapons:
        if (c == "M" or c == "S") and stt == OK and n > 0:
            if c == "M":
                can_m = True
            else:
                can_s = True
    if not (can_m or can_s):
        return []
    out = []
    path = None
    for kind, can in (("M", can_m), ("S", can_s)):
        if not can or (sh.id + kind) in state.laid:
            continue
        if path is None:
            path = plotted_path(state, sh)
        for at, h in enumerate(path):
            if kind == "M" and any(mm[2] == "M" and mm[3] == h for mm in state.mines):
                continue
            out.append(_action(m.Lay, sh.id, kind, at))
    return out


def _move_refusal(state, player: int, a) -> tuple[str, str]:
    """(rule id, reason) of a refused movement-phase action (not a step): the specific rule it breaks."""
    sh = state._get(getattr(a, "ship", None))
    t = type(a)
    if t is m.EndMovement:
        return ("knighthawks.move.unplotted", "a ship cannot hold its course (evasion, or a planet ahead): plot it first")
    if t is m.Activate:
        if any(mm[0] == a.seeker and mm[1] == player and mm[2] == "S" and mm[4] < 0 for mm in state.mines) \
                and a.seeker not in state.activated:
            got = activation(state, a.seeker)
            return ("knighthawks.move.seeker.which", f"seeker {a.seeker!r} was dropped by {got.layer!r} on turn "
                    f"{shown(got.turn)}, not by {shown(a.layer)} on turn {shown(a.turn)}")
        return ("knighthawks.move.seeker", f"{a.seeker!r} is not one of your inert seekers")
    if sh is None or sh.owner != player or sh.status != ACTIVE:
        return ("knighthawks.move.ship", f"{getattr(a, 'ship', None)!r} is not one of your ships in play")
    if t is m.Lay:
        if sh.id not in state.plots:
            return ("knighthawks.move.lay.unplotted", "plot the ship's move first, then name a hex of its path")
        if sh.docked is not None or sh.orbit is not None or sh.id in state.orbit_new:
            return ("knighthawks.move.lay.docked", "no trap can be dropped while docked or in orbit")
        if a.kind not in ("M", "S") or not _can_lay(sh, a.kind):
            return ("knighthawks.move.lay.system", f"{sh.id} has no working {a.kind!r} system with ammunition")
        if (sh.id + a.kind) in state.laid:
            return ("knighthawks.move.lay.once", "one mine pattern and one seeker per ship per phase")
        if not 0 <= a.at < len(plotted_path(state, sh)):
            return ("knighthawks.move.lay.path", f"hex {shown(a.at)} is not on the ship's plotted path")
        return ("knighthawks.move.lay.mined", "only one mine pattern can be in a hex")
    if sh.id in state.plots:
        return ("knighthawks.move.plotted", f"{sh.id} has already been plotted this phase")
    if t is m.Screen:
        if sh.id in state.screened:
            return ("knighthawks.move.screen.once", f"{sh.id}'s screens were already set this phase")
        if sh.short and a.screen != "none":
            return ("knighthawks.move.screen.short", "a power short circuit: no screen works and no masking screen can "
                    "be released")
        return ("knighthawks.move.screen", f"screen {a.screen!r} not available (not carried, destroyed, no charges, a "
                "masking screen already out, or no change)")
    if t is m.Orbit:
        return ("knighthawks.move.orbit", "orbit needs a start next to a planet and a speed the ship can cut to 0")
    if sh.kind == "station":
        return ("knighthawks.move.station", "a station does not maneuver (it keeps its orbit)")
    if sh.drifting() and (a.speed != sh.speed or a.facing != sh.facing):
        return ("knighthawks.move.drifting", "a ship with no ADF and no MR drifts: same speed and heading")
    orbiting = sh.orbit is not None or sh.docked is not None
    if not orbiting and a.speed not in speed_options(sh.speed, sh.adf) or orbiting and not 0 <= a.speed <= sh.adf:
        return ("knighthawks.move.course.adf", f"speed {shown(a.speed)} is not within ADF {sh.adf} of {sh.speed}")
    if a.facing != sh.facing:
        if sh.mr <= 0:
            return ("knighthawks.move.course.mr", "a ship with MR 0 cannot change its facing")
        return ("knighthawks.move.course.rotate", "a ship may only rotate in place when it stays stopped (or in orbit)")
    if sh.evading and sh.mr > 0:
        return ("knighthawks.move.course.evasion", f"after evading, the move must be at least MR {sh.mr} hexes long")
    return ("knighthawks.move.course", "no legal move at that speed (a planet in the way, or navigation constraints)")


def _screen_options(state, sh: Ship) -> list[str]:
    out = []
    if not sh.short:
        for c in SCREENS:
            if sh.screen != c and sh.has_working_defense(c):
                out.append(c)
        if sh.ms_turns == 0 and sh.has_working_defense("MS"):
            out.append("MS")
    if sh.screen is not None or sh.ms_turns > 0:
        out.append("none")
    return out


def _do_screen(state, a, ev) -> None:
    sh = state.ship(a.ship)
    state.screened.append(sh.id)
    c = a.screen
    if c == "none":
        sh.screen = None
        sh.ms_turns = 0
    elif c == "MS":
        public_count(sh, "d", sh.defense_index("MS"), -1)
        still = sh.orbit is not None or sh.kind == "station"
        sh.ms_turns = state.rules.station_ms_turns if still else MS_MOVING
        if state.rules.one_screen:
            sh.screen = None
    else:
        sh.screen = c
        if state.rules.one_screen and sh.ms_turns:
            sh.ms_turns = 0
    ev.append(m.ScreenSet(sh.id, c))


def _can_lay(sh: Ship, kind: str) -> bool:
    return any(c == kind and stt == OK and n > 0 for c, n, _mx, stt in sh.weapons)


def _do_lay(state, a, ev) -> None:
    sh = state.ship(a.ship)
    ensure_shadow(sh)  # laying is secret: the other side's picture of the ammunition stays
    for i, (c, n, mx, stt) in enumerate(sh.weapons):
        if c == a.kind and stt == OK and n > 0:
            sh.weapons[i] = (c, n - 1, mx, stt)
            break
    h = plotted_path(state, sh)[a.at]
    mid = _new_trap_id(state)
    state.mines.append((mid, sh.owner, a.kind, h, -1, sh.facing, sh.id))
    # the turn each waiting trap was dropped, for the words that tell seekers apart (traps gone are forgotten)
    live = {mm[0] for mm in state.mines}
    state.dropped = {k: t for k, t in state.dropped.items() if k in live}
    state.dropped[mid] = state.turn
    state.laid.append(sh.id + a.kind)
    ev.append(m.Laid(sh.id, a.kind, mid, h, (sh.owner,)))


def _new_trap_id(state) -> str:
    """A fresh id for a dropped trap, drawn at random: a running count would tell the other side how many
    traps were dropped before it once one of them is revealed."""
    used = {mm[0] for mm in state.mines}
    while True:
        mid = f"trap-{state.rng.below(1 << 24):06x}"
        if mid not in used:
            return mid


def _can_orbit(state, sh: Ship) -> bool:
    if sh.orbit is not None or sh.kind == "station" or sh.docked is not None or sh.id in state.orbit_new:
        return False
    if sh.pos not in state.map.ring or sh.drifting():
        return False
    return 0 in speed_options(sh.speed, sh.adf)


def _do_course(state, a, ev) -> None:
    sh = state.ship(a.ship)
    if a.speed == 0:
        state.plots[sh.id] = (0, a.facing, ())
        ev.append(m.Plotted(sh.id, 0, a.facing, ()))
    else:
        state.plotting = [sh.id, a.speed, a.facing, []]


def replay_plot(state, sh: Ship, speed: int, facing: int, turns, planet_crash: bool = False):
    key = ("plot", sh.id, speed, facing, tuple(turns), planet_crash)
    got = state._cache.get(key)
    if got is not None:
        return got
    if turns:
        prev = state._cache.get(("plot", sh.id, speed, facing, tuple(turns[:-1]), planet_crash))
        if prev is not None:
            nxt = advance(state.map, prev, turns[-1], speed, planet_crash)
            if nxt is None:
                nxt = advance(state.map, prev, 0, speed, True)
            state._cache[key] = nxt
            return nxt
    st = _replay_plot_uncached(state, sh, speed, facing, turns, planet_crash)
    state._cache[key] = st
    return st


def _replay_plot_uncached(state, sh: Ship, speed: int, facing: int, turns, planet_crash: bool = False):
    st = start_plot(sh.pos, facing)
    for t in turns:
        nxt = advance(state.map, st, t, speed, planet_crash)
        if nxt is None:
            nxt = advance(state.map, st, 0, speed, True)
        st = nxt
    return st


def _do_step(state, a, ev) -> None:
    sid, speed, facing, turns = state.plotting
    sh = state.ship(sid)
    turns = turns + [a.turn]
    st = replay_plot(state, sh, speed, facing, turns)
    if st.end or st.done >= speed:
        state.plots[sid] = (speed, facing, tuple(turns))
        state.plotting = None
        ev.append(m.Plotted(sid, speed, facing, tuple(turns)))
    else:
        state.plotting = [sid, speed, facing, turns]


def end_movement(state, ev: list) -> None:
    mv = state.mover
    triggered: list = []
    _move_seekers(state, mv, ev, triggered)
    # ships and stations in orbit (including orbits declared this phase) and the ships docked at them
    moved_orbit = set()
    for sh in state.ships:
        if sh.owner != mv or sh.status != ACTIVE:
            continue
        plot = state.plots.get(sh.id)
        if sh.id in state.orbit_new:
            # entering orbit cuts the speed to 0: a deceleration, checked for break-up like any other
            if _breaks_up(state, sh, dmg.maneuver_points(sh.speed, 0), ev):
                continue
            pl = _planet_next_to(state, sh.pos)
            sh.orbit = (pl, state.orbit_new[sh.id])
            sh.speed = 0
        elif sh.orbit is None:
            continue
        elif plot is not None and plot[0] > 0:
            continue  # leaves orbit: moves below
        elif plot is not None:
            if _breaks_up(state, sh, dmg.maneuver_points(0, 0, 0, rotation_cost(sh.facing, plot[1])), ev):
                continue
            sh.facing = plot[1]
        planet = state.map.planet_hexes[sh.orbit[0]]
        start = sh.pos
        sh.pos = orbit_step(planet, sh.pos, sh.orbit[1])
        sh.path = (start, sh.pos)
        moved_orbit.add(sh.id)
        ev.append(m.Moved(sh.id, sh.path, sh.facing, 0, "orbit"))
        _carry_docked(state, sh, ev)
    for sh in state.ships:
        if sh.owner != mv or sh.status != ACTIVE or sh.id in moved_orbit or sh.kind == "station":
            continue
        plot = state.plots.get(sh.id)
        if sh.docked is not None and (plot is None or plot[0] == 0):
            if plot is not None:
                if _breaks_up(state, sh, dmg.maneuver_points(0, 0, 0, rotation_cost(sh.facing, plot[1])), ev):
                    continue
                sh.facing = plot[1]
            continue
        if plot is None:
            if sh.speed == 0:
                continue
            navdir = sh.navdir if sh.nav else 0
            turns = tuple(navdir if i < sh.mr else 0 for i in range(sh.speed)) if navdir else ()
            plot = (sh.speed, sh.facing, turns)
        _execute(state, sh, plot, ev)
    # docking, once every ship has moved: a ship that stopped in a friendly station's hex (a fighter also
    # in a carrier's) is docked
    for sh in state.ships:
        if (sh.owner == mv and sh.status == ACTIVE and sh.speed == 0 and sh.docked is None and sh.orbit is None
                and sh.kind != "station"):
            host = _dock_host(state, sh)
            if host is not None:
                sh.docked = host.id
                sh.dock_turns = 0
                ev.append(m.Docked(sh.id, host.id))
    victory.check_end(state, ev)
    if state.stage == "over":
        return
    _trigger_mines(state, mv, triggered)
    fire_phase.start_intercept(state, "combat", triggered)


def _planet_next_to(state, h) -> int:
    p = state.map.ring[h]
    return state.map.planet_hexes.index(p)


def _carry_docked(state, host: Ship, ev) -> None:
    for d in state.ships:
        if d.docked == host.id and d.status == ACTIVE:
            d.pos = host.pos
            d.path = (host.pos,)


def _execute(state, sh: Ship, plot, ev) -> None:
    speed, facing, turns = plot
    old_speed, old_facing = sh.speed, sh.facing
    if sh.docked is not None:
        sh.docked = None
        sh.dock_turns = 0
    if sh.orbit is not None:
        sh.orbit = None
    st = start_plot(sh.pos, facing)
    for i in range(speed):
        t = turns[i] if i < len(turns) else 0
        nxt = advance(state.map, st, t, speed, True)
        if nxt is None:
            nxt = advance(state.map, st, 0, speed, True)
        st = nxt
        if st.end:
            break
    points = dmg.maneuver_points(old_speed, speed, st.turns, rotation_cost(old_facing, facing))
    if state.rules.breakup_counts_gravity:
        points += st.gturns
    if _breaks_up(state, sh, points, ev):
        return
    sh.path = st.path
    sh.pos = st.pos if st.end != "crash" else st.path[-1]
    sh.facing = st.facing
    sh.speed = speed
    if sh.evading:
        sh.evading = False
    changed = speed != old_speed or st.turns or st.gturns or facing != old_facing
    if sh.ms_turns >= MS_MOVING and changed:
        sh.ms_turns = 0
        ev.append(m.MaskingEnded(sh.id))
    end = st.end
    ev.append(m.Moved(sh.id, sh.path, sh.facing, speed, end))
    if sh.kind == "carrier":
        _carry_docked(state, sh, ev)
    if end == "crash":
        fire_phase.destroy(state, sh, "crashed into a planet", ev)
    elif end == "exit":
        sh.status = GONE
        sh.screen = None
        ev.append(m.Disengaged(sh.id, sh.pos))
        for d in state.ships:
            if d.docked == sh.id and d.status == ACTIVE:
                d.status = GONE
                ev.append(m.Disengaged(d.id, d.pos))


def _breaks_up(state, sh: Ship, points: int, ev: list) -> bool:
    """The break-up check of a severely damaged ship using ``points`` ADF and MR points (every speed
    change, turn or rotation: in open space, entering orbit, in orbit or docked); True if it broke apart
    (it is destroyed before it moves)."""
    if not sh.severe() or points <= 0:
        return False
    chance = dmg.breakup_chance(sh.hp, sh.dmg, points)
    roll = state.rng.d100()
    broke = dmg.breaks_apart(sh.hp, sh.dmg, points, roll)
    ev.append(m.BreakupCheck(sh.id, chance, roll, broke))
    if broke:
        fire_phase.destroy(state, sh, "broke apart maneuvering", ev)
    return broke


def _dock_host(state, sh: Ship) -> Ship | None:
    for h in state.ships:
        if h is sh or h.status != ACTIVE or h.owner != sh.owner or h.pos != sh.pos:
            continue
        if h.kind == "station":
            return h
        if h.kind == "carrier" and sh.kind == "fighter" and sum(
            1 for d in state.ships if d.docked == h.id and d.status == ACTIVE
        ) < CARRIER_CAPACITY:
            return h
    return None


def _move_seekers(state, mv: int, ev: list, triggered: list) -> None:
    keep = []
    for mine in state.mines:
        mid, owner, kind, h, moves, facing, layer = mine
        if kind != "S" or owner != mv or (moves < 0 and mid not in state.activated):
            keep.append(mine)
            continue
        n = 2 * (max(moves, 0) + 1)
        target = _nearest_ship(state, h)
        if target is None:
            keep.append((mid, owner, kind, h, max(moves, 0), facing, layer))
            continue
        path = [h]
        pos, f = h, facing
        hit = None
        here = [s for s in state.ships if s.pos == h and state._targetable(s)]
        if here:  # a ship already in the seeker's hex: it detonates at once
            hit = _largest(state, here)
            n = 0
        for i in range(n):
            dirs = range(6) if i == 0 else (f, (f + 1) % 6, (f - 1) % 6)
            best = None
            for d in dirs:
                nb = hexgrid.neighbour(pos, d)
                key = (hexgrid.distance(nb, target.pos), rotation_cost(d, f), d)
                if best is None or key < best[0]:
                    best = (key, d, nb)
            _, f, pos = best
            path.append(pos)
            victims = [s for s in state.ships if s.pos == pos and state._targetable(s)]
            if victims:
                hit = _largest(state, victims)
                break
        ev.append(m.SeekerMoved(mid, tuple(path), target.id))
        if hit is not None:
            triggered.append(_trap_attack(state, mid, "S", hit, layer))
        elif 2 * (max(moves, 0) + 1) < 12:
            keep.append((mid, owner, kind, pos, max(moves, 0) + 1, f, layer))
    state.mines = keep


def _nearest_ship(state, h) -> Ship | None:
    best: list[Ship] = []
    bd = None
    for s in state.ships:
        if not state._targetable(s):
            continue
        d = hexgrid.distance(s.pos, h)
        if bd is None or d < bd:
            bd, best = d, [s]
        elif d == bd:
            best.append(s)
    if not best:
        return None
    return best[0] if len(best) == 1 else best[state.rng.below(len(best))]


def _largest(state, ships: list[Ship]) -> Ship:
    top = max(s.hp for s in ships)
    big = [s for s in ships if s.hp == top]
    return big[0] if len(big) == 1 else big[state.rng.below(len(big))]


def _trap_attack(state, mid: str, kind: str, target: Ship, layer: str) -> list:
    return [mid, -1, kind, target.id, list(target.pos), 0, False, -1, False, layer]


def _trigger_mines(state, mv: int, triggered: list) -> None:
    """Mines and waiting seekers of the other side in hexes the moving ships entered detonate now."""
    keep = []
    for mine in state.mines:
        mid, owner, kind, h, moves, _f, layer = mine
        if owner == mv:
            keep.append(mine)
            continue
        victims = [s for s in state.ships if s.owner == mv and state._targetable(s) and h in s.path[1:]]
        if not victims:
            keep.append(mine)
            continue
        if kind == "M":
            for v in victims:
                triggered.append(_trap_attack(state, mid, "M", v, layer))
        else:
            triggered.append(_trap_attack(state, mid, "S", _largest(state, victims), layer))
    state.mines = keep


def apply(state, player: int, a) -> list:
    """Apply one movement-phase action of ``player`` and return its events; an illegal one raises
    ``IllegalAction`` before anything changes."""
    ev: list = []
    t = type(a)
    if t is m.Step:
        if state.plotting is None:
            raise IllegalAction("knighthawks.move.step.unplotted", "no move is being plotted: give a course first")
        if a.turn not in step_options(state):
            raise IllegalAction("knighthawks.move.step", "not a legal hex turn now (1 left, -1 right, 0 straight; MR "
                                "used up, one turn per hex, a forced turn, or a planet in the way)")
        _do_step(state, a, ev)
    else:  # Screen, Lay, Activate, Orbit, Course, EndMovement: the phase table lets only this phase's kinds in
        if state.plotting is not None:
            raise IllegalAction("knighthawks.move.plotting", f"finish plotting {state.plotting[0]}'s move first (step)")
        if not move_ok(state, player, a):
            raise IllegalAction(*_move_refusal(state, player, a))
        if t is m.Screen:
            _do_screen(state, a, ev)
        elif t is m.Lay:
            _do_lay(state, a, ev)
        elif t is m.Activate:
            state.activated.append(a.seeker)
            ev.append(m.SeekerActivated(a.seeker))
        elif t is m.Orbit:
            state.orbit_new[a.ship] = a.clockwise
            state.plots[a.ship] = (0, state.ship(a.ship).facing, ())
            ev.append(m.OrbitDeclared(a.ship, a.clockwise))
        elif t is m.Course:
            _do_course(state, a, ev)
        else:
            end_movement(state, ev)
    return ev
