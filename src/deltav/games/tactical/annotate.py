"""Notes on the legal actions of Delta-V tactical, for clients that show what an action would do (the browser's
course preview and odds preview): ``annotate_legal(state, player, actions)`` returns one plain-JSON object (or
None) per action, in order.

- ``order``: the course preview of ``preview.preview_course`` (path, destination, velocity after, fuel after,
  landing or crash with the body and hex, off-map and escape, gravity queued for the next move, orbit after),
  plus the ship's position and velocity before (``start``, ``velocity_before``) so a client can draw
  v + burn = v', and ``warnings``: what can happen on that course besides a crash (a ram, a capture, ordnance
  met this movement or crossing the end hex on the enemy's next move, enemy planetary defense), from what the
  player sees (course_risks.py). Only the player's own ships get orders, and their state is fully known to
  their owner.
- ``fire``: the odds preview of the attack (strengths, odds column, range and velocity modifiers, heroism, the
  chance of each result) and whether the target can counterattack, judged from the ships ``player`` can see (a
  hidden enemy ship never counts, so a note never reveals one).
- ``add_attacker``: the ship's combat strength, the targets the group would see with it and the odds preview
  of the group with it at each of them.
- ``end_combat``: for every target some free ship sees, the attack of all of them together (``attacks``).
- ``buy``: the item's cost and the credits left after it.
- ``end_ordnance``: ``unavailable``, every kind the scenario allows that a ship of the player's in play cannot
  launch now, with the rule it breaks and the reason in words (a second launch: one item per ship per turn).
- ``launch``: the launch preview: where the item starts (the ship's pre-move hex), its velocity (the ship's
  pre-burn velocity plus a torpedo's boost), its move this turn (``path``, ``contact``, ``destination``), the
  first thing in its way on that move (``first_hit``: a body's surface, an asteroid, a base, or the ships and
  other ordnance it would meet, as the movement step checks them), whether it ends off the map, its drift on the next move
  (``next_path``, ``next_destination``, gravity included) and how many moves it lasts (``turns``). Own ships
  count with this turn's orders; enemy ships only where the player sees them. Other ordnance is placed where it
  will be (the player's items at their drift hex), though one of them may go off on its own move first.

This module reads the state and the combat tables; it never changes the state and does no I/O. What a note may
hold is checked against ``state.secret_tokens(player)`` by tests/tactical/test_annotate.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict

from . import combat as cb
from . import ordnance_tables as ot
from .combat_phase import _free_attackers, _policy, combatant, nuke_targets, ship_targets
from .course_risks import CourseRisks
from .courses import orderable
from .fleet import _cost, _left
from .messages import AddAttacker, Buy, EndCombat, EndOrdnance, Fire, Launch, Order
from .model import hkey
from .movement import _trace, drift_destination
from .preview import preview_course
from .shiptypes import ship_data

RESULT_LABELS = ("-", "D1", "D2", "D3", "D4", "D5", "E")


# --- the notes' JSON shapes (web/tools/gen_types.py writes the client's types from them) -------------------------

class GravityQueuedJson(TypedDict):
    """A gravity hex the course enters: its pull applies on the next move (unless ``ignored``, a weak one)."""

    hex: str
    dir: int
    body: str
    weak: bool
    ignored: bool


class FiguresJson(TypedDict):
    """A roll's figures for one ship: die faces out of 6 of each result ("-", "D1".."D5", "E")."""

    chances: dict[str, int]
    hit_chance: int
    """Faces that damage it."""
    destroy_chance: int
    """Faces that eliminate it, with the damage it already has."""


class CourseWarningJson(FiguresJson):
    """What else can happen on a course (course_risks.py; docs/tactical.md "Course warnings")."""

    kind: Literal["capture", "ram", "mine", "torpedo", "nuke", "planetary_defense"]
    when: Literal["movement", "enemy_movement", "enemy_combat"]
    hex: str
    ship: str | None
    """The enemy ship of a ram or a capture."""
    ordnance: str | None
    base: str | None
    """The firing base's hex."""
    own: bool
    """The item is the player's own."""
    odds: str | None
    """"2:1" for planetary defense."""
    enemy: FiguresJson | None
    """A ram: the enemy ship's figures."""
    text: str


class OrderNoteJson(TypedDict):
    """An ``order``'s note: the course preview (``preview.CoursePreview.to_json``), where the ship starts and its
    velocity and fuel before, and the course's warnings."""

    ship: str
    path: list[str]
    contact: list[str]
    destination: str
    velocity: tuple[int, int]
    fuel_spent: int
    fuel_after: int | None
    gravity_queued: list[GravityQueuedJson]
    ignorable_weak: list[str]
    outcome: Literal["normal", "landing", "crash"]
    body: str | None
    crash_hex: str | None
    off_map: bool
    escapes: bool
    orbit_after: str | None
    start: str
    velocity_before: tuple[int, int]
    fuel_before: int | None
    warnings: list[CourseWarningJson]


