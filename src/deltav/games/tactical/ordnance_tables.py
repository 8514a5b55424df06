"""Delta-V tactical ordnance launch legality, as pure functions over plain inputs (design/tactical.md 1.9).

What this module owns: whether one ship may launch one item of ordnance now (scenario-allowed type, ship
state, orbital bases torpedoes only, torpedoes from warships and bases only, one nuke between resupplies for
non-warships, cargo mass, the mine course-change rule, one item per ship per ordnance phase), the torpedo
launch boost, and the velocity and cargo of launched ordnance. Masses, lifetime, boost limit and the ship
classes come from ``data/combat.toml`` through :mod:`deltav.games.tactical.combat`.

What it must not touch: game states, the map, ordnance movement and detonation (the state machine's), dice.
Every check returns or raises with a stable rule id (``tactical.ordnance.*``) so the state machine can
validate before it mutates anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from deltav.core.errors import IllegalAction
from deltav.core.jsonin import shown
from deltav.games.tactical.combat import (
    NON_WARSHIP_NUKE_LIMIT,
    ORDNANCE_LIFETIME,
    ORDNANCE_MASS,
    ORDNANCE_TYPES,
    TORPEDO_BOOST_MAX,
    can_launch_torpedoes,
    disabled_policy,
    is_warship,
    operational,
    ordnance_allowed_for_type,
)
from deltav.games.tactical.labels import class_word

Hex = tuple[int, int]

MINE = "mine"
TORPEDO = "torpedo"
NUKE = "nuke"
LIFETIME = ORDNANCE_LIFETIME

_DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def ordnance_mass(kind: str) -> int:
    """Cargo mass of one item: mine 10, torpedo 20, nuke 20. Raises ValueError for an unknown type."""
    try:
        return ORDNANCE_MASS[kind]
    except KeyError:
        raise ValueError(f"unknown ordnance type {kind!r} (expected one of {', '.join(ORDNANCE_TYPES)})") from None


def mine_course_ok(burn: int | None, fuel: int | None, launch_hex: Hex, destination: Hex) -> bool:
    """The mine rule: the launching ship must have a committed burn it can pay for (``burn`` not None and
    ``fuel`` > 0; ``fuel`` None means unlimited, as for a torch) and its resolved course this turn must end
    outside the launch hex."""
    return burn is not None and (fuel is None or fuel > 0) and destination != launch_hex


def launch_error(
    kind: str,
    *,
    ship_type: str,
    cargo_capacity: int | None,
    cargo_used: int,
    allowed_types: Sequence[str] = ORDNANCE_TYPES,
    active: bool = True,
    landed: bool = False,
    resupplied: bool = False,
    own_control: bool = True,
    disabled_turns: int = 0,
    nukes_since_resupply: int = 0,
    launched_this_phase: bool = False,
    mine_burn: bool = False,
    mine_leaves_hex: bool = False,
    warship: bool | None = None,
    torpedoes: bool | None = None,
    policy: str | None = None,
) -> tuple[str, str] | None:
    """Why this ship may not launch one ``kind`` now, as ``(rule id, message)``, or None if it may.

    Inputs (plain facts about the ship): ``ship_type`` (type id, e.g. ``"frigate"``, ``"orbitalBase"``);
    ``cargo_capacity`` (None: unlimited, as an orbital base); ``cargo_used`` (mass already aboard, orbital
    base cargo included); ``allowed_types`` (the scenario's ordnance types); ``active`` (in play: not
    destroyed); ``landed``; ``resupplied`` (this player-turn, or for an orbital base: it resupplied a ship);
    ``own_control`` (not captured or surrendered); ``disabled_turns``; ``nukes_since_resupply`` (nukes this
    ship launched since its last resupply); ``launched_this_phase``; for mines, ``mine_burn`` (the ship's
    queued order has a burn and fuel to pay it) and ``mine_leaves_hex`` (its resolved course ends outside the
    launch hex; see :func:`mine_course_ok`). ``warship``, ``torpedoes`` and ``policy`` (the ship type's
    disabled-operation policy) override the class lists of ``combat.toml`` when given (e.g. from the ship
    type data of the game); left None they are looked up by ``ship_type``.

    Checks, in order (first failure wins): known type, allowed by the scenario, ship active, not landed, one
    item per ship per phase, not resupplied, own control, operational (a dreadnaught at any damage, an
    orbital base at D1), type allowed for the ship (orbital base: torpedoes only), torpedoes from warships
    and orbital bases only, a non-warship's one nuke between resupplies, cargo mass, the mine course rule."""
    if kind not in ORDNANCE_MASS:
        return ("tactical.ordnance.unknown_type", f"unknown ordnance type {kind!r}")
    if kind not in allowed_types:
        return ("tactical.ordnance.type_not_allowed", f"this scenario does not allow {kind}s")
    if not active:
        return ("tactical.ordnance.ship_inactive", "only a ship in play can launch ordnance")
    if landed:
        return ("tactical.ordnance.landed", "a landed ship cannot launch ordnance")
    if launched_this_phase:
        return ("tactical.ordnance.one_per_ship", "one item per ship per turn: this ship has already launched "
                                                  "this turn")
    if resupplied:
        return ("tactical.ordnance.resupplied", "a ship that resupplied this turn cannot launch ordnance")
    if not own_control:
        return ("tactical.ordnance.captured", "a captured or surrendered ship cannot launch ordnance")
    if disabled_turns > 0 and not operational(disabled_turns, policy or disabled_policy(ship_type)):
        return ("tactical.ordnance.disabled", "a disabled ship cannot launch ordnance")
    if kind not in ordnance_allowed_for_type(ship_type):
        word = class_word(ship_type)
        return ("tactical.ordnance.type_for_ship", f"{'an' if word[:1] in 'aeiou' else 'a'} {word} cannot launch {kind}s")
    if kind == TORPEDO and not (can_launch_torpedoes(ship_type) if torpedoes is None else torpedoes):
        return ("tactical.ordnance.torpedo_warship", "only warships and orbital bases launch torpedoes")
    if (
        kind == NUKE
        and not (is_warship(ship_type) if warship is None else warship)
        and nukes_since_resupply >= NON_WARSHIP_NUKE_LIMIT
    ):
        return (
            "tactical.ordnance.nuke_limit",
            f"a non-warship may launch only {NON_WARSHIP_NUKE_LIMIT} nuke between resupplies",
        )
    mass = ORDNANCE_MASS[kind]
    if cargo_capacity is not None and cargo_used + mass > cargo_capacity:
        return (
            "tactical.ordnance.cargo",
            f"a {kind} has mass {mass}; only {max(0, cargo_capacity - cargo_used)} of cargo {cargo_capacity} is free",
        )
    if kind == MINE:
        if not mine_burn:
            return ("tactical.ordnance.mine_burn", "a ship must change course (burn) when launching a mine")
        if not mine_leaves_hex:
            return ("tactical.ordnance.mine_course", "the launching ship's course must leave the mine's hex")
    return None


