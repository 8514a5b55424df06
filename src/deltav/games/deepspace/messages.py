"""The actions and events of Deep Space Combat (their JSON forms are the wire format; see docs/deepspace.md).

This module owns the value classes only: no rules.
"""

from __future__ import annotations

from deltav.core.values import Action, Codec, Event, value

# --- actions ---------------------------------------------------------------------------------------------


@value("new_ship")
class NewShip(Action):
    """Design phase: start designing a ship of this size (1..the side's unused size levels)."""

    size: int


@value("use_fleet")
class UseFleet(Action):
    """Design phase, before any ship is designed: adopt a ready-made fleet (a built-in fleet id) that fits the
    side's size levels; unused levels may still be designed."""

    fleet: str


@value("set_stat")
class SetStat(Action):
    """Design phase: the level of the ship's thrust, then evasion, then endurance (in that order)."""

    stat: str
    level: int


@value("weapon_targeting")
class WeaponTargeting(Action):
    """Design phase: add a weapon with this targeting (its damage comes next)."""

    level: int


@value("weapon_damage")
class WeaponDamage(Action):
    """Design phase: the damage of the weapon just added."""

    level: int


@value("end_ship")
class EndShip(Action):
    """Design phase: the ship under design is complete. ``name``: what the designer calls it (1 to 40 printable
    characters; None: "Design <k>"). Its JSON leaves out a missing name, as before names existed."""

    name: str | None = None

    def to_json(self) -> dict:
        return {"type": "end_ship"} if self.name is None else {"type": "end_ship", "name": self.name}


@value("place")
class Place(Action):
    """Deployment: put a ship on a hex of its side's zone."""

    ship: str
    q: int
    r: int


@value("velocity")
class SetVelocity(Action):
    """Deployment (initial velocity) or plotting (new velocity, costing the hex distance from the old one)."""

    ship: str
    dq: int
    dr: int


@value("velocity_column")
class VelocityColumn(Action):
    """Deployment or plotting, ships with thrust above 10 only: the ``dq`` component of the new velocity; the
    ``velocity`` step that follows chooses ``dr`` (so a step never lists more than 2T+1 velocities)."""

    ship: str
    dq: int


@value("withdraw")
class Withdraw(Action):
    """Plotting: the ship leaves the battle (only beyond the withdrawal radius of every enemy)."""

    ship: str


@value("fire")
class Fire(Action):
    """Plotting: weapon ``weapon`` of ``ship`` fires at ``target`` (a ship id), or holds (``null``)."""

    ship: str
    weapon: int
    target: str | None


@value("done")
class Done(Action):
    """Confirms a complete plot, deployment or fleet design."""


@value("allocate")
class Allocate(Action):
    """Damage: put ``hp`` of the ship's pending hit points on a stat (``thrust``, ``evasion``, ``endurance``, or
    ``targeting``/``damage`` with a weapon index)."""

    ship: str
    stat: str
    weapon: int | None
    hp: int


@value("auto_allocate")
class AutoAllocate(Action):
    """Damage: allocate all of the ship's pending hit points by the documented default."""

    ship: str


@value("self_destruct")
class SelfDestruct(Action):
    """Destruction phase: whether the ship explodes against everything in its hex."""

    ship: str
    detonate: bool


ACTIONS = Codec(
    [
        NewShip, UseFleet, SetStat, WeaponTargeting, WeaponDamage, EndShip, Place, SetVelocity, VelocityColumn,
        Withdraw, Fire, Done, Allocate, AutoAllocate, SelfDestruct,
    ]
)

# --- events ----------------------------------------------------------------------------------------------


@value("designed")
class Designed(Event):
    """A player finished designing (public; the design stays secret)."""

    player: int


@value("design_step")
class DesignStep(Event):
    """A private echo of a design step: the ship under design so far."""

    player: int
    size: int
    thrust: int
    evasion: int
    endurance: int
    weapons: tuple[tuple[int, int], ...]
    to: tuple[int, ...] | None = None


@value("commissioned")
class Commissioned(Event):
    """A ship enters the battle: its id, owner and size are public."""

    ship: str
    player: int
    size: int


@value("deployed")
class Deployed(Event):
    """A player finished deploying (public; positions are revealed when everyone has)."""

    player: int


@value("placed")
class Placed(Event):
    ship: str
    q: int
    r: int
    dq: int
    dr: int


@value("plotted")
class Plotted(Event):
    """A player submitted a plot (public; the plot stays secret until every plot is in)."""

    player: int


@value("round")
class RoundBegan(Event):
    round: int


@value("moved")
class Moved(Event):
    """Reveal and movement: a ship's new velocity, the thrust it spent and where it ended."""

    ship: str
    q: int
    r: int
    dq: int
    dr: int
    thrust: int
    speed_up: int
    slow_down: int
    turn: int


@value("withdrew")
class Withdrew(Event):
    ship: str


@value("shot")
class Shot(Event):
    """A weapon fired: everyone sees hit or miss and the hit points dealt, never the rolls or stats."""

    ship: str
    weapon: int
    target: str
    range: int
    hit: bool
    hp: int


@value("shot_void")
class ShotVoid(Event):
    """A plotted shot whose target withdrew."""

    ship: str
    weapon: int
    target: str


@value("stat_lost")
class StatLost(Event):
    """Private to the owner: hit points allocated to a stat and the levels it lost."""

    ship: str
    stat: str
    weapon: int | None
    hp: int
    levels: int
    to: tuple[int, ...] | None = None


@value("allocated")
class Allocated(Event):
    """A player finished allocating damage (public)."""

    player: int


@value("declared")
class Declared(Event):
    """A player submitted self-destruct declarations (public; secret until all are in)."""

    player: int


@value("detonated")
class Detonated(Event):
    ship: str


@value("blast")
class Blast(Event):
    """An explosion's damage to one victim in the hex."""

    ship: str
    victim: str
    hp: int


@value("destroyed")
class Destroyed(Event):
    ship: str
    cause: str


@value("game_over")
class GameOver(Event):
    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]


EVENTS = Codec(
    [Designed, DesignStep, Commissioned, Deployed, Placed, Plotted, RoundBegan, Moved, Withdrew, Shot, ShotVoid,
     StatLost, Allocated, Declared, Detonated, Blast, Destroyed, GameOver]
)