class CounterJson(TypedDict):
    """The counterattack a target's side can make after an attack."""

    ships: list[str]
    target: str
    attack: int
    defence: int
    odds: str
    range_mod: int
    velocity_mod: int
    heroism: int
    chances: dict[str, int]


class OddsJson(TypedDict):
    """The odds preview of an attack (a ``fire`` note): ``gun`` at a ship, or ``anti_nuke`` at an enemy nuke."""

    kind: Literal["gun", "anti_nuke"]
    target: str
    attack: int
    defence: int
    odds: str
    range_mod: int
    velocity_mod: int
    heroism: int
    chances: dict[str, int]
    """Die faces out of 6 of each result ("-", "D1".."D5", "E")."""
    counter: CounterJson | None
    group_strength: NotRequired[int]
    """A gun attack: the group's full strength (``attack`` is the strength declared)."""
    hit_chance: NotRequired[int]
    """A gun attack: faces that damage the target."""
    target_disabled: NotRequired[int]
    destroy_chance: NotRequired[int]
    """An anti-nuke attack: faces that destroy the nuke."""


class AllInJson(OddsJson):
    """The attack of every free ship that sees the target, together."""

    ships: list[str]


class AddAttackerNoteJson(TypedDict):
    strength: int
    targets: list[str]
    """The targets the group would see with this ship (ships, then nukes)."""
    attacks: dict[str, OddsJson]
    """The group's odds at each ship target, by its id."""


class EndCombatNoteJson(TypedDict):
    attacks: dict[str, AllInJson]


class UnavailableJson(TypedDict):
    """A kind of ordnance a ship cannot launch now, with the rule it breaks, in words."""

    ship: str
    kind: str
    rule: str
    reason: str


class EndOrdnanceNoteJson(TypedDict):
    unavailable: list[UnavailableJson]


class BuyNoteJson(TypedDict):
    cost: int
    credits_left: int


class FirstHitJson(TypedDict):
    """The first thing a launched item meets on its first move."""

    what: Literal["body", "asteroid", "base", "ships", "ordnance"]
    hex: str
    body: NotRequired[str]
    ships: NotRequired[list[str]]
    own: NotRequired[list[str]]
    ordnance: NotRequired[list[str]]


class LaunchNoteJson(TypedDict):
    """A ``launch``'s note: the item's first move and what it meets, its drift on the next move, its lifetime."""

    kind: Literal["mine", "torpedo", "nuke"]
    start: str
    velocity: tuple[int, int]
    path: list[str]
    contact: list[str]
    destination: str
    first_hit: FirstHitJson | None
    off_map: bool
    next_path: list[str]
    next_destination: str
    turns: int


class NotesJson(TypedDict):
    """The note of each kind of legal action that has one, by the action's ``type`` (``annotate_legal``)."""

    order: OrderNoteJson
    fire: OddsJson
    add_attacker: AddAttackerNoteJson
    end_combat: EndCombatNoteJson
    launch: LaunchNoteJson
    end_ordnance: EndOrdnanceNoteJson
    buy: BuyNoteJson


def annotate_legal(state, player: int, actions: Sequence) -> list[dict | None] | None:
    """One note per action (None where there is nothing to add); None when no action has a note."""
    notes: list[dict | None] = []
    hidden: set[str] | None = None
    any_note = False
    risks: CourseRisks | None = None
    for a in actions:
        note = None
        if isinstance(a, Order):
            if risks is None:
                if hidden is None:
                    hidden = state.secret_tokens(player)
                risks = CourseRisks(state, player, hidden)
            note = _order_note(state, a, risks)
        elif isinstance(a, Fire):
            if hidden is None:
                hidden = state.secret_tokens(player)
            note = _fire_note(state, player, a, hidden)
        elif isinstance(a, AddAttacker):
            if hidden is None:
                hidden = state.secret_tokens(player)
            note = _attacker_note(state, a, player, hidden)
        elif isinstance(a, EndCombat):
            if hidden is None:
                hidden = state.secret_tokens(player)
            note = _all_in(state, player, hidden)
        elif isinstance(a, Launch):
            if hidden is None:
                hidden = state.secret_tokens(player)
            note = _launch_note(state, player, a, hidden)
        elif isinstance(a, EndOrdnance):
            note = _unavailable_launches(state, player)
        elif isinstance(a, Buy):
            cost = _cost(a.item)
            note = {"cost": cost, "credits_left": _left(state, player) - cost}
        any_note = any_note or note is not None
        notes.append(note)
    return notes if any_note else None


