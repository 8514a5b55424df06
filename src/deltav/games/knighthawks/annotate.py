"""Notes on a seat's legal actions for clients (``KnightHawks.annotate_legal``): the numbers a screen shows
beside each control and that only the engine knows.

- ``course`` / ``orbit``: the break-up chance of a severely damaged ship for the speed change and rotation
  (``breakup``) and what each MR turn on the way adds (``per_point``); 0 for a sound ship.
- ``step``: the hex entered (``hex``), the facing after the turn (and any gravity deflection), ``end``
  (``crash`` / ``exit`` / ``""``), the MR points used so far (``turns``), the break-up chance of the whole
  move so far (``breakup``), ``forced`` when a navigation hit or evasion dictated it, the hexes entered so far
  (``path``, the start hex first), ``from`` (the hex the step leaves), ``done`` (hexes entered after it) and
  ``speed``.
- ``assign``: the shot as the engine will resolve it against what the seat knows of the target: ``hex``,
  ``range``, ``head_on``, the Combat Table ``column``, ``chance`` (the modified chance before ICMs), ``odds``
  (the percent of d100 rolls that hit, the automatic 5% and 96% results included), ``icm`` (the change per ICM
  the defender may fire), ``half`` (half damage), ``dtm`` (the weapon's Damage Table modifier) and ``hdr``.
- ``intercept``: the chance of the pending attack after those ICMs and evasion (``chance``, ``odds``).
- ``repair``: the odds of the d100 roll: ``success``, ``fail`` and ``lost`` (unrepairable in space), percent;
  ``left``, the ship's DCR not yet allocated this repair turn (the player's own allocations, in its view).
- ``lay``: the ``hex`` of the plotted path the trap is dropped in.
- ``end_movement``: ``paths``, the hexes each of the seat's plotted ships will pass through (its start first).

Computed from ``state.view(player)`` only (the enemy ships as that seat last saw them, its own plot in
progress), so a note never tells a seat what it may not know. Owns: annotation arithmetic by calling the
rules modules. Must not change the state, roll dice or do I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

from deltav.games.knighthawks import damage as dmg
from deltav.games.knighthawks import fire_phase, movement_phase
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.combat import (
    chance_to_hit,
    defense_column,
    half_damage,
    operating_defenses,
    roll_hits,
)
from deltav.games.knighthawks.movement import rotation_cost
from deltav.games.knighthawks.repair import outcome
from deltav.games.knighthawks.ships import Ship
from deltav.games.knighthawks.tables import tables

# --- the notes' JSON shapes (web/tools/gen_types.py writes the client's types from them) -------------------------

HexJson = tuple[int, int]


class CourseNoteJson(TypedDict):
    """A ``course`` or an ``orbit``: the break-up chance (percent) and what each MR turn on the way adds."""

    breakup: int
    per_point: int


#: A ``step`` of a plot (``from`` is a Python keyword: the functional form).
StepNoteJson = TypedDict("StepNoteJson", {
    "hex": HexJson, "facing": int, "end": Literal["crash", "exit", ""], "turns": int, "breakup": int, "forced": bool,
    "done": int, "speed": int, "from": HexJson, "path": list[HexJson]})
StepNoteJson.__doc__ = """A ``step`` of a plot: the hex entered, the facing after it, how the move ends (``end``), the MR
points used so far (``turns``), the move's break-up chance so far, whether a navigation hit or evasion forced it,
the hex it leaves (``from``), the hexes entered so far (``path``, the start first), hexes entered after it
(``done``) and the plotted ``speed``."""


class ShotNoteJson(TypedDict):
    """An ``assign``: the shot as the engine will resolve it against what the seat knows of the target."""

    hex: HexJson
    range: int
    head_on: bool
    column: str
    """The Combat Table column."""
    chance: int
    """The modified chance before ICMs."""
    odds: int
    """The percent of d100 rolls that hit (the automatic 5% and 96% results included)."""
    icm: int
    """The change per ICM the defender may fire."""
    half: bool
    dtm: int
    hdr: list[int]
    weapon: str


class InterceptNoteJson(TypedDict):
    """An ``intercept``: the pending attack's chance after those ICMs and evasion."""

    chance: int
    odds: int
    weapon: str
    column: str


class RepairNoteJson(TypedDict):
    """A ``repair``: the d100 roll's odds (percent) and the ship's DCR not yet allocated this repair turn."""

    success: int
    fail: int
    lost: int
    left: int


class LayNoteJson(TypedDict):
    hex: HexJson
    """The hex of the plotted path the trap is dropped in."""


class EndMovementNoteJson(TypedDict):
    paths: dict[str, list[HexJson]]
    """The hexes each of the seat's plotted ships will pass through (its start first), by ship id."""


class NotesJson(TypedDict):
    """The note of each kind of legal action that has one, by the action's ``type`` (``annotate``)."""

    course: CourseNoteJson
    orbit: CourseNoteJson
    step: StepNoteJson
    assign: ShotNoteJson
    intercept: InterceptNoteJson
    repair: RepairNoteJson
    lay: LayNoteJson
    end_movement: EndMovementNoteJson


def _excess(sh: Ship) -> int:
    """Break-up chance per ADF/MR point used (0 for a ship that is not severely damaged)."""
    return dmg.breakup_chance(sh.hp, sh.dmg, 1)