def check_launch(kind: str, **facts) -> None:
    """:func:`launch_error` that raises ``IllegalAction(rule, message)`` instead of returning it."""
    err = launch_error(kind, **facts)
    if err is not None:
        raise IllegalAction(*err)


def launchable_types(**facts) -> tuple[str, ...]:
    """The ordnance types (in ``ORDNANCE_TYPES`` order) this ship may launch now; takes the keyword facts of
    :func:`launch_error`. Empty for a corvette (cargo 5 < the lightest item, a mine of mass 10)."""
    return tuple(kind for kind in ORDNANCE_TYPES if launch_error(kind, **facts) is None)


def torpedo_boost_options() -> tuple[tuple[int | None, int], ...]:
    """Every legal torpedo boost as ``(direction, hexes)``: ``(None, 0)`` for none, then each direction 0..5
    with 1..``TORPEDO_BOOST_MAX`` (2) hexes: 13 choices."""
    out: list[tuple[int | None, int]] = [(None, 0)]
    for d in range(6):
        for k in range(1, TORPEDO_BOOST_MAX + 1):
            out.append((d, k))
    return tuple(out)


def boost_error(kind: str, direction: int | None, hexes: int) -> tuple[str, str] | None:
    """Why a launch boost is illegal, or None: only torpedoes take one, in one direction 0..5, of 1 or 2
    hexes; ``(None, 0)`` means no boost."""
    if direction is None and hexes == 0:
        return None
    if kind != TORPEDO:
        return ("tactical.ordnance.boost_not_torpedo", "only torpedoes accelerate on launch")
    if isinstance(direction, bool) or not isinstance(direction, int) or not 0 <= direction <= 5:
        return ("tactical.ordnance.boost", f"boost direction must be 0..5, got {shown(direction)}")
    if isinstance(hexes, bool) or not isinstance(hexes, int) or not 1 <= hexes <= TORPEDO_BOOST_MAX:
        return ("tactical.ordnance.boost", f"boost must be 1 to {TORPEDO_BOOST_MAX} hexes, got {shown(hexes)}")
    return None


def check_boost(kind: str, direction: int | None, hexes: int) -> None:
    """:func:`boost_error` that raises ``IllegalAction``."""
    err = boost_error(kind, direction, hexes)
    if err is not None:
        raise IllegalAction(*err)


def launch_velocity(ship_velocity: Hex, direction: int | None = None, hexes: int = 0) -> Hex:
    """Velocity of launched ordnance: the ship's velocity before this turn's burn (its own pending gravity is
    not inherited), plus a torpedo's boost of ``hexes`` in ``direction``. Validate with :func:`boost_error`."""
    if direction is None or hexes == 0:
        return ship_velocity
    dq, dr = _DIRECTIONS[direction]
    return (ship_velocity[0] + dq * hexes, ship_velocity[1] + dr * hexes)


def cargo_after_launch(cargo_used: int, kind: str) -> int:
    """Cargo used after launching one ``kind``."""
    return cargo_used + ordnance_mass(kind)


def nukes_after_launch(nukes_since_resupply: int, kind: str) -> int:
    """The non-warship nuke counter after a launch (counts nukes for every ship; only non-warships are
    limited by it). Reset it to 0 on resupply."""
    return nukes_since_resupply + 1 if kind == NUKE else nukes_since_resupply