def _order_note(state, a: Order, risks: CourseRisks) -> dict:
    sh = state.ship(a.ship)
    pv = preview_course(state, a.ship, a)
    note = pv.to_json()
    note["start"] = hkey(sh.pos)
    note["velocity_before"] = [sh.vel[0], sh.vel[1]]
    note["fuel_before"] = sh.fuel
    note["warnings"] = risks.warnings(sh, pv)
    return note


def _launch_note(state, player: int, a: Launch, hidden: set[str]) -> dict | None:
    """Where the launched item goes on its first move and what it meets there (the order of the movement
    step's checks: a body's surface anywhere on the move first, then hex by hex an asteroid, a base, ships)."""
    sh = state.ship(a.ship)
    if sh is None:
        return None
    gmap = state.gmap
    grazing = state.options["grazing_is_contact"]
    start = sh.pos
    vel = ot.launch_velocity(sh.vel, a.boost_dir, a.boost)
    dest = drift_destination(start, vel, ())
    path, definite, contact = _trace(start, dest, grazing)
    pending = tuple(g[0] for g in (gmap.gravity.get(h) for h in definite[1:]) if g is not None)
    # where each ship is during this movement: own ships by this turn's orders, the others sit still
    where: list[tuple] = []
    for x in state.ships:
        if x.destroyed or x.id == sh.id or (x.owner != player and x.id in hidden):
            continue
        if x.owner == player and orderable(x):
            c = preview_course(state, x.id, state.orders.get(x.id))
            hexes = tuple(c.contact[1:]) if len(c.contact) >= 2 else (x.pos,)
        else:
            hexes = (x.pos,)
        where.append((x, hexes))
    # other ordnance where it will be: the player's own items move first (to their drift hex), the rest sit
    items = [(o, drift_destination(o.pos, o.vel, o.pending) if o.owner == player else o.pos)
             for o in state.ordnance if not o.destroyed and (o.owner == player or o.id not in hidden)]
    first = None
    body_i = next((i for i, h in enumerate(contact) if h in gmap.surface), None)
    if body_i is not None:
        first = {"what": "body", "hex": hkey(contact[body_i]), "body": gmap.surface[contact[body_i]]}
    else:
        for i, h in enumerate(contact):
            if h in gmap.asteroids and h not in state.destroyed_asteroids:
                first = {"what": "asteroid", "hex": hkey(h)}
                break
            if h in gmap.base and h not in state.destroyed_bases:
                first = {"what": "base", "hex": hkey(h)}
                break
            met = [x.id for x, hexes in where if h in hexes and not (i == 0 and x.owner == player)
                   and (a.kind == "nuke" or not x.landed)]
            others = [o.id for o, oh in items if oh == h and not (i == 0 and o.owner == player)]
            if met or others:
                first = {"what": "ships" if met else "ordnance", "hex": hkey(h), "ships": sorted(met),
                         "own": sorted(m for m in met if state.ship(m).owner == player), "ordnance": sorted(others)}
                break
    vel2 = (dest[0] - start[0], dest[1] - start[1])
    dest2 = drift_destination(dest, vel2, pending)
    path2, _d2, _c2 = _trace(dest, dest2, grazing)
    return {
        "kind": a.kind, "start": hkey(start), "velocity": [vel[0], vel[1]],
        "path": [hkey(h) for h in path], "contact": [hkey(h) for h in contact], "destination": hkey(dest),
        "first_hit": first, "off_map": first is None and gmap.off_map(dest),
        "next_path": [hkey(h) for h in path2], "next_destination": hkey(dest2),
        "turns": ship_data().ordnance_lifetime,
    }


def _unavailable_launches(state, player: int) -> dict:
    """For ``end_ordnance``'s note: every kind the scenario allows that one of the player's ships in play cannot
    launch now, with the rule it breaks (``ordnance_tables.launch_error``): a screen says why instead of
    guessing (a second launch breaks "one item per ship per turn", not the cargo rule)."""
    from .ordnance import launch_refusal

    out = []
    for sh in state.ships:
        if sh.owner != player or sh.destroyed:
            continue
        for kind in state.rules.allowed_ordnance:
            err = launch_refusal(state, sh, kind)
            if err is not None:
                out.append({"ship": sh.id, "kind": kind, "rule": err[0], "reason": err[1]})
    return {"unavailable": out}


