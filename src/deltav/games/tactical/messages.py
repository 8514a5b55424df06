"""The actions players send and the events Delta-V tactical emits, with their JSON forms (docs/tactical.md).

Hexes are ``"q,r"`` strings; velocities ``[dq, dr]``. Events about a ship carry ``to``: ``None`` (public) when the
opponent can see that ship, else ``(owner,)`` (fog of war, ruling 4).

This module owns the value classes only.
"""

from __future__ import annotations

from typing import Literal

from deltav.core.jsonin import shown
from deltav.core.values import Action, Event, value

# --- actions ----------------------------------------------------------------------------------------------


@value("order")
class Order(Action):
    """Astrogation order for one ship: burn direction (0..5 or null), overload direction (warships, needs a
    burn), weak-gravity hexes to ignore on this course (sorted hex keys), and an explicit landing from orbit."""

    ship: str
    burn: int | None = None
    overload: int | None = None
    land: bool = False
    weak: tuple[str, ...] = ()


@value("end_astrogation")
class EndAstrogation(Action):
    """Done plotting: ships without an order coast; then ordnance (if any launch is possible) or movement."""


@value("surrender")
class Surrender(Action):
    """Surrender every own ship (astrogation phase): they may still be ordered and may be looted."""


@value("launch")
class Launch(Action):
    """Launch one item of ordnance from a ship (ordnance phase). Torpedoes may boost 1 or 2 hexes in one
    direction on the launch turn (``boost_dir`` with ``boost`` 1..2; null and 0 for none)."""

    ship: str
    kind: Literal["mine", "torpedo", "nuke"]
    boost_dir: int | None = None
    boost: int = 0


@value("emplace_base")
class EmplaceBase(Action):
    """Emplace the orbital base a transport or packet carries (ordnance phase)."""

    ship: str


@value("end_ordnance")
class EndOrdnance(Action):
    """Done launching: movement follows."""


@value("add_attacker")
class AddAttacker(Action):
    """Combat: add one ship to the attack group being formed."""

    ship: str


@value("fire")
class Fire(Action):
    """Combat: the group formed with ``add_attacker`` attacks ``target`` (an enemy ship or nuke id) with
    ``strength`` (null = the group's full strength; a lower integer is a reduced-strength attack). After a
    reduced attack on a ship, the rest of the group's strength may fire at other ships in the same hex."""

    target: str
    strength: int | None = None


@value("end_combat")
class EndCombat(Action):
    """No more attacks: planetary defense fires, then logistics or the end of the player-turn."""


@value("transfer")
class Transfer(Action):
    """Logistics: move fuel, cargo (ordnance mass) or passengers between two ships in one hex on one course."""

    source: str
    target: str
    kind: Literal["fuel", "cargo", "passengers"]
    amount: int


@value("end_logistics")
class EndLogistics(Action):
    """Done transferring: the player-turn ends."""


@value("buy")
class Buy(Action):
    """Fleet building: buy one ship type, or ``orbitalBaseCargo`` loaded into ``carrier`` (a transport or packet
    id, possibly one bought earlier in this phase)."""

    item: str
    carrier: str | None = None


@value("fleet_ready")
class FleetReady(Action):
    """Fleet building: the purchases are final (secret until both players are ready)."""


ACTIONS = [Order, EndAstrogation, Surrender, Launch, EmplaceBase, EndOrdnance, AddAttacker, Fire, EndCombat,
           Transfer, EndLogistics, Buy, FleetReady]

MAX_WEAK = 16  # more weak-gravity hexes than any course crosses

_KINDS = frozenset(("mine", "torpedo", "nuke"))
_TRANSFER_KINDS = frozenset(("fuel", "cargo", "passengers"))
_NO_FIELDS = frozenset((EndAstrogation, Surrender, EndOrdnance, EndCombat, EndLogistics, FleetReady))


def check_form(action: Action, path: str = "action") -> None:
    """What the field types cannot say about an action's form (raises MalformedAction naming the field): an
    order's ``weak`` entries are hex keys ``"q,r"``, at most ``MAX_WEAK`` of them. Called on decoding (the
    untrusted JSON path) and by ``apply_action`` (in process), after the type check."""
    if type(action) is Order and action.weak:
        from deltav.core.errors import MalformedAction

        from .model import parse_hex_key

        if len(action.weak) > MAX_WEAK:
            raise MalformedAction(f"{path}.weak", f"at most {MAX_WEAK} hexes, got {len(action.weak)}")
        for i, k in enumerate(action.weak):
            if parse_hex_key(k) is None:
                raise MalformedAction(f"{path}.weak[{i}]", f"expected a hex key \"q,r\", got {shown(k)}")

# --- events -----------------------------------------------------------------------------------------------

To = tuple[int, ...] | None


@value("turn_started")
class TurnStarted(Event):
    player: int
    turn: int


