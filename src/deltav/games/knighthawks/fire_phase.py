"""The combat phase of a side turn (rules 4.1, 2): fire damage, then defensive and offensive fire, each as
declarations (one weapon at a target at a time, then ``fire``), the defender's ICM and evasion decisions
before any roll, and the resolution of every attack (including mines and seekers) with its damage.

Owns: the fire-phase decisions and attack resolution of ``KHState`` (a mixin). Must not hold to-hit or damage
arithmetic (combat.py and damage.py do) or move ships.
"""

from __future__ import annotations

from deltav.games.knighthawks import damage as dmg
from deltav.games.knighthawks import messages as m
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


class FirePhase:
    """Fire-phase methods of the game state (mixed into ``KHState``)."""

    # --- fire phases ---------------------------------------------------------------------------------------
    def _combat_start(self, ev: list) -> None:
        mv = self.mover
        burning_side = mv if self.rules.fire_timing == "owner" else 1 - mv
        for sh in self.ships:
            if sh.status == ACTIVE and sh.fire and sh.owner == burning_side:
                self._damage(sh, "fire", 20, (1, 10, 0), False, ev)
        self._check_end(ev)
        if self.stage == "over":
            return
        self.stage = "declare"
        self.fire_mode = "def"
        self.declared = []
        self._cache = {}

    def _weapon_usable(self, sh: Ship, i: int, defensive: bool) -> bool:
        c, n, _mx, stt = sh.weapons[i]
        if stt != OK or (n == 0):
            return False
        w = tables().weapons[c]
        if not w.fired or (defensive and w.mpo):
            return False
        return not (sh.docked is not None and (w.ff or c == "T"))

    def _sightlines(self, firer: Ship, target: Ship, defensive: bool) -> list:
        """The hexes the firer may shoot the target in: (hex, range, forward) for each unblocked hex of the
        target's move (defensive fire) or its position (offensive fire); forward is None outside the forward
        field of fire, True in its head-on row (or the firer's own hex when the FF rule allows it), else False."""
        if defensive:
            hexes = target.path if self.rules.start_hex_fire or len(target.path) == 1 else target.path[1:]
        else:
            hexes = (target.pos,)
        out = []
        fpos = firer.pos
        fq, fr = fpos
        mp = self.map
        los = mp.los_table() if mp.planets else None
        facing = firer.facing % 6
        info = _OFFSETS[facing]
        for k, h in enumerate(hexes):
            off = (h[0] - fq, h[1] - fr)
            x = info.get(off)
            if x is None:
                x = _offset_info(facing, off)
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

    def _geometry(self, firer: Ship, code: str, target: Ship, defensive: bool, lines: list | None = None):
        """(hex, range, head_on) of the best shot of this weapon at the target, or None."""
        w = tables().weapons[code]
        reach = weapon_range(code, self.rules)
        if lines is None:
            lines = self._sightlines(firer, target, defensive)
        return best_shot(lines, w.ff, w.rd, reach)

    def _fire_options(self, player: int) -> dict:
        """(ship, weapon index) -> [(target, geometry)] of every shot the geometry allows this phase (positions
        do not change while weapons are declared: cached for the phase)."""
        got = self._cache.get("fire")
        if got is not None:
            return got
        defensive = self.fire_mode == "def"
        targets = [s for s in self.ships if s.owner != player and self._targetable(s)]
        out: dict = {}
        if targets:
            weapons = tables().weapons
            rules = self.rules
            for sh in self.ships:
                if sh.owner != player or sh.status != ACTIVE:
                    continue
                geo: dict = {}
                lines = None
                for i in range(len(sh.weapons)):
                    if not self._weapon_usable(sh, i, defensive):
                        continue
                    code = sh.weapons[i][0]
                    if code not in geo:
                        if lines is None:
                            lines = [self._sightlines(sh, tg, defensive) for tg in targets]
                        w = weapons[code]
                        ff, rd, reach = w.ff, w.rd, weapon_range(code, rules)
                        geo[code] = [(tg.id, g) for tg, ln in zip(targets, lines)
                                     if (g := best_shot(ln, ff, rd, reach)) is not None]
                    if geo[code]:
                        out[(sh.id, i)] = geo[code]
        self._cache["fire"] = out
        return out

    def _assign_actions(self, player: int) -> list:
        defensive = self.fire_mode == "def"
        used = {(a[0], a[1]) for a in self.declared}
        options = self._fire_options(player)
        acts = self._cache.get("fire_acts")
        if acts is None or acts[0] is not options:  # the Assign actions of each weapon, once per phase
            acts = self._cache["fire_acts"] = (
                options, [(k, tuple(_assign(k[0], k[1], tid) for tid, _g in shots)) for k, shots in options.items()])
        out = []
        ships, index = self.ships, self.index
        for key, assigns in acts[1]:
            if key in used or not self._weapon_usable(ships[index[key[0]]], key[1], defensive):
                continue
            out.extend(assigns)
        return out

    def _assign_ok(self, player: int, a) -> bool:
        key = (a.ship, a.weapon)
        shots = self._fire_options(player).get(key) if isinstance(a.ship, str) else None
        if not shots or any(d[0] == a.ship and d[1] == a.weapon for d in self.declared):
            return False
        if not self._weapon_usable(self.ship(a.ship), a.weapon, self.fire_mode == "def"):
            return False
        return any(tid == a.target for tid, _g in shots)

    def _any_assign(self, player: int) -> bool:
        defensive = self.fire_mode == "def"
        used = {(a[0], a[1]) for a in self.declared}
        for (sid, i) in self._fire_options(player):
            if (sid, i) not in used and self._weapon_usable(self.ship(sid), i, defensive):
                return True
        return False

    def _assign_refusal(self, player: int, a) -> tuple[str, str]:
        """(rule id, reason) of a refused weapon declaration: the specific rule it breaks."""
        sh = self._get(a.ship)
        if sh is None or sh.owner != player or sh.status != ACTIVE:
            return ("knighthawks.fire.ship", f"{a.ship!r} is not one of your ships in play")
        if not 0 <= a.weapon < len(sh.weapons):
            return ("knighthawks.fire.weapon", f"{a.ship} has no weapon {a.weapon}")
        if any(d[0] == a.ship and d[1] == a.weapon for d in self.declared):
            return ("knighthawks.fire.rate", "each weapon fires once per phase")
        c, n, _mx, stt = sh.weapons[a.weapon]
        w = tables().weapons[c]
        if stt != OK:
            return ("knighthawks.fire.destroyed", f"{a.ship}'s {c} is destroyed")
        if n == 0:
            return ("knighthawks.fire.ammunition", f"{a.ship}'s {c} has no ammunition left")
        if not w.fired:
            return ("knighthawks.fire.trap", f"{c} is dropped during movement, not fired")
        if self.fire_mode == "def" and w.mpo:
            return ("knighthawks.fire.mpo", f"{c} may be fired by the moving player only (no defensive fire)")
        if sh.docked is not None and (w.ff or c == "T"):
            return ("knighthawks.fire.docked", "a docked ship cannot fire forward-firing weapons or torpedoes")
        tg = self._get(a.target)
        if tg is None or tg.owner == player:
            return ("knighthawks.fire.target", f"{a.target!r} is not an enemy ship")
        if not self._targetable(tg):
            if tg.status == ACTIVE:
                return ("knighthawks.fire.target.docked", f"{a.target} is a fighter or scout docked at its base: it cannot be "
                        "attacked")
            return ("knighthawks.fire.target.gone", f"{a.target} is no longer in the battle")
        lines = self._sightlines(sh, tg, self.fire_mode == "def")
        if best_shot(lines, False, w.rd, weapon_range(c, self.rules)) is None:
            return ("knighthawks.fire.range", f"{a.target} is out of {c} range or behind a planet")
        return ("knighthawks.fire.field", f"{a.target} is outside {a.ship}'s forward field of fire (or, in defensive fire, "
                "entered its hex from outside it)")

    def _intercept_refusal(self, a) -> tuple[str, str]:
        att = self.attacks[self._pending_attack()]
        tg = self.ship(att[3])
        total = sum(s.icms_available() for s in self._icm_pool(tg)) if tables().weapons[att[2]].icm else 0
        if not 0 <= a.icms <= total:
            return ("knighthawks.fire.intercept.icms", f"{a.icms} ICMs: the ships in {tg.id}'s hex can fire 0 to {total} "
                    f"against this {att[2]}")
        return ("knighthawks.fire.intercept.evade", "only fighters and assault scouts with MR left may evade, and only "
                "torpedoes")

    def _do_assign(self, a) -> None:
        sh = self.ship(a.ship)
        tg = self.ship(a.target)
        c, n, mx, stt = sh.weapons[a.weapon]
        h, d, head = [g for tid, g in self._fire_options(sh.owner)[(sh.id, a.weapon)] if tid == tg.id][0]
        self.declared.append([sh.id, a.weapon, c, tg.id, list(h), d, head, -1, False])

    def _fire_declared(self, ev: list) -> None:
        """End the declarations: they become public at once (a ``fired`` event, the LTD rounds spent), then
        the defender's ICM and evasion decisions and the rolls. Until then a declaration is the firing side's
        own business (other seats' views do not show it)."""
        player = self.current_players()[0]
        for a in self.declared:
            sh = self.ship(a[0])
            if sh.weapons[a[1]][1] > 0:
                public_count(sh, "w", a[1], -1)
        ev.append(m.Fired(player, tuple((a[0], a[1], a[3]) for a in self.declared)))
        self._start_intercept("offense" if self.fire_mode == "def" else "endturn", self.declared)
        self.declared = []

    def _start_intercept(self, after: str, attacks: list) -> None:
        self.stage = "intercept"
        self.after = after
        self.attacks = attacks

    def _icm_pool(self, target: Ship) -> list[Ship]:
        return [s for s in self.ships if s.owner == target.owner and s.status == ACTIVE and s.pos == target.pos
                and s.icms_available() > 0]

    def _can_evade(self, a, target: Ship) -> bool:
        return a[2] == "T" and target.evasive and target.mr > 0 and target.docked is None

    def _pending_attack(self) -> int:
        for k, a in enumerate(self.attacks):
            if a[7] < 0:
                return k
        return -1

    def _needs_decision(self, a) -> bool:
        tg = self.ship(a[3])
        if tg.status != ACTIVE:
            return False
        if tables().weapons[a[2]].icm and self._icm_pool(tg):
            return True
        return self._can_evade(a, tg)

    def _intercept_actions(self) -> list:
        a = self.attacks[self._pending_attack()]
        tg = self.ship(a[3])
        total = sum(s.icms_available() for s in self._icm_pool(tg)) if tables().weapons[a[2]].icm else 0
        evades = (False, True) if self._can_evade(a, tg) else (False,)
        return [m.Intercept(n, e) for n in range(total + 1) for e in evades]

    def _do_intercept(self, a, ev: list) -> None:
        k = self._pending_attack()
        att = self.attacks[k]
        tg = self.ship(att[3])
        left = a.icms
        pool = sorted(self._icm_pool(tg), key=lambda s: (-s.icms_available(), s.id)) if left else []
        for s in pool:
            if left <= 0:
                break
            i = s.defense_index("ICM")
            use = min(s.defenses[i][1], left)
            public_count(s, "d", i, -use)
            left -= use
        if a.evade:
            tg.evading = True
        self.attacks[k] = att[:7] + [a.icms, a.evade] + att[9:]
        ev.append(m.Intercepted(tg.id, a.icms, a.evade))

    def _resolve(self, a, ev: list) -> None:
        src, widx, code, tid, h, dist, head, icms, evade = a[:9]
        tg = self.ship(tid)
        firer = self._get(src)
        if tg.status != ACTIVE:
            ev.append(m.Wasted(src, code, tid))
            return
        if firer is not None and not self.rules.declared_fire_after_damage and (
            firer.status != ACTIVE or firer.weapons[widx][3] != OK
        ):
            ev.append(m.Wasted(src, code, tid))
            return
        col = defense_column(code, operating_defenses(tg, self.rules), self.rules)
        half = half_damage(code, col)
        table = tables().combat[code]
        if firer is not None and firer.ms_turns > 0 and code in ("LC", "LB") and table["MS"] < table[col]:
            col, half = "MS", True  # firing out of a masking screen: resolved as if the target were masked
        if firer is not None:
            ccs = firer.ccs
        else:  # a mine or seeker: G14, its layer's combat control damage applies only with the ruling
            layer = self._get(a[9]) if len(a) > 9 else None
            ccs = self.rules.ccs_affects_mines and layer is not None and layer.ccs
        chance = chance_to_hit(code, col, dist, head, ccs, max(icms, 0), tg.mr if evade else 0)
        roll = self.rng.d100()
        hit = roll_hits(roll, chance, self.rules)
        ev.append(m.Attack(src, code, tid, _hex(h), dist, col, chance, max(icms, 0), evade, roll, hit))
        tg.attacked = self.turn
        if hit:
            w = tables().weapons[code]
            self._damage(tg, src, w.dtm, w.hdr, half, ev)

    def _damage(self, sh: Ship, source: str, dtm: int, hdr, half: bool, ev: list) -> None:
        roll = self.rng.d100()
        eff = dmg.classify(sh, roll + dtm, self.rules)
        hull = 0
        system = ""
        if eff.kind == "hull":
            dice = self.rng.roll(hdr[0], hdr[1]) + hdr[2]
            hull = dmg.hull_points(dice, eff.double, half, self.rules.half_rounding == "up")
        elif eff.kind == "weapon":
            system = sh.weapons[eff.index][0]
        elif eff.kind == "defense":
            system = sh.defenses[eff.index][0]
        dead = dmg.apply_effect(sh, eff, hull, self.rules)
        if sh.shadow is not None:
            dmg.apply_effect(sh.shadow, eff, hull, self.rules)
        if eff.kind in ("nav",) and self.rules.nav_roll == "once":
            sh.navdir = 1 if self.rng.d10() <= 5 else -1
        ev.append(m.Damage(sh.id, source, roll, roll + dtm, eff.result, eff.kind, system, hull, eff.note))
        if dead:
            self._destroy(sh, f"hull destroyed by {source}", ev)

    def _destroy(self, sh: Ship, cause: str, ev: list) -> None:
        if sh.status != ACTIVE:
            return
        sh.status = DEAD
        sh.screen = None
        ev.append(m.Destroyed(sh.id, cause))
        host = self._get(sh.docked) if sh.docked is not None else None
        for d in self.ships:
            if d.docked == sh.id and d.status == ACTIVE:
                d.docked = None
                d.dmg += sh.hp // 2
                if d.shadow is not None:
                    d.shadow.dmg += sh.hp // 2
                ev.append(m.Damage(d.id, sh.id, 0, 0, "hull", "hull", "", sh.hp // 2, "docked at a destroyed host"))
                if d.dmg >= d.hp:
                    self._destroy(d, f"destroyed with its host {sh.id}", ev)
        if host is not None and host.status == ACTIVE:
            host.dmg += sh.hp // 2
            if host.shadow is not None:
                host.shadow.dmg += sh.hp // 2
            ev.append(m.Damage(host.id, sh.id, 0, 0, "hull", "hull", "", sh.hp // 2, "docked ship destroyed"))
            if host.dmg >= host.hp:
                self._destroy(host, f"destroyed with docked {sh.id}", ev)
