"""The combat phase of a side turn (rules 4.1, 2): fire damage, then defensive and offensive fire, each as
declarations (one weapon at a target at a time, then ``fire``), the defender's ICM and evasion decisions
before any roll, and the resolution of every attack (including mines and seekers) with its damage.

Owns: the fire-phase decisions (the ``declare`` and ``intercept`` stages: ``legal(state, p)``,
``apply(state, p, a)``) and attack resolution on a ``KHState`` record, as module functions. Must not hold to-hit
or damage arithmetic (combat.py and damage.py do) or move ships.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.jsonin import shown
from deltav.games.knighthawks import damage as dmg
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import victory
from deltav.games.knighthawks.combat import (
    chance_to_hit,
    corridor_offsets,
    defense_column,
    half_damage,
    in_forward_field,
    operating_defenses,
    roll_hits,
    weapon_range,
)
from deltav.games.knighthawks.ships import ACTIVE, DEAD, OK, Ship, public_count
from deltav.games.knighthawks.tables import tables

FF_REACH = 64  # the forward field of fire is looked up out to this distance, then cut at the weapon's range


def _hex(h) -> tuple[int, int]:
    return (h[0], h[1])


def best_shot(lines: list, ff: bool, rd: bool, reach: int):
    """(hex, range, head_on) of the best of ``lines`` (from ``_sightlines``) for a weapon with these traits
    and range, or None: head-on counts +10 for a forward-firing weapon, range -5 a hex for a range-diffused one;
    the first best line wins ties."""
    best = None
    for h, d, fwd in lines:
        if d > reach:
            continue
        head = False
        if ff:
            if fwd is None:
                continue
            head = fwd
        score = (10 if head else 0) - (5 * d if rd else 0)
        if best is None or score > best[0]:
            best = (score, h, d, head)
    if best is None:
        return None
    return best[1], best[2], best[3]


_OFFSETS: tuple[dict, ...] = tuple({} for _ in range(6))  # facing -> {offset: (range, forward field)}


def _offset_info(facing: int, off: tuple[int, int]) -> tuple[int, bool | None]:
    """(hex distance, ``in_forward_field`` out to FF_REACH) of a target offset for a firer with this facing."""
    dq, dr = off
    x = (max(abs(dq), abs(dr), abs(dq + dr)), corridor_offsets(facing, FF_REACH).get(off))
    table = _OFFSETS[facing]
    if len(table) > 50_000:
        table.clear()
    table[off] = x
    return x


_ASSIGNS: dict = {}  # (ship, weapon, target) -> Assign: actions are immutable values, shared between states


def _assign(sid: str, i: int, tid: str) -> m.Assign:
    key = (sid, i, tid)
    a = _ASSIGNS.get(key)
    if a is None:
        if len(_ASSIGNS) > 100_000:
            _ASSIGNS.clear()
        a = _ASSIGNS[key] = m.Assign(sid, i, tid)
    return a


def combat_start(state, ev: list) -> None:
    mv = state.mover
    burning_side = mv if state.rules.fire_timing == "owner" else 1 - mv
    for sh in state.ships:
        if sh.status == ACTIVE and sh.fire and sh.owner == burning_side:
            damage(state, sh, "fire", 20, (1, 10, 0), False, ev)
    victory.check_end(state, ev)
    if state.stage == "over":
        return
    state.stage = "declare"
    state.fire_mode = "def"
    state.declared = []
    state._cache = {}


def _weapon_usable(state, sh: Ship, i: int, defensive: bool) -> bool:
    c, n, _mx, stt = sh.weapons[i]
    if stt != OK or (n == 0):
        return False
    w = tables().weapons[c]
    if not w.fired or (defensive and w.mpo):
        return False
    return not (sh.docked is not None and (w.ff or c == "T"))


def _sightlines(state, firer: Ship, target: Ship, defensive: bool, reach: int | None = None) -> list:
    """The hexes the firer may shoot the target in: (hex, range, forward) for each unblocked hex of the
    target's move (defensive fire) or its position (offensive fire); forward is None outside the forward
    field of fire, True in its head-on row (or the firer's own hex when the FF rule allows it), else False.
    With ``reach``, hexes farther than that are left out (before their line of fire is looked up):
    ``best_shot`` of a weapon with a range up to ``reach`` gives the same answer on the shorter list."""
    if defensive:
        hexes = target.path if state.rules.start_hex_fire or len(target.path) == 1 else target.path[1:]
    else:
        hexes = (target.pos,)
    out = []
    fpos = firer.pos
    fq, fr = fpos
    mp = state.map
    los = mp.los_table() if mp.planets else None
    facing = firer.facing % 6
    info = _OFFSETS[facing]
    far = (1 << 30) if reach is None else reach
    for k, h in enumerate(hexes):
        off = (h[0] - fq, h[1] - fr)
        x = info.get(off)
        if x is None:
            x = _offset_info(facing, off)
        if x[0] > far:
            continue
        if los is not None:
            b = los.get((fpos, h))
            if b is None:
                b = mp.blocked(fpos, h)
            if b:
                continue
        if x[0] == 0:
            fwd = True
            if defensive and k > 0 and in_forward_field(fpos, firer.facing, hexes[k - 1], 1) is None:
                fwd = None  # the mover entered from outside the firer's forward field
            out.append((h, 0, fwd))
        else:
            out.append((h, x[0], x[1]))
    return out


def geometry(state, firer: Ship, code: str, target: Ship, defensive: bool, lines: list | None = None):
    """(hex, range, head_on) of the best shot of this weapon at the target, or None."""
    w = tables().weapons[code]
    reach = weapon_range(code, state.rules)
    if lines is None:
        lines = _sightlines(state, firer, target, defensive)
    return best_shot(lines, w.ff, w.rd, reach)


def _fire_options(state, player: int) -> dict:
    """(ship, weapon index) -> [(target, geometry)] of every shot the geometry allows this phase (positions
    do not change while weapons are declared: cached for the phase)."""
    got = state._cache.get("fire")
    if got is not None:
        return got
    defensive = state.fire_mode == "def"
    targets = [s for s in state.ships if s.owner != player and state._targetable(s)]
    out: dict = {}
    if targets:
        weapons = tables().weapons
        rules = state.rules
        for sh in state.ships:
            if sh.owner != player or sh.status != ACTIVE:
                continue
            geo: dict = {}
            lines = None
            usable = [i for i in range(len(sh.weapons)) if _weapon_usable(state, sh, i, defensive)]
            for i in usable:
                code = sh.weapons[i][0]
                if code not in geo:
                    if lines is None:  # only hexes some usable weapon reaches: no line of fire looked up for others
                        far = max(weapon_range(sh.weapons[j][0], rules) for j in usable)
                        lines = [_sightlines(state, sh, tg, defensive, far) for tg in targets]
                    w = weapons[code]
                    ff, rd, reach = w.ff, w.rd, weapon_range(code, rules)
                    geo[code] = [(tg.id, g) for tg, ln in zip(targets, lines)
                                 if ln and (g := best_shot(ln, ff, rd, reach)) is not None]
                if geo[code]:
                    out[(sh.id, i)] = geo[code]
    state._cache["fire"] = out
    return out


def _assign_actions(state, player: int) -> list:
    """The Assign actions of every weapon not declared yet. No weapon's usability is checked again:
    ``_fire_options`` holds only weapons usable in this stage, and no action of the declare stage changes a
    weapon (rounds are spent at ``fire``, after which a new stage starts with a new lookup dict)."""
    used = {(a[0], a[1]) for a in state.declared}
    options = _fire_options(state, player)
    acts = state._cache.get("fire_acts")
    if acts is None or acts[0] is not options:  # the Assign actions of each weapon, once per phase
        acts = state._cache["fire_acts"] = (
            options, [(k, tuple(_assign(k[0], k[1], tid) for tid, _g in shots)) for k, shots in options.items()])
    if not used:
        return [a for _key, assigns in acts[1] for a in assigns]
    return [a for key, assigns in acts[1] if key not in used for a in assigns]


def _assign_ok(state, player: int, a) -> bool:
    key = (a.ship, a.weapon)
    shots = _fire_options(state, player).get(key) if isinstance(a.ship, str) else None
    if not shots or any(d[0] == a.ship and d[1] == a.weapon for d in state.declared):
        return False
    if not _weapon_usable(state, state.ship(a.ship), a.weapon, state.fire_mode == "def"):
        return False
    return any(tid == a.target for tid, _g in shots)


def any_assign(state, player: int) -> bool:
    """Whether a weapon can still be declared (usable by construction of ``_fire_options``, as in
    ``_assign_actions``)."""
    options = _fire_options(state, player)
    if not state.declared:
        return bool(options)
    used = {(a[0], a[1]) for a in state.declared}
    return any(key not in used for key in options)


def _assign_refusal(state, player: int, a) -> tuple[str, str]:
    """(rule id, reason) of a refused weapon declaration: the specific rule it breaks."""
    sh = state._get(a.ship)
    if sh is None or sh.owner != player or sh.status != ACTIVE:
        return ("knighthawks.fire.ship", f"{a.ship!r} is not one of your ships in play")
    if not 0 <= a.weapon < len(sh.weapons):
        return ("knighthawks.fire.weapon", f"{a.ship} has no weapon {shown(a.weapon)}")
    if any(d[0] == a.ship and d[1] == a.weapon for d in state.declared):
        return ("knighthawks.fire.rate", "each weapon fires once per phase")
    c, n, _mx, stt = sh.weapons[a.weapon]
    w = tables().weapons[c]
    if stt != OK:
        return ("knighthawks.fire.destroyed", f"{a.ship}'s {c} is destroyed")
    if n == 0:
        return ("knighthawks.fire.ammunition", f"{a.ship}'s {c} has no ammunition left")
    if not w.fired:
        return ("knighthawks.fire.trap", f"{c} is dropped during movement, not fired")
    if state.fire_mode == "def" and w.mpo:
        return ("knighthawks.fire.mpo", f"{c} may be fired by the moving player only (no defensive fire)")
    if sh.docked is not None and (w.ff or c == "T"):
        return ("knighthawks.fire.docked", "a docked ship cannot fire forward-firing weapons or torpedoes")
    tg = state._get(a.target)
    if tg is None or tg.owner == player:
        return ("knighthawks.fire.target", f"{a.target!r} is not an enemy ship")
    if not state._targetable(tg):
        if tg.status == ACTIVE:
            return ("knighthawks.fire.target.docked", f"{a.target} is a fighter or scout docked at its base: it cannot be "
                    "attacked")
        return ("knighthawks.fire.target.gone", f"{a.target} is no longer in the battle")
    lines = _sightlines(state, sh, tg, state.fire_mode == "def")
    if best_shot(lines, False, w.rd, weapon_range(c, state.rules)) is None:
        return ("knighthawks.fire.range", f"{a.target} is out of {c} range or behind a planet")
    return ("knighthawks.fire.field", f"{a.target} is outside {a.ship}'s forward field of fire (or, in defensive fire, "
            "entered its hex from outside it)")


def _intercept_refusal(state, a) -> tuple[str, str]:
    att = state.attacks[pending_attack(state)]
    tg = state.ship(att[3])
    total = sum(s.icms_available() for s in _icm_pool(state, tg)) if tables().weapons[att[2]].icm else 0
    if not 0 <= a.icms <= total:
        return ("knighthawks.fire.intercept.icms", f"{shown(a.icms)} ICMs: the ships in {tg.id}'s hex can fire 0 to {total} "
                f"against this {att[2]}")
    return ("knighthawks.fire.intercept.evade", "only fighters and assault scouts with MR left may evade, and only "
            "torpedoes")


def _do_assign(state, a) -> None:
    sh = state.ship(a.ship)
    tg = state.ship(a.target)
    c, n, mx, stt = sh.weapons[a.weapon]
    h, d, head = [g for tid, g in _fire_options(state, sh.owner)[(sh.id, a.weapon)] if tid == tg.id][0]
    state.declared.append([sh.id, a.weapon, c, tg.id, list(h), d, head, -1, False])


def fire_declared(state, ev: list) -> None:
    """End the declarations: they become public at once (a ``fired`` event, the LTD rounds spent), then
    the defender's ICM and evasion decisions and the rolls. Until then a declaration is the firing side's
    own business (other seats' views do not show it)."""
    player = state.current_players()[0]
    for a in state.declared:
        sh = state.ship(a[0])
        if sh.weapons[a[1]][1] > 0:
            public_count(sh, "w", a[1], -1)
    ev.append(m.Fired(player, tuple((a[0], a[1], a[3]) for a in state.declared)))
    start_intercept(state, "offense" if state.fire_mode == "def" else "endturn", state.declared)
    state.declared = []


def start_intercept(state, after: str, attacks: list) -> None:
    state.stage = "intercept"
    state.after = after
    state.attacks = attacks


def _icm_pool(state, target: Ship) -> list[Ship]:
    return [s for s in state.ships if s.owner == target.owner and s.status == ACTIVE and s.pos == target.pos
            and s.icms_available() > 0]


def _can_evade(state, a, target: Ship) -> bool:
    return a[2] == "T" and target.evasive and target.mr > 0 and target.docked is None


def pending_attack(state) -> int:
    for k, a in enumerate(state.attacks):
        if a[7] < 0:
            return k
    return -1


def needs_decision(state, a) -> bool:
    tg = state.ship(a[3])
    if tg.status != ACTIVE:
        return False
    if tables().weapons[a[2]].icm and _icm_pool(state, tg):
        return True
    return _can_evade(state, a, tg)


def _intercept_actions(state) -> list:
    a = state.attacks[pending_attack(state)]
    tg = state.ship(a[3])
    total = sum(s.icms_available() for s in _icm_pool(state, tg)) if tables().weapons[a[2]].icm else 0
    evades = (False, True) if _can_evade(state, a, tg) else (False,)
    return [m.Intercept(n, e) for n in range(total + 1) for e in evades]


def _do_intercept(state, a, ev: list) -> None:
    k = pending_attack(state)
    att = state.attacks[k]
    tg = state.ship(att[3])
    left = a.icms
    pool = sorted(_icm_pool(state, tg), key=lambda s: (-s.icms_available(), s.id)) if left else []
    for s in pool:
        if left <= 0:
            break
        i = s.defense_index("ICM")
        use = min(s.defenses[i][1], left)
        public_count(s, "d", i, -use)
        left -= use
    if a.evade:
        tg.evading = True
    state.attacks[k] = att[:7] + [a.icms, a.evade] + att[9:]
    ev.append(m.Intercepted(tg.id, a.icms, a.evade))


def resolve(state, a, ev: list) -> None:
    src, widx, code, tid, h, dist, head, icms, evade = a[:9]
    tg = state.ship(tid)
    firer = state._get(src)
    if tg.status != ACTIVE:
        ev.append(m.Wasted(src, code, tid))
        return
    if firer is not None and not state.rules.declared_fire_after_damage and (
        firer.status != ACTIVE or firer.weapons[widx][3] != OK
    ):
        ev.append(m.Wasted(src, code, tid))
        return
    col = defense_column(code, operating_defenses(tg, state.rules), state.rules)
    half = half_damage(code, col)
    table = tables().combat[code]
    if firer is not None and firer.ms_turns > 0 and code in ("LC", "LB") and table["MS"] < table[col]:
        col, half = "MS", True  # firing out of a masking screen: resolved as if the target were masked
    if firer is not None:
        ccs = firer.ccs
    else:  # a mine or seeker: G14, its layer's combat control damage applies only with the ruling
        layer = state._get(a[9]) if len(a) > 9 else None
        ccs = state.rules.ccs_affects_mines and layer is not None and layer.ccs
    chance = chance_to_hit(code, col, dist, head, ccs, max(icms, 0), tg.mr if evade else 0)
    roll = state.rng.d100()
    hit = roll_hits(roll, chance, state.rules)
    ev.append(m.Attack(src, code, tid, _hex(h), dist, col, chance, max(icms, 0), evade, roll, hit))
    tg.attacked = state.turn
    if hit:
        w = tables().weapons[code]
        damage(state, tg, src, w.dtm, w.hdr, half, ev)


def damage(state, sh: Ship, source: str, dtm: int, hdr, half: bool, ev: list) -> None:
    roll = state.rng.d100()
    eff = dmg.classify(sh, roll + dtm, state.rules)
    hull = 0
    system = ""
    if eff.kind == "hull":
        dice = state.rng.roll(hdr[0], hdr[1]) + hdr[2]
        hull = dmg.hull_points(dice, eff.double, half, state.rules.half_rounding == "up")
    elif eff.kind == "weapon":
        system = sh.weapons[eff.index][0]
    elif eff.kind == "defense":
        system = sh.defenses[eff.index][0]
    dead = dmg.apply_effect(sh, eff, hull, state.rules)
    if sh.shadow is not None:
        dmg.apply_effect(sh.shadow, eff, hull, state.rules)
    if eff.kind in ("nav",) and state.rules.nav_roll == "once":
        sh.navdir = 1 if state.rng.d10() <= 5 else -1
    ev.append(m.Damage(sh.id, source, roll, roll + dtm, eff.result, eff.kind, system, hull, eff.note))
    if dead:
        destroy(state, sh, f"hull destroyed by {source}", ev)


def destroy(state, sh: Ship, cause: str, ev: list) -> None:
    if sh.status != ACTIVE:
        return
    sh.status = DEAD
    sh.screen = None
    ev.append(m.Destroyed(sh.id, cause))
    host = state._get(sh.docked) if sh.docked is not None else None
    for d in state.ships:
        if d.docked == sh.id and d.status == ACTIVE:
            d.docked = None
            d.dmg += sh.hp // 2
            if d.shadow is not None:
                d.shadow.dmg += sh.hp // 2
            ev.append(m.Damage(d.id, sh.id, 0, 0, "hull", "hull", "", sh.hp // 2, "docked at a destroyed host"))
            if d.dmg >= d.hp:
                destroy(state, d, f"destroyed with its host {sh.id}", ev)
    if host is not None and host.status == ACTIVE:
        host.dmg += sh.hp // 2
        if host.shadow is not None:
            host.shadow.dmg += sh.hp // 2
        ev.append(m.Damage(host.id, sh.id, 0, 0, "hull", "hull", "", sh.hp // 2, "docked ship destroyed"))
        if host.dmg >= host.hp:
            destroy(state, host, f"destroyed with docked {sh.id}", ev)


def legal_declare(state, player: int) -> list:
    """The legal actions of ``player`` (the current one) in the declare stage."""
    return _assign_actions(state, player) + [m.Fire()]


def legal_intercept(state, player: int) -> list:
    """The legal actions of the defender in the intercept stage."""
    return _intercept_actions(state)


def apply_declare(state, player: int, a) -> list:
    """Apply one declare-stage action (``assign`` or ``fire``: the phase table lets only these in) of ``player``
    and return its events; an illegal one raises ``IllegalAction`` before anything changes."""
    ev: list = []
    if type(a) is m.Assign:
        if not _assign_ok(state, player, a):
            raise IllegalAction(*_assign_refusal(state, player, a))
        _do_assign(state, a)
    else:
        fire_declared(state, ev)
    return ev


def apply_intercept(state, player: int, a) -> list:
    """Apply the defender's ``intercept`` (the phase table lets only it in) and return its events; an illegal one
    raises ``IllegalAction`` before anything changes."""
    ev: list = []
    if a not in _intercept_actions(state):
        raise IllegalAction(*_intercept_refusal(state, a))
    _do_intercept(state, a, ev)
    return ev
