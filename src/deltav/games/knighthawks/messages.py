"""The JSON messages of Knight Hawks: the actions players send and the events the game emits.

Owns: the value classes and their codecs. Must not hold rules.

Decomposition of decisions (see docs/knighthawks.md):
- movement phase of the moving player: ``screen`` / ``lay`` / ``activate`` / ``orbit`` / ``course`` then one
  ``step`` per hex entered for the ship being plotted; ``end_movement`` executes every plot at once;
- fire phases: one ``assign`` (weapon to target) at a time, then ``fire``;
- the defender's ``intercept`` (ICMs and torpedo evasion) for each missile attack before any roll;
- repair turns: ``repair`` blocks of DCR one at a time, then ``end_repair`` (player 0, then player 1).
"""

from __future__ import annotations

from deltav.core.values import Action, Codec, Event, value

# --- actions ------------------------------------------------------------------------------------------------


@value("screen")
class Screen(Action):
    ship: str
    screen: str  # "PS", "ES", "SS" (switch on), "MS" (release a masking screen), "none" (all off)


@value("lay")
class Lay(Action):
    ship: str
    kind: str  # "M" mines, "S" seeker
    at: int  # index of the hex in the ship's plotted path (0: the hex it starts from)


@value("activate")
class Activate(Action):
    """Activate one of your waiting seekers. ``layer`` (the ship that dropped it) and ``turn`` (the turn it was
    dropped) say which one in words the owner knows; both None for a seeker placed before the battle, and a record
    from before they were listed may leave them out."""

    seeker: str
    layer: str | None = None
    turn: int | None = None

    def to_json(self) -> dict:
        # no "layer" or "turn" key while None: an activation of a record made before they were listed keeps
        # its JSON form
        out: dict = {"type": "activate", "seeker": self.seeker}
        if self.layer is not None:
            out["layer"] = self.layer
        if self.turn is not None:
            out["turn"] = self.turn
        return out


@value("orbit")
class Orbit(Action):
    ship: str
    clockwise: bool


@value("course")
class Course(Action):
    ship: str
    speed: int
    facing: int


@value("step")
class Step(Action):
    turn: int  # after entering the next hex: 1 left (counter-clockwise), -1 right, 0 straight


@value("end_movement")
class EndMovement(Action):
    pass


@value("assign")
class Assign(Action):
    ship: str
    weapon: int  # index in the ship's weapon list
    target: str


@value("fire")
class Fire(Action):
    pass


@value("intercept")
class Intercept(Action):
    icms: int
    evade: bool


@value("repair")
class Repair(Action):
    ship: str
    target: str
    points: int


@value("end_repair")
class EndRepair(Action):
    pass


ACTIONS = Codec([Screen, Lay, Activate, Orbit, Course, Step, EndMovement, Assign, Fire, Intercept, Repair, EndRepair])

# --- events -------------------------------------------------------------------------------------------------


@value("turn_started")
class TurnStarted(Event):
    turn: int
    player: int


@value("screen_set")
class ScreenSet(Event):
    ship: str
    screen: str


@value("laid")
class Laid(Event):
    ship: str
    kind: str
    id: str
    hex: tuple[int, int]
    to: tuple[int, ...] | None = None


@value("seeker_activated")
class SeekerActivated(Event):
    seeker: str


@value("seeker_moved")
class SeekerMoved(Event):
    seeker: str
    path: tuple[tuple[int, int], ...]
    target: str | None


@value("nav_roll")
class NavRoll(Event):
    ship: str
    roll: int
    direction: str  # "left" or "right"


@value("plotted")
class Plotted(Event):
    ship: str
    speed: int
    facing: int
    turns: tuple[int, ...]


@value("orbit_declared")
class OrbitDeclared(Event):
    ship: str
    clockwise: bool


@value("breakup_check")
class BreakupCheck(Event):
    ship: str
    chance: int
    roll: int
    broke: bool


@value("moved")
class Moved(Event):
    ship: str
    path: tuple[tuple[int, int], ...]
    facing: int
    speed: int
    end: str  # "", "crash", "exit", "orbit"


@value("masking_ended")
class MaskingEnded(Event):
    ship: str


@value("docked")
class Docked(Event):
    ship: str
    host: str


@value("rearmed")
class Rearmed(Event):
    ship: str


@value("attack")
class Attack(Event):
    source: str
    weapon: str
    target: str
    hex: tuple[int, int]
    range: int
    column: str
    chance: int
    icms: int
    evade: bool
    roll: int
    hit: bool


@value("wasted")
class Wasted(Event):
    source: str
    weapon: str
    target: str


@value("damage")
class Damage(Event):
    ship: str
    source: str  # a ship id, a mine/seeker id, or "fire"
    roll: int
    modified: int
    result: str  # the table's result
    effect: str  # what happened (hull when it fell through)
    system: str  # the system destroyed, or ""
    hull: int  # hull points lost
    note: str


@value("destroyed")
class Destroyed(Event):
    ship: str
    cause: str


@value("disengaged")
class Disengaged(Event):
    ship: str
    hex: tuple[int, int]


@value("fired")
class Fired(Event):
    """A fire phase's declarations are complete (made public at once, before any roll): each is
    ``[ship, weapon index, target]``; empty when the side holds its fire."""

    player: int
    attacks: tuple[tuple[str, int, str], ...]


@value("intercepted")
class Intercepted(Event):
    """The defender's decision for the pending missile attack: ICMs fired and whether the target evades."""

    target: str
    icms: int
    evade: bool


@value("repairs_allocated")
class RepairsAllocated(Event):
    """A side has finished allocating its DCR (the allocations themselves stay secret)."""

    player: int


@value("repair_roll")
class RepairRoll(Event):
    ship: str
    target: str
    points: int
    roll: int
    outcome: str  # "repaired", "failed", "unrepairable"
    restored: int
    to: tuple[int, ...] | None = None


@value("repair_turn")
class RepairTurn(Event):
    turn: int


@value("game_over")
class GameOver(Event):
    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, int]


EVENTS = Codec([TurnStarted, ScreenSet, Laid, SeekerActivated, SeekerMoved, NavRoll, Plotted, OrbitDeclared,
                BreakupCheck, Moved, MaskingEnded, Docked, Rearmed, Attack, Wasted, Damage, Destroyed, Disengaged,
                Fired, Intercepted, RepairsAllocated, RepairRoll, RepairTurn, GameOver])