def _attacker_note(state, a: AddAttacker, player: int, hidden: set[str]) -> dict:
    sh = state.ship(a.ship)
    cs = state.combat
    group = (a.ship,) if cs.allocated else cs.group + (a.ship,)
    targets = ship_targets(state, group)
    members = [state.ship(x) for x in group]
    return {
        "strength": combatant(sh).strength,
        "targets": [t.id for t in targets] + [o.id for o in nuke_targets(state, group)],
        "attacks": {t.id: _odds(state, members, t, None, hidden) for t in targets},
    }


def _all_in(state, player: int, hidden: set[str]) -> dict:
    """For ``end_combat``'s note: for every ship target, the attack of every free ship that sees it (with the
    group already formed), as the preview of "everyone fires at this one"."""
    cs = state.combat
    free = [sh for sh in _free_attackers(state) if sh.id not in cs.group]
    base = () if cs.allocated else cs.group
    out = {}
    seen = set()
    for sh in free:
        for t in ship_targets(state, base + (sh.id,)):
            seen.add(t.id)
    for tid in sorted(seen):
        t = state.ship(tid)
        group = base + tuple(sh.id for sh in free if t in ship_targets(state, base + (sh.id,)))
        members = [state.ship(x) for x in group]
        out[tid] = {"ships": list(group), **_odds(state, members, t, None, hidden)}
    return {"attacks": out}


def _chances(column: int, penalty: int) -> dict:
    counts = cb.result_counts(column, penalty)
    return {RESULT_LABELS[i]: n for i, n in enumerate(counts) if n}


def _fire_note(state, player: int, a: Fire, hidden: set[str]) -> dict | None:
    cs = state.combat
    members = [state.ship(x) for x in cs.group]
    target = state.ship(a.target)
    if target is None:  # an enemy nuke: fixed odds, range and velocity, no counterattack
        nuke = next((o for o in state.ordnance if o.id == a.target), None)
        if nuke is None:
            return None
        atk = [combatant(m) for m in members]
        rmod = cb.group_range_modifier(atk, nuke.pos)
        vmod = cb.group_velocity_modifier(atk, nuke.vel)
        column = cb.ANTI_NUKE_ODDS
        chances = _chances(column, rmod + vmod)
        return {
            "kind": "anti_nuke", "target": a.target, "attack": sum(x.strength for x in atk), "defence": 0,
            "odds": cb.ODDS_LABELS[column], "range_mod": rmod, "velocity_mod": vmod, "heroism": 0,
            "chances": chances, "destroy_chance": 6 - chances.get("-", 0), "counter": None,
        }
    return _odds(state, members, target, a.strength, hidden)


def _odds(state, members: list, target, declared: int | None, hidden: set[str]) -> dict:
    """The odds preview of ``members`` firing at ship ``target`` with ``declared`` strength (None: all of it),
    the counterattack judged from the ships outside ``hidden``."""
    atk = [combatant(m) for m in members]
    full = sum(x.strength for x in atk)
    strength = full if declared is None else declared
    tc = combatant(target)
    column = cb.odds_column(strength, tc.strength)
    rmod, vmod, heroic = cb._group_modifiers(atk, target.pos, target.vel)
    bonus = cb.HEROISM_BONUS if heroic else 0
    chances = _chances(column, rmod + vmod - bonus)
    counters = []
    for sh in state.ships:
        if sh.owner != target.owner or sh.destroyed or sh.id in hidden:
            continue
        if cb.can_counterattack(combat=sh.type.combat, defensive_only=sh.type.defensive, disabled_turns=sh.disabled,
                                policy=_policy(sh), active=not sh.landed, resupplied=sh.resupplied,
                                own_control=sh.control == "own"):
            counters.append(combatant(sh))
    cgroup = cb.counter_group(tc, counters)
    counter = None
    if cgroup:
        primary = cb.primary_attacker(atk)
        cstrength = sum(c.strength for c in cgroup)
        ccol = cb.odds_column(cstrength, full)
        crm, cvm, cheroic = cb._group_modifiers(cgroup, primary.position, primary.velocity)
        cbonus = cb.HEROISM_BONUS if cheroic else 0
        counter = {
            "ships": [c.id for c in cgroup], "target": primary.id, "attack": cstrength, "defence": full,
            "odds": cb.ODDS_LABELS[ccol], "range_mod": crm, "velocity_mod": cvm, "heroism": cbonus,
            "chances": _chances(ccol, crm + cvm - cbonus),
        }
    return {
        "kind": "gun", "target": target.id, "attack": strength, "group_strength": full, "defence": tc.strength,
        "odds": cb.ODDS_LABELS[column], "range_mod": rmod, "velocity_mod": vmod, "heroism": bonus,
        "chances": chances, "hit_chance": 6 - chances.get("-", 0), "target_disabled": target.disabled,
        "counter": counter,
    }