@value("order_given")
class OrderGiven(Event):
    player: int
    ship: str
    burn: int | None
    overload: int | None
    land: bool
    weak: tuple[str, ...]
    to: To = None


@value("phase_changed")
class PhaseChanged(Event):
    player: int
    phase: str


@value("ship_moved")
class ShipMoved(Event):
    ship: str
    start: str
    path: tuple[str, ...]
    destination: str
    velocity: tuple[int, int]
    fuel_spent: int
    fuel: int | None
    gravity_queued: tuple[tuple[str, int, bool], ...]  # (hex, direction, ignored)
    to: To = None


@value("ship_landed")
class ShipLanded(Event):
    ship: str
    hex: str
    body: str | None
    to: To = None


@value("ship_resupplied")
class ShipResupplied(Event):
    ship: str
    hex: str
    to: To = None


@value("ship_destroyed")
class ShipDestroyed(Event):
    ship: str
    hex: str
    cause: str  # crash, off_map, combat, damage, ordnance, nuke, ram, asteroid, planetary_defense
    body: str | None = None
    to: To = None


@value("checkpoint_visited")
class CheckpointVisited(Event):
    player: int
    body: str
    to: To = None


@value("detection_changed")
class DetectionChanged(Event):
    ship: str
    detected: bool
    position: str
    velocity: tuple[int, int]


@value("identity_revealed")
class IdentityRevealed(Event):
    ship: str
    identity: str


@value("surrendered")
class Surrendered(Event):
    player: int


@value("ordnance_launched")
class OrdnanceLaunched(Event):
    """An item launched; ``ship`` is null in the public event of an item whose launcher the enemy does not see
    (fog of war with ordnance detection off)."""

    ordnance: str
    ship: str | None
    kind: str
    hex: str
    velocity: tuple[int, int]
    to: To = None


@value("base_emplaced")
class BaseEmplaced(Event):
    base: str
    ship: str
    hex: str
    to: To = None


@value("ordnance_moved")
class OrdnanceMoved(Event):
    ordnance: str
    path: tuple[str, ...]
    destination: str
    velocity: tuple[int, int]
    to: To = None


@value("ordnance_detonated")
class OrdnanceDetonated(Event):
    ordnance: str
    kind: str
    hex: str
    targets: tuple[str, ...]


@value("ordnance_removed")
class OrdnanceRemoved(Event):
    ordnance: str
    reason: str  # expired, off_map, body, asteroid, base, shot, nuke
    to: To = None


@value("ordnance_detected")
class OrdnanceDetected(Event):
    """The enemy detects an item of ordnance (ruling 7): where it is and how it moves."""

    ordnance: str
    owner: int
    kind: str
    hex: str
    velocity: tuple[int, int]


@value("damage_roll")
class DamageRoll(Event):
    """A die rolled on one of the damage tables (torpedo, mine, asteroid, ram, gun, planetary, counter)."""

    source: str
    target: str
    roll: int
    modifier: int
    odds: str | None
    result: str  # "-", "D1".."D5", "E"
    disabled: int
    to: To = None


@value("attacker_added")
class AttackerAdded(Event):
    ship: str
    to: To = None


@value("attack_declared")
class AttackDeclared(Event):
    attackers: tuple[str, ...]
    target: str
    strength: int
    defense: int
    odds: str
    range_mod: int
    velocity_mod: int
    heroism: int


@value("counterattack")
class Counterattack(Event):
    ships: tuple[str, ...]
    target: str
    strength: int
    defense: int
    odds: str
    range_mod: int
    velocity_mod: int
    heroism: int


@value("heroism_earned")
class HeroismEarned(Event):
    ships: tuple[str, ...]


@value("transferred")
class Transferred(Event):
    source: str
    target: str
    kind: str
    amount: int
    to: To = None


@value("ship_captured")
class ShipCaptured(Event):
    ship: str
    by: str


@value("purchased")
class Purchased(Event):
    player: int
    item: str
    carrier: str | None
    credits_left: int
    to: To = None


@value("fleet_ready_declared")
class FleetReadyDeclared(Event):
    player: int


@value("fleet_spawned")
class FleetSpawned(Event):
    player: int
    ships: tuple[tuple[str, str, str], ...]  # (id, type, hex)


@value("game_over")
class GameOver(Event):
    winners: tuple[int, ...]
    reason: str


EVENTS = [TurnStarted, OrderGiven, PhaseChanged, ShipMoved, ShipLanded, ShipResupplied, ShipDestroyed,
          CheckpointVisited, DetectionChanged, IdentityRevealed, Surrendered, OrdnanceLaunched, BaseEmplaced,
          OrdnanceMoved, OrdnanceDetonated, OrdnanceRemoved, OrdnanceDetected, DamageRoll, AttackerAdded,
          AttackDeclared, Counterattack, HeroismEarned, Transferred, ShipCaptured, Purchased, FleetReadyDeclared,
          FleetSpawned, GameOver]