def _odds(chance: int, rules) -> int:
    """The percent of d100 rolls that hit at this modified chance (the automatic results included)."""
    return sum(1 for roll in range(1, 101) if roll_hits(roll, chance, rules))


def _course_note(sh: Ship, speed: int, facing: int) -> dict:
    pts = dmg.maneuver_points(sh.speed, speed, 0, rotation_cost(sh.facing, facing))
    return {"breakup": dmg.breakup_chance(sh.hp, sh.dmg, pts), "per_point": _excess(sh)}


def _step_note(state, sh: Ship, turn: int) -> dict:
    sid, speed, facing, turns = state.plotting
    before = movement_phase.replay_plot(state, sh, speed, facing, list(turns))
    st = movement_phase.replay_plot(state, sh, speed, facing, list(turns) + [turn])
    pts = dmg.maneuver_points(sh.speed, speed, st.turns, rotation_cost(sh.facing, facing))
    if state.rules.breakup_counts_gravity:
        pts += st.gturns
    forced = bool((sh.nav and sh.navdir) or (sh.evading and sh.mr > 0)) and turn != 0
    return {"hex": list(st.pos), "facing": st.facing, "end": st.end, "turns": st.turns,
            "breakup": dmg.breakup_chance(sh.hp, sh.dmg, pts), "forced": forced, "done": st.done,
            "speed": speed,
            "from": list(before.pos), "path": [list(h) for h in before.path]}


def _shot_note(state, firer: Ship, widx: int, target: Ship, defensive: bool) -> dict | None:
    code = firer.weapons[widx][0]
    geo = fire_phase.geometry(state, firer, code, target, defensive)
    if geo is None:
        return None
    h, dist, head = geo
    rules = state.rules
    col = defense_column(code, operating_defenses(target, rules), rules)
    half = half_damage(code, col)
    table = tables().combat[code]
    if firer.ms_turns > 0 and code in ("LC", "LB") and table["MS"] < table[col]:
        col, half = "MS", True  # fired out of the firer's own masking screen
    w = tables().weapons[code]
    chance = chance_to_hit(code, col, dist, head, firer.ccs)
    return {"hex": list(h), "range": dist, "head_on": head, "column": col, "chance": chance,
            "odds": _odds(chance, rules), "icm": w.icm, "half": half,
            "dtm": w.dtm, "hdr": list(w.hdr), "weapon": code}


def _intercept_note(state, ships: dict, a: m.Intercept) -> dict | None:
    k = fire_phase.pending_attack(state)
    if k < 0:
        return None
    src, _widx, code, tid, _h, dist, head = state.attacks[k][:7]
    tg = ships.get(tid)
    if tg is None:
        return None
    firer = ships.get(src)
    col = defense_column(code, operating_defenses(tg, state.rules), state.rules)
    ccs = firer.ccs if firer is not None else False
    chance = chance_to_hit(code, col, dist, head, ccs, a.icms, tg.mr if a.evade else 0)
    return {"chance": chance, "odds": _odds(chance, state.rules), "weapon": code, "column": col}


def _repair_note(points: int) -> dict:
    counts = {"repaired": 0, "failed": 0, "unrepairable": 0}
    for roll in range(1, 101):
        counts[outcome(points, roll)] += 1
    return {"success": counts["repaired"], "fail": counts["failed"], "lost": counts["unrepairable"]}


def annotate(state, player: int, actions: Sequence, view: Mapping | None = None) -> list[dict | None]:
    """One note (or None) per action of ``player``'s legal list, from that player's view only (``view``: that
    view already built, when the caller has it)."""
    if view is None:
        view = state.view(player)
    ships = {sj["id"]: Ship.from_json(sj) for sj in view["ships"]}
    defensive = state.fire_mode == "def"
    out: list[dict | None] = []
    for a in actions:
        t = type(a)
        note = None
        if t is m.Course:
            note = _course_note(ships[a.ship], a.speed, a.facing)
        elif t is m.Orbit:
            sh = ships[a.ship]
            note = {"breakup": dmg.breakup_chance(sh.hp, sh.dmg, dmg.maneuver_points(sh.speed, 0)),
                    "per_point": _excess(sh)}
        elif t is m.Step and state.plotting is not None:
            note = _step_note(state, ships[state.plotting[0]], a.turn)
        elif t is m.Assign:
            note = _shot_note(state, ships[a.ship], a.weapon, ships[a.target], defensive)
        elif t is m.Intercept:
            note = _intercept_note(state, ships, a)
        elif t is m.Repair:
            sh = ships[a.ship]
            spent = sum(x[3] for x in view.get("allocations", ()) if x[1] == a.ship)
            note = dict(_repair_note(a.points), left=sh.dcr(state.rules.dcr_rounding == "up") - spent)
        elif t is m.Lay:
            path = movement_phase.plotted_path(state, state.ship(a.ship))
            note = {"hex": list(path[a.at])} if 0 <= a.at < len(path) else None
        elif t is m.EndMovement:
            note = {"paths": {sid: [list(h) for h in movement_phase.plotted_path(state, state.ship(sid))]
                              for sid in state.plots if state.ship(sid).owner == player}}
        out.append(note)
    return out
