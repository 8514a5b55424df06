"""The Knight Hawks *hard* level: :class:`Admiral`, expected-exchange scoring of every candidate move and shot
(``fire_exchange.py``), the raiders' hunt, the escorted ship's momentum check (``escort.py``) and the fleet's doom
check (``planet_safety.py``); measurements in ``docs/bots-knighthawks.md``.

Owns: the admiral bot and its move helpers. Must not reach into the true game state.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.core.agent import Param
from deltav.core.protocol import Decision
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.bots import escort as es
from deltav.games.knighthawks.bots import fire_exchange as fx
from deltav.games.knighthawks.bots import heuristics as hx
from deltav.games.knighthawks.bots.move_scores import MoveScores
from deltav.games.knighthawks.bots.plans import _EscortCaptain, _SafeCaptain, _SafeFocusCaptain
from deltav.games.knighthawks.bots.scripted import WEIGHT, ScriptedCaptain, _Still, shot_geometry
from deltav.games.knighthawks.damage import breakup_chance
from deltav.games.knighthawks.movement import advance, rotation_cost, start_plot


class Admiral(ScriptedCaptain):
    """The hard level. Moves: in battles and assaults (``move="auto"``) every candidate move of a ship (the
    captain's turn patterns plus a single turn at every hex, at every speed) is scored by the expected
    exchange of fire it leads to (``fire_exchange``): its offense from the end hex and facing with the real defense
    columns, ICMs and head-on row, minus the enemy's defensive fire along its path, minus the enemy's reach
    next turn, plus its own reach, with the map-edge momentum check and break-up risk. Fire: every shot
    valued by its exact expected damage with the damage already declared on each target counted (focus fire,
    no overkill), the scenario's key ship counted double, limited rounds kept for 35% (torpedoes) / 25% odds.
    ICMs, screens, seekers and repairs as the captain.

    Escort (``exit``) scenarios: the raiders plot with the exchange scoring plus ``raid_hunt`` (1.5) per hex
    of distance to the ship that must get away (they converge on it instead of trading with the escorts)
    and fire with the admiral's rule; the escorting side plays the captain's plan and fire (measured better
    for it than the exchange scoring and the admiral's fire) with ``safe``: the escorted ship never ends a
    move from which its momentum must carry it off the wrong edge within two turns (also if a steering hit
    took its MR) and weighs break-up risk as the lost game it is (``escort.next_outcomes``).
    ``runner=True`` scores the escorted ship's moves by ``escort.runner_score`` instead (measured weaker),
    ``cover`` > 0 makes escorts with ICMs end in its hex (no measured gain).

    Fleet actions: with more than ``fleet_limit`` (4) ships a side at the start (the fleet battle) the
    admiral plays the captain's plan with three corrections (session 2, round 2): the **doom check**
    (``fleet.doomed``, weight ``doom`` 100: never end a move from which every move next turn crashes into a
    planet, nor, at half the weight, one from which every move next turn leaves the map), break-up risk
    weighted ``fleet_breakup`` (2, the captain's 0.5) per percent, and the captain's fire (``fleet_fire``:
    ``captain``; ``admiral``: the admiral's exact expected-value fire from both seats). ``focus_when`` (``never``;
    ``weaker``, ``always``) switches on the focused plan of round 1 (``_FocusCaptain``: every ship closes on
    one shared target), measured no better. The exchange scoring and the admiral's fire for the stronger
    side were measured weaker there.

    Parameters (``bot:admiral:threat=0.3``): ``exposure`` 0.8, ``threat`` 0.2, ``reach`` 0.25, ``closing``
    0.0 (weights of the move score), ``hunt`` 0.5 (raiders' weight with ``move="exchange"``), ``move``
    (``auto``, ``exchange`` everywhere, ``scripted`` everywhere), ``fire`` (``auto``: the captain's for the
    escorting side, the admiral's elsewhere; ``admiral``; ``captain``). Rollouts of the top candidate moves,
    an exact ICM rule, an exact best-reply threat and the exact fire of the weaker fleet were tried, measured
    weaker and removed (docs/bots-knighthawks.md)."""

    name = "admiral"
    #: the spec parameters (``bot:admiral:threat=0.3``) and their bounds: weights, odds floors and switches
    PARAMS = {
        "exposure": Param(float, 0.8, "weight of the enemy's defensive fire along the path", **WEIGHT),
        "threat": Param(float, 0.2, "weight of the enemy's reach next turn", **WEIGHT),
        "reach": Param(float, 0.25, "weight of its own reach next turn", **WEIGHT),
        "closing": Param(float, 0.0, "weight of the distance to the nearest enemy", **WEIGHT),
        "hunt": Param(float, 0.5, "raiders' weight of the distance to their quarry (move=exchange)", **WEIGHT),
        "move": Param(str, "auto", "who plots: auto, exchange everywhere, scripted everywhere",
                      choices=("auto", "scripted", "exchange")),
        "torpedo_floor": Param(float, 0.35, "the least odds a torpedo is fired at", minimum=0.0, maximum=1.0),
        "ltd_floor": Param(float, 0.25, "the least odds a limited-round weapon is fired at", minimum=0.0,
                           maximum=1.0),
        "fleet_limit": Param(int, 4, "ships a side above which the fleet-battle plan is played", minimum=0,
                             maximum=100),
        "runner": Param(bool, False, "score the escorted ship's moves by the runner score"),
        "danger": Param(float, 1.0, "the runner score's weight of danger", **WEIGHT),
        "progress": Param(float, 20.0, "the runner score's weight of progress", minimum=-1000.0, maximum=1000.0),
        "fleet_breakup": Param(float, 2.0, "fleet battles: weight of each percent of break-up risk", **WEIGHT),
        "raid_hunt": Param(float, 1.5, "raiders' weight per hex of distance to the escorted ship", **WEIGHT),
        "fire": Param(str, "auto", "whose fire rule: auto, admiral or captain", choices=("auto", "admiral", "captain")),
        "cover": Param(float, 0.0, "escorts with ICMs end in the escorted ship's hex (weight)", **WEIGHT),
        "safe": Param(bool, True, "the escorted ship never ends where momentum must carry it off the wrong edge"),
        "focus": Param(float, 0.5, "the focused plan's weight of closing on the shared target", **WEIGHT),
        "focus_fire": Param(float, 1.5, "the focused plan's weight of fire on the shared target", **WEIGHT),
        "focus_when": Param(str, "never", "when the focused plan is played", choices=("weaker", "always", "never")),
        "doom": Param(float, 100.0, "fleet battles: weight of a move that dooms the ship", minimum=0.0,
                      maximum=1000.0),
        "fleet_fire": Param(str, "captain", "fleet battles: whose fire rule", choices=("captain", "admiral")),
    }

    def __init__(self, exposure: float = 0.8, threat: float = 0.2, reach: float = 0.25,
                 closing: float = 0.0, hunt: float = 0.5, move: str = "auto",
                 torpedo_floor: float = 0.35, ltd_floor: float = 0.25,
                 fleet_limit: int = 4, runner: bool = False, danger: float = 1.0, progress: float = 20.0,
                 fleet_breakup: float = 2.0, raid_hunt: float = 1.5, fire: str = "auto",
                 cover: float = 0.0, safe: bool = True, focus: float = 0.5, focus_fire: float = 1.5,
                 focus_when: str = "never", doom: float = 100.0, fleet_fire: str = "captain") -> None:
        super().__init__(closing=closing)
        self.runner = runner
        self.w_danger = danger
        self.w_progress = progress
        if move not in ("auto", "scripted", "exchange"):
            raise ValueError(f"move must be auto, scripted or exchange, not {move!r}")
        self.move = move
        self.fleet_limit = fleet_limit
        self._captain = _SafeCaptain(doom, breakup=fleet_breakup)
        self._focused = _SafeFocusCaptain(doom, focus=focus, focus_fire=focus_fire, breakup=fleet_breakup)
        if fleet_fire not in ("captain", "admiral"):
            raise ValueError(f"fleet_fire must be captain or admiral, not {fleet_fire!r}")
        self.fleet_fire = fleet_fire
        if focus_when not in ("weaker", "always", "never"):
            raise ValueError(f"focus_when must be weaker, always or never, not {focus_when!r}")
        self.focus_when = focus_when
        self._fleet_bot: tuple | None = None  # (turn, half, bot, exact fire) chosen for the current side turn
        self.fleet_breakup = fleet_breakup
        self.raid_hunt = raid_hunt
        self.cover = cover
        self.safe = safe
        if fire not in ("auto", "admiral", "captain"):
            raise ValueError(f"fire must be auto, admiral or captain, not {fire!r}")
        self.fire = fire
        self._fleet: int | None = None
        self.torpedo_floor = torpedo_floor
        self.ltd_floor = ltd_floor
        self.hunt = hunt
        self.w_exposure = exposure
        self.w_threat = threat
        self.w_reach = reach

    def act(self, decision: Decision):
        if self._fleet is None:  # the size of our fleet at the start of the action
            self._fleet = sum(1 for s in decision.view["ships"] if s["owner"] == decision.player)
        if self.fleet_limit and self._fleet > self.fleet_limit:
            return self._fleet_action(decision)
        return super().act(decision)

    def _fleet_action(self, decision: Decision):
        """Fleet actions: the captain's plan with the doom check and break-up weight (``_SafeCaptain``); when
        our fleet is the weaker one (surviving points, each ship's points scaled by its remaining hull) and
        ``focus_when="weaker"``, the focused plan (``_SafeFocusCaptain``); with ``fleet_fire="admiral"`` the
        admiral's exact fire. Chosen once per side turn so a plot is never split between plans."""
        v = decision.view
        key = (v["turn"], v["half"])
        if self._fleet_bot is None or self._fleet_bot[:2] != key:
            weaker = _fleet_strength(v, decision.player) < 0
            bot = self._captain
            if self.focus_when == "always" or (self.focus_when == "weaker" and weaker):
                bot = self._focused
            exact = self.fleet_fire == "admiral"
            self._fleet_bot = (key[0], key[1], bot, exact)
        if self._fleet_bot[3] and any(isinstance(a, (m.Assign, m.Fire)) for a in decision.legal_actions):
            return ScriptedCaptain.act(self, decision)  # dispatches to the admiral's exact-value fire
        return self._fleet_bot[2].act(decision)

    def _analytic(self, world, p: int, sh, options: list) -> list:
        """Every candidate plan of ``sh`` with its analytic score: [(score, course action, turns, plot)]."""
        navdir = sh.navdir if sh.nav else 0
        evading = sh.evading and sh.mr > 0
        mine = [s for s in world.ships if s.owner == p and s.status == 0 and s.docked is None]
        share = {}
        for e in world.ships:
            if e.owner != p and e.status == 0:
                share[e.id] = max(1, sum(1 for s in mine if hexgrid.distance(s.pos, e.pos) <= 12))
        foes = [s for s in world.ships if s.owner != p and s.status == 0]
        v = world.victory
        charge = world.ship(v["ship"]) if v.get("kind") == "exit" else None
        if charge is not None and (charge.owner == p or charge.status != 0):
            charge = None
        hunt = self.raid_hunt if self.move == "auto" else self.hunt
        ms = MoveScores(world, sh, p, share)
        out = []
        for a in options:
            if a.speed == 0:
                cands = [((), _Still(sh.pos, a.facing))]
            else:
                cands = _more_plans(world, sh, a.speed, a.facing, navdir, evading)
            for turns, st in cands:
                if st.end == "exit" and not (world.victory.get("kind") == "exit"
                                             and world.victory.get("ship") == sh.id):
                    continue
                path = st.path if a.speed else (sh.pos,)
                score = ms.offense(st.pos, st.facing)
                score -= self.w_exposure * ms.exposure(path)
                score -= self.w_threat * ms.threat(st.pos)
                score += self.w_reach * ms.potential(st.pos)
                if foes and self.closing:  # (0.0 times a distance would leave the score as it is)
                    score -= self.closing * min(hexgrid.distance(st.pos, e.pos) for e in foes)
                edge = world.map.radius - hexgrid.length(st.pos)
                if edge < 3:
                    score -= (3 - edge) * 2.0 + a.speed * 0.3
                score -= _momentum_penalty(world, sh, st, a.speed)
                score += self._objective_bonus(world, sh, st, a.speed, p)
                if charge is not None:  # raiders: close on the ship that must get away
                    score -= hunt * hexgrid.distance(st.pos, charge.pos)
                if sh.severe():
                    used = abs(a.speed - sh.speed) + sum(1 for t in turns if t) + rotation_cost(sh.facing, a.facing)
                    score -= breakup_chance(sh.hp, sh.dmg, used) / 100 * 60 * fx.worth(sh) / 2
                if sh.docked is not None and a.speed == 0:
                    score += 0.2
                if sh.ms_turns >= 99 and (a.speed != sh.speed or a.facing != sh.facing or any(turns)
                                          or st.facing != sh.facing):
                    score -= 4.0
                out.append((score, a, tuple(turns), st))
        out.sort(key=lambda x: (-x[0], x[1].speed, x[1].facing, x[2]))
        return out

    def _plot(self, world, p: int, sh, options: list):
        v = world.victory
        if self.runner and v.get("kind") == "exit" and v.get("ship") == sh.id:
            return self._runner_plot(world, p, sh, options)
        kinds = {"auto": ("exit",), "scripted": ("exit", "destroy", "battle"), "exchange": ()}[self.move]
        use_captain = v.get("kind") in kinds or (v.get("kind") == "exit" and v.get("ship") == sh.id)
        if self.move == "auto" and v.get("kind") == "exit" and world.ship(v["ship"]).owner != p:
            use_captain = False  # raiders: the exchange scoring, hunting the escorted ship (raid_hunt)
        if use_captain:
            # measured: for the escorts the captain's plan beats the exchange plot (with ``cover``: a ship
            # with ICMs ends in the escorted ship's hex)
            cap = _EscortCaptain(self.cover, self.safe)
            a = cap._plot(world, p, sh, options)
            self.plan = cap.plan
            return a
        ranked = self._analytic(world, p, sh, options)
        if not ranked:
            self.plan = (sh.id, (), 0)
            return options[0]
        _s, a, turns, _st = ranked[0]
        self.plan = (sh.id, turns, 0)
        return a

    def _runner_plot(self, world, p: int, sh, options: list):
        """The escorted ship's move: every candidate plan scored by ``escort.runner_score`` (get away on the
        right edge, never be carried off elsewhere, progress, the raiders' fire, break-up risk)."""
        navdir = sh.navdir if sh.nav else 0
        evading = sh.evading and sh.mr > 0
        best = None
        for a in options:
            if a.speed == 0:
                cands = [((), _Still(sh.pos, a.facing))]
            else:
                cands = _more_plans(world, sh, a.speed, a.facing, navdir, evading)
            for turns, st in cands:
                if a.speed == 0:
                    st = _Still(sh.pos, a.facing)
                score = es.runner_score(world, sh, a, tuple(turns), st, p, self.w_danger, self.w_progress)
                key = (score, a.speed, -a.facing, tuple(turns))
                if best is None or key > best[0]:
                    best = (key, a, tuple(turns))
        return self._commit(sh, best, options)

    def _fire(self, world, p: int, legal: list):
        if self.fire == "captain" or (self.fire == "auto" and world.victory.get("kind") == "exit"
                                      and world.ship(world.victory["ship"]).owner == p):
            return ScriptedCaptain._fire(self, world, p, legal)
        defensive = world.fire_mode == "def"
        extra: dict[str, float] = {}
        for d in world.declared:
            tg = world.ship(d[3])
            prob, half = fx.hit_chance(world, d[2], tg, d[5], d[6], world.ship(d[0]).ccs)
            extra[d[3]] = extra.get(d[3], 0.0) + prob * hx.hit_value(d[2]) * (0.6 if half else 1.0)
        best = None
        lines: dict = {}
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            firer = world.ship(a.ship)
            target = world.ship(a.target)
            code, n = firer.weapons[a.weapon][0], firer.weapons[a.weapon][1]
            g = shot_geometry(world, firer, code, target, defensive, lines)
            if g is None:
                continue
            prob, half = fx.hit_chance(world, code, target, g[1], g[2], firer.ccs, firer.ms_turns > 0)
            left = target.hp - target.dmg
            have = extra.get(target.id, 0.0)
            value = (prob * hx.hit_value(code) * (0.6 if half else 1.0) * fx.worth(target, have)
                     * fx.objective_factor(world, target))
            if have > left * 1.5:
                value *= 0.3  # already likely dead: spread the fire
            if n >= 0:  # limited rounds: keep them for decent odds
                floor = self.torpedo_floor if code == "T" else self.ltd_floor
                if prob < floor:
                    continue
            key = (value, -a.weapon, a.ship, a.target)
            if best is None or key > best[0]:
                best = (key, a)
        if best is not None:
            return best[1]
        return m.Fire() if m.Fire() in legal else legal[0]


def _fleet_strength(view: dict, p: int) -> float:
    """Our surviving strength minus the enemy's from a view: each active ship's points scaled by the share of
    its hull left."""
    total = 0.0
    for s in view["ships"]:
        if s["status"] != "active":
            continue
        v = s["points"] * max(0, s["hp"] - s["damage"]) / max(1, s["hp"])
        total += v if s["owner"] == p else -v
    return total


def _momentum_penalty(world, sh, st, speed: int) -> float:
    """A ship ending fast near the map edge may be unable to stay in the battle next turn (it must move at
    least speed - ADF hexes, turning at most MR times): a penalty when the hexes ahead leave the map."""
    if st.end == "exit" or speed == 0:
        return 0.0
    ahead = max(0, speed - sh.adf) - max(0, sh.mr - 1)
    if ahead <= 0:
        return 0.0
    d = hexgrid.DIRECTIONS[st.facing % 6]
    h = (st.pos[0] + d[0] * ahead, st.pos[1] + d[1] * ahead)
    over = hexgrid.length(h) - world.map.radius
    return 0.0 if over <= 0 else 20.0 + 5.0 * over


_MORE: dict = {}  # (map key, pos, mr, speed, facing) -> _more_plans() of a ship free to turn (pure movement)


def _more_plans(world, sh, speed: int, facing: int, navdir: int, evading: bool):
    """The scripted captain's turn patterns plus a single turn at every hex of the move (a new list, cached
    per map, hex, MR, speed and facing across states)."""
    if sh.mr <= 0 or navdir or evading or speed <= 1:
        return hx.plans(world, sh, speed, facing, navdir, evading)
    key = (world.map.key(), sh.pos, sh.mr, speed, facing)
    got = _MORE.get(key)
    if got is None:
        if len(_MORE) > 3_000:  # about 9 KB an entry
            _MORE.clear()
        got = _MORE[key] = tuple(_single_turns(world, sh, speed, facing))
    return list(got)


def _single_turns(world, sh, speed: int, facing: int) -> list:
    """The uncached body of ``_more_plans`` for a ship free to turn (no navigation hit, not evading)."""
    out = hx.plans(world, sh, speed, facing, 0, False)
    seen = {t for t, _st in out}
    for d in (1, -1):
        for at in range(speed):
            t = tuple(d if i == at else 0 for i in range(speed))
            if t in seen:
                continue
            seen.add(t)
            st = start_plot(sh.pos, facing)
            ok = True
            for x in t:
                if st.end:
                    break
                nxt = advance(world.map, st, x, speed)
                if nxt is None:
                    ok = False
                    break
                st = nxt
            if ok and st.end != "crash":
                out.append((t, st))
    return out
