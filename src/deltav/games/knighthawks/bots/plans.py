"""Variants of the scripted captain's plan the admiral plays in escort and fleet scenarios: the escorts' cover
and the escorted ship's momentum check (:class:`_EscortCaptain`), the shared focus target of a fleet
(:class:`_FocusCaptain`) and the fleet's planet/edge doom check (:class:`_Safe`).

Owns: these plan variants. Must not reach into the true game state.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import movement_phase
from deltav.games.knighthawks.bots import escort as es
from deltav.games.knighthawks.bots import heuristics as hx
from deltav.games.knighthawks.bots import planet_safety as fl
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain
from deltav.games.knighthawks.damage import breakup_chance
from deltav.games.knighthawks.movement import rotation_cost


class _EscortCaptain(ScriptedCaptain):
    """The captain's plan for the escorts of a ship that must get away, with ``cover``: a ship that carries
    interceptors (ICMs) gains ``cover`` for ending its move in the escorted ship's plotted end hex (any ship
    of a side fires its ICMs for every target in its hex: torpedoes and rockets aimed at the freighter then
    face them)."""

    def __init__(self, cover: float = 0.0, safe: bool = False) -> None:
        super().__init__()
        self.cover = cover
        self.safe = safe

    def _objective_bonus(self, world, sh, st, speed: int, p: int) -> float:
        bonus = super()._objective_bonus(world, sh, st, speed, p)
        v = world.victory
        if self.safe and v.get("kind") == "exit" and v.get("ship") == sh.id and st.end == "":
            # the escorted ship: never end where momentum must carry it off the wrong edge next turn, and
            # weigh break-up risk as the lost game it is
            nxt = es.next_outcomes(world.map, v, st.pos, st.facing, speed, sh.adf, sh.mr, 2)
            if "stay" not in nxt and "escape" not in nxt:
                bonus -= 500.0
            elif sh.mr > 0 and not ({"stay", "escape"} & es.next_outcomes(world.map, v, st.pos, st.facing, speed,
                                                                            sh.adf, 0, 2)):
                bonus -= 150.0  # only its steering keeps it on the map: one steering hit and it is lost
            if sh.severe():
                used = abs(speed - sh.speed) + st.turns + rotation_cost(sh.facing, st.facing if speed == 0
                                                                        else sh.facing)
                bonus -= 10.0 * breakup_chance(sh.hp, sh.dmg, used)
        if self.cover and v.get("kind") == "exit" and v.get("ship") != sh.id and sh.icms_available() > 0:
            charge = world.ship(v["ship"])
            if (charge.owner == p and charge.status == 0 and charge.id in world.plots
                    and movement_phase.plotted_path(world, charge)[-1] == st.pos):
                bonus += self.cover
        return bonus


class _FocusCaptain(ScriptedCaptain):
    """The captain's plan for fleet actions with one shared target: instead of each ship closing on the
    enemy nearest to it (the fleet trickles in and spreads its fire), every ship closes on the same enemy,
    the focus (chosen each movement phase: the most valuable enemy for its remaining hull, nearest the
    fleet's centre), with weight ``focus``; fire then prefers it (``focus_fire``)."""

    def __init__(self, focus: float = 0.5, focus_fire: float = 1.5, **kw) -> None:
        super().__init__(**kw)
        self.focus = focus
        self.focus_fire = focus_fire
        self._focus: tuple | None = None  # (turn, half, target id)

    def focus_target(self, world, p: int):
        key = (world.turn, world.half)
        if self._focus is not None and self._focus[:2] == key:
            t = world.ship(self._focus[2])
            if t.status == 0:
                return t
        mine = [s for s in world.ships if s.owner == p and s.status == 0 and s.kind not in ("fighter",)]
        foes = [s for s in world.ships if s.owner != p and s.status == 0
                and not (s.docked is not None and s.kind in ("fighter", "scout"))]
        if not mine or not foes:
            return None
        cq = sum(s.pos[0] for s in mine) / len(mine)
        cr = sum(s.pos[1] for s in mine) / len(mine)
        centre = (round(cq), round(cr))

        def value(e):
            left = max(1, e.hp - e.dmg)
            return (e.points / left * (1 + e.dmg / e.hp)) / (1 + hexgrid.distance(centre, e.pos) / 6), e.id

        best = max(foes, key=value)
        self._focus = (key[0], key[1], best.id)
        return best

    def _objective_bonus(self, world, sh, st, speed: int, p: int) -> float:
        bonus = super()._objective_bonus(world, sh, st, speed, p)
        if self.focus and world.victory.get("kind") == "battle":
            t = self.focus_target(world, p)
            if t is not None:
                foes = [e for e in world.ships if e.owner != p and e.status == 0]
                nearest = min(hexgrid.distance(st.pos, e.pos) for e in foes)
                bonus += self.closing * nearest - self.focus * hexgrid.distance(st.pos, t.pos)
        return bonus

    def _fire(self, world, p: int, legal: list):
        t = self.focus_target(world, p) if self.focus_fire != 1.0 else None
        if t is None:
            return super()._fire(world, p, legal)
        best = None
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            firer = world.ship(a.ship)
            target = world.ship(a.target)
            value, chance = hx.shot_value(world, firer, a.weapon, target)
            code = firer.weapons[a.weapon][0]
            floor = 30 if firer.weapons[a.weapon][1] >= 0 else 10
            if code == "T" and target.kind in ("fighter", "scout"):
                floor = 60
            if chance < floor:
                continue
            if target.id == t.id:
                value *= self.focus_fire
            if best is None or value > best[0]:
                best = (value, a)
        if best is not None:
            return best[1]
        return m.Fire() if m.Fire() in legal else legal[0]


class _Safe:
    """A mixin for the captain's plans in fleet actions (``fleet.doomed``): a move that ends where every move
    next turn crashes into a planet costs ``doom`` (a lost ship), one where every move next turn carries the
    ship off the map costs ``doom`` / 2 (it leaves the battle; half its points to the enemy)."""

    doom = 0.0

    def _objective_bonus(self, world, sh, st, speed: int, p: int) -> float:
        bonus = super()._objective_bonus(world, sh, st, speed, p)
        if self.doom and speed > 0 and st.end == "" and sh.kind != "station":
            if fl.doomed(world.map, st.pos, st.facing, speed, sh.adf, sh.mr):
                bonus -= self.doom
            elif fl.doomed(world.map, st.pos, st.facing, speed, sh.adf, sh.mr, stay=True):
                bonus -= self.doom / 2
        return bonus


class _SafeCaptain(_Safe, ScriptedCaptain):
    """The captain's plan with the fleet safety checks of :class:`_Safe`."""

    def __init__(self, doom: float = 100.0, **kw) -> None:
        super().__init__(**kw)
        self.doom = doom


class _SafeFocusCaptain(_Safe, _FocusCaptain):
    """The focused plan with the fleet safety checks of :class:`_Safe`."""

    def __init__(self, doom: float = 100.0, **kw) -> None:
        super().__init__(**kw)
        self.doom = doom
