"""Delta-V tactical gun combat and damage, as pure functions over plain data (design/tactical.md 1.8).

What this module owns:

- the data of ``data/combat.toml`` (Gun Combat Results Table, Other Damage Tables, odds columns, combat,
  ordnance and detection constants, the ship-class lists combat needs), read once at import through
  :mod:`deltav.core.datafile` (:func:`load_tables` reads any other file the same way and raises
  ``ScenarioError(field, reason, file)``);
- odds columns, effective strength, range and velocity modifiers, closest approach, line of sight, gun
  target eligibility, asteroid hazards of a move;
- table lookups (:func:`gun_result`, :func:`other_damage`) returning a typed :class:`Damage`;
- damage accumulation and repair; who may attack or counterattack; counterattack groups and the primary
  attacker; heroism; split-fire strength allocation;
- whole resolutions with the dice passed in: :func:`resolve_attack` (attack, counterattack, heroism),
  :func:`resolve_anti_nuke`, :func:`planetary_defense_shot`, :func:`base_anti_nuke_shot`.

What it must not touch: game states, ships as objects, the map, the rng. Callers pass plain ints, hex tuples
``(q, r)``, :class:`Combatant` tuples and a body predicate, roll the dice themselves (``rng.d6()``, attack die
first, then the counter die) and apply the returned numbers to their own state. Everything here is
deterministic and side-effect free, and cheap enough to call inside search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, NamedTuple, NoReturn

from deltav.core import datafile
from deltav.core.errors import IllegalAction, ScenarioError
from deltav.core.hexgrid import analyze_offset
from deltav.core.jsonin import shown
from deltav.core.shape import MaxLen, MinLen, Range

Hex = tuple[int, int]

# --- results -----------------------------------------------------------------------------------------------


class Damage(IntEnum):
    """A result of the Gun Combat Results Table or of an Other Damage Table.

    Ordered by severity, so results compare with ``<``: ``NONE < D1 < ... < D5 < ELIMINATED``. ``D1`` .. ``D5``
    disable the ship for that many (cumulative) turns; ``ELIMINATED`` destroys it."""

    NONE = 0
    D1 = 1
    D2 = 2
    D3 = 3
    D4 = 4
    D5 = 5
    ELIMINATED = 6

    @property
    def label(self) -> str:
        """The table's text for this result: ``"-"``, ``"D1"`` .. ``"D5"`` or ``"E"``."""
        return _RESULT_LABELS[self]

    @property
    def disabled_turns(self) -> int:
        """Disabled turns this result adds (0 for ``NONE`` and for ``ELIMINATED``)."""
        return int(self) if 1 <= self <= 5 else 0

    @classmethod
    def from_label(cls, text: str) -> Damage:
        """Inverse of :attr:`label` (raises ValueError on anything else)."""
        try:
            return _RESULT_BY_LABEL[text]
        except KeyError:
            raise ValueError(f"unknown damage result {text!r} (expected one of {sorted(_RESULT_BY_LABEL)})") from None


_RESULT_LABELS = {
    Damage.NONE: "-",
    Damage.D1: "D1",
    Damage.D2: "D2",
    Damage.D3: "D3",
    Damage.D4: "D4",
    Damage.D5: "D5",
    Damage.ELIMINATED: "E",
}
_RESULT_BY_LABEL = {v: k for k, v in _RESULT_LABELS.items()}

# Disabled-operation policies: who keeps firing, counterattacking and launching while disabled.
OPERATES_NEVER = "no"  # ordinary ships: any disabled turn stops them (the value of ships.toml fires_disabled)
OPERATES_ANY = "any"  # dreadnaught: at any damage level
OPERATES_D1 = "d1"  # orbital base: at exactly one disabled turn (D1), not more

OTHER_DAMAGE_SOURCES = ("torpedo", "mine", "asteroid", "ram")
MIN_ROLL = 0
MAX_ROLL = 6

# --- the data file -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CombatTables:
    """The validated contents of a ``combat.toml`` file (see that file for the meaning of each field)."""

    odds_labels: tuple[str, ...]
    odds_thresholds: tuple[tuple[int, int], ...]
    gun_combat: tuple[tuple[Damage, ...], ...]  # [modified roll 0..6][odds column]
    other_damage: Mapping[str, tuple[Damage, ...]]  # source -> results for d6 = 1..6
    elimination_threshold: int
    velocity_free: int
    heroism_bonus: int
    heroism_min_result: Damage
    repair_per_turn: int
    anti_nuke_odds: int  # column index
    planetary_defense_odds: int  # column index
    base_fire_range: int
    ordnance_types: tuple[str, ...]
    ordnance_mass: Mapping[str, int]
    ordnance_lifetime: int
    torpedo_boost_max: int
    non_warship_nuke_limit: int
    orbital_base_cargo: int
    detection_ship_range: int
    detection_base_range: int
    warships: frozenset[str]  # normalised type ids (see :func:`normalise_type`)
    torpedo_launchers: frozenset[str]
    ordnance_restrictions: Mapping[str, tuple[str, ...]]
    operates_disabled: Mapping[str, str]  # normalised type id -> OPERATES_ANY / OPERATES_D1


def normalise_type(ship_type: str) -> str:
    """The lookup key of a ship type id: lower case without ``_``, ``-`` or spaces (``orbital_base`` and
    ``orbitalBase`` are the same type)."""
    return ship_type.replace("_", "").replace("-", "").replace(" ", "").lower()


# --- the layout of combat.toml (read by core.datafile) and its cross-field checks ----------------------------

NonNeg = Annotated[int, Range(0)]
Positive = Annotated[int, Range(1)]
Name = Annotated[str, MinLen(1)]
Names = Annotated[tuple[Name, ...], MinLen(1)]
D6Row = Annotated[tuple[str, ...], MinLen(6), MaxLen(6)]


@dataclass(frozen=True)
class OddsFile:
    columns: Names
    thresholds: tuple[tuple[NonNeg, NonNeg], ...]


@dataclass(frozen=True)
class GunCombatFile:
    results: Annotated[tuple[tuple[str, ...], ...], MinLen(MAX_ROLL - MIN_ROLL + 1), MaxLen(MAX_ROLL - MIN_ROLL + 1)]


@dataclass(frozen=True)
class OtherDamageFile:  # one field per OTHER_DAMAGE_SOURCES entry
    torpedo: D6Row
    mine: D6Row
    asteroid: D6Row
    ram: D6Row


@dataclass(frozen=True)
class CombatRulesFile:
    elimination_threshold: Positive
    velocity_free: NonNeg
    heroism_bonus: NonNeg
    heroism_min_result: str
    repair_per_turn: NonNeg
    anti_nuke_odds: str
    planetary_defense_odds: str
    base_fire_range: NonNeg


@dataclass(frozen=True)
class OrdnanceTableFile:
    types: Names
    mass: dict[str, Positive]
    lifetime: Positive
    torpedo_boost_max: NonNeg
    non_warship_nuke_limit: NonNeg
    orbital_base_cargo: NonNeg


@dataclass(frozen=True)
class DetectionFile:
    ship_range: NonNeg
    base_range: NonNeg


@dataclass(frozen=True)
class ShipClassesFile:
    warships: Names
    torpedo_launchers: Names
    ordnance_restrictions: dict[str, tuple[Name, ...]]
    operates_disabled_any: Names
    operates_disabled_d1: Names


@dataclass(frozen=True)
class CombatFile:
    odds: OddsFile
    gun_combat: GunCombatFile
    other_damage: OtherDamageFile
    combat: CombatRulesFile
    ordnance: OrdnanceTableFile
    detection: DetectionFile
    ship_classes: ShipClassesFile


def _result(value: str, path: str, source: str | None) -> Damage:
    """A result string of a table (``"-"``, ``"D1"`` .. ``"D5"``, ``"E"``) as a :class:`Damage`."""
    try:
        return Damage.from_label(value)
    except ValueError as exc:
        datafile.fail(path, str(exc), source)


def _distinct(values: tuple[str, ...], path: str, source: str | None) -> tuple[str, ...]:
    if len(set(values)) != len(values):
        datafile.fail(path, "has duplicate entries", source)
    return values


def parse_tables(data: Any, source: str | None = None) -> CombatTables:
    """A parsed ``combat.toml`` read and checked as :class:`CombatTables`; raises ``ScenarioError`` naming the
    first bad field (``gun_combat.results[3][2]``) and the file."""
    f = datafile.read_as(CombatFile, data, source)

    def fail(field: str, reason: str) -> NoReturn:
        datafile.fail(field, reason, source)

    labels = _distinct(f.odds.columns, "odds.columns", source)
    if len(f.odds.thresholds) != len(labels):
        fail("odds.thresholds", f"needs one [num, den] per column ({len(labels)}), got {len(f.odds.thresholds)}")
    thresholds: list[tuple[int, int]] = []
    for i, (num, den) in enumerate(f.odds.thresholds):
        where = f"odds.thresholds[{i}]"
        if den <= 0:
            fail(where, "needs num >= 0 and den > 0")
        if i == 0 and num != 0:
            fail(where, "the first column must be reachable by any attack: use [0, 1]")
        if i > 0:
            pnum, pden = thresholds[-1]
            if num * pden <= pnum * den:
                fail(where, "thresholds must increase strictly from column to column")
        thresholds.append((num, den))

    table: list[tuple[Damage, ...]] = []
    for r, row in enumerate(f.gun_combat.results):
        if len(row) != len(labels):
            fail(f"gun_combat.results[{r}]", f"must list {len(labels)} results, one per odds column")
        table.append(tuple(_result(v, f"gun_combat.results[{r}][{c}]", source) for c, v in enumerate(row)))

    other_tables = {
        src: tuple(_result(v, f"other_damage.{src}[{i}]", source) for i, v in enumerate(getattr(f.other_damage, src)))
        for src in OTHER_DAMAGE_SOURCES
    }

    combat = f.combat

    def column_of(key: str) -> int:
        """The column index of an odds label field of [combat]."""
        label = getattr(combat, key)
        if label not in labels:
            fail(f"combat.{key}", f"{label!r} is not one of odds.columns")
        return labels.index(label)

    heroism_min = _result(combat.heroism_min_result, "combat.heroism_min_result", source)
    if heroism_min == Damage.NONE:
        fail("combat.heroism_min_result", "must be a damaging result")

    ordn = f.ordnance
    types = _distinct(ordn.types, "ordnance.types", source)
    for t in types:
        if t not in ordn.mass:
            fail(f"ordnance.mass.{t}", "is missing")
    for t in ordn.mass:
        if t not in types:
            fail(f"ordnance.mass.{t}", "is not one of ordnance.types")
    mass = {t: ordn.mass[t] for t in types}

    classes = f.ship_classes
    warships = _distinct(classes.warships, "ship_classes.warships", source)
    launchers = _distinct(classes.torpedo_launchers, "ship_classes.torpedo_launchers", source)
    restrictions: dict[str, tuple[str, ...]] = {}
    for ship_type, allowed in classes.ordnance_restrictions.items():
        where = f"ship_classes.ordnance_restrictions.{ship_type}"
        _distinct(allowed, where, source)
        for i, t in enumerate(allowed):
            if t not in types:
                fail(f"{where}[{i}]", f"{t!r} is not one of ordnance.types")
        restrictions[normalise_type(ship_type)] = allowed
    operates: dict[str, str] = {}
    for key, policy in (("operates_disabled_any", OPERATES_ANY), ("operates_disabled_d1", OPERATES_D1)):
        for i, ship_type in enumerate(_distinct(getattr(classes, key), f"ship_classes.{key}", source)):
            norm = normalise_type(ship_type)
            if norm in operates:
                fail(f"ship_classes.{key}[{i}]", f"{ship_type!r} already has a disabled policy")
            operates[norm] = policy

    return CombatTables(
        odds_labels=labels,
        odds_thresholds=tuple(thresholds),
        gun_combat=tuple(table),
        other_damage=other_tables,
        elimination_threshold=combat.elimination_threshold,
        velocity_free=combat.velocity_free,
        heroism_bonus=combat.heroism_bonus,
        heroism_min_result=heroism_min,
        repair_per_turn=combat.repair_per_turn,
        anti_nuke_odds=column_of("anti_nuke_odds"),
        planetary_defense_odds=column_of("planetary_defense_odds"),
        base_fire_range=combat.base_fire_range,
        ordnance_types=types,
        ordnance_mass=mass,
        ordnance_lifetime=ordn.lifetime,
        torpedo_boost_max=ordn.torpedo_boost_max,
        non_warship_nuke_limit=ordn.non_warship_nuke_limit,
        orbital_base_cargo=ordn.orbital_base_cargo,
        detection_ship_range=f.detection.ship_range,
        detection_base_range=f.detection.base_range,
        warships=frozenset(normalise_type(t) for t in warships),
        torpedo_launchers=frozenset(normalise_type(t) for t in launchers),
        ordnance_restrictions=restrictions,
        operates_disabled=operates,
    )


def load_tables(source: str | Path | None = None) -> CombatTables:
    """Load and validate a combat data file: the packaged ``data/combat.toml`` when ``source`` is None, else
    the TOML file at that path. Raises ``ScenarioError`` (with the file as ``source``) if it is malformed."""
    if source is None:
        try:
            raw = resources.files(__package__ or "deltav.games.tactical").joinpath("data/combat.toml").read_bytes()
        except (ModuleNotFoundError, FileNotFoundError, TypeError):
            raw = (Path(__file__).parent / "data" / "combat.toml").read_bytes()
        name = "combat.toml"
    else:
        path = Path(source)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ScenarioError("(file)", f"cannot read file: {exc}", str(path)) from None
        name = str(path)
    return parse_tables(datafile.parse(raw, name, "toml"), name)


TABLES: CombatTables = load_tables()

# Flat module constants for the hot paths (read once from TABLES).
ODDS_LABELS: tuple[str, ...] = TABLES.odds_labels
ODDS_COLUMNS = len(ODDS_LABELS)
_TOP_COLUMN = ODDS_COLUMNS - 1
_THRESHOLDS_DESC = tuple((k, num, den) for k, (num, den) in reversed(list(enumerate(TABLES.odds_thresholds))))
GUN_COMBAT: tuple[tuple[Damage, ...], ...] = TABLES.gun_combat
OTHER_DAMAGE: Mapping[str, tuple[Damage, ...]] = TABLES.other_damage
ELIMINATION_THRESHOLD: int = TABLES.elimination_threshold
VELOCITY_FREE: int = TABLES.velocity_free
HEROISM_BONUS: int = TABLES.heroism_bonus
HEROISM_MIN_RESULT: Damage = TABLES.heroism_min_result
REPAIR_PER_TURN: int = TABLES.repair_per_turn
ANTI_NUKE_ODDS: int = TABLES.anti_nuke_odds
PLANETARY_DEFENSE_ODDS: int = TABLES.planetary_defense_odds
BASE_FIRE_RANGE: int = TABLES.base_fire_range
ORDNANCE_TYPES: tuple[str, ...] = TABLES.ordnance_types
ORDNANCE_MASS: Mapping[str, int] = TABLES.ordnance_mass
ORDNANCE_LIFETIME: int = TABLES.ordnance_lifetime
TORPEDO_BOOST_MAX: int = TABLES.torpedo_boost_max
NON_WARSHIP_NUKE_LIMIT: int = TABLES.non_warship_nuke_limit
ORBITAL_BASE_CARGO: int = TABLES.orbital_base_cargo
DETECTION_SHIP_RANGE: int = TABLES.detection_ship_range
DETECTION_BASE_RANGE: int = TABLES.detection_base_range


def odds_index(label: str) -> int:
    """The column index of an odds label (``"2:1"`` -> 3). Raises ValueError for an unknown label."""
    try:
        return ODDS_LABELS.index(label)
    except ValueError:
        raise ValueError(f"unknown odds {label!r} (expected one of {', '.join(ODDS_LABELS)})") from None


# --- ship classes ------------------------------------------------------------------------------------------


def is_warship(ship_type: str) -> bool:
    """Warships (corvette, corsair, frigate, dreadnaught, torch) may overload and carry torpedoes."""
    return normalise_type(ship_type) in TABLES.warships


def can_launch_torpedoes(ship_type: str) -> bool:
    """Warships and orbital bases may launch torpedoes (packets and other civilians may not)."""
    return normalise_type(ship_type) in TABLES.torpedo_launchers


def ordnance_allowed_for_type(ship_type: str) -> tuple[str, ...]:
    """The ordnance types this ship type may ever launch, before cargo and scenario limits (orbital base:
    torpedoes only; everyone else: all types, torpedoes still needing :func:`can_launch_torpedoes`)."""
    return TABLES.ordnance_restrictions.get(normalise_type(ship_type), ORDNANCE_TYPES)


def disabled_policy(ship_type: str) -> str:
    """How a ship type behaves while disabled: ``OPERATES_ANY`` (dreadnaught), ``OPERATES_D1`` (orbital base)
    or ``OPERATES_NEVER`` (everyone else)."""
    return TABLES.operates_disabled.get(normalise_type(ship_type), OPERATES_NEVER)


# --- strength and odds -------------------------------------------------------------------------------------


def operational(disabled_turns: int, policy: str = OPERATES_NEVER) -> bool:
    """True if a ship with this damage may still fire, counterattack and launch: undamaged, or a dreadnaught
    (``OPERATES_ANY``) at any damage, or an orbital base (``OPERATES_D1``) at exactly D1."""
    if disabled_turns <= 0:
        return True
    if policy == OPERATES_ANY:
        return True
    return policy == OPERATES_D1 and disabled_turns == 1


def effective_strength(combat: int, disabled_turns: int, policy: str = OPERATES_NEVER, destroyed: bool = False) -> int:
    """A ship's combat strength now: its printed combat factor, or 0 if destroyed or disabled (except a
    dreadnaught at any damage and an orbital base at D1, which keep their full factor). Used for the
    defender's strength in the odds and for the attacking group's full strength."""
    if destroyed:
        return 0
    if disabled_turns <= 0 or operational(disabled_turns, policy):
        return combat
    return 0


def odds_column(attack: int, defence: int) -> int:
    """The odds column index (0 = 1:4, 1 = 1:2, 2 = 1:1, 3 = 2:1, 4 = 3:1, 5 = 4:1) of an attack.

    Defence <= 0 gives 4:1; otherwise attack <= 0 gives 1:4; otherwise the highest column whose ratio the
    attack reaches (exact integer comparison: 3 vs 2 is 1:1, 5 vs 2 is 2:1, 2 vs 15 is 1:4)."""
    if defence <= 0:
        return _TOP_COLUMN
    if attack <= 0:
        return 0
    for k, num, den in _THRESHOLDS_DESC:
        if attack * den >= defence * num:
            return k
    return 0


def odds_label(attack: int, defence: int) -> str:
    """:func:`odds_column` as its label (``"2:1"``)."""
    return ODDS_LABELS[odds_column(attack, defence)]


# --- modifiers and line of sight --------------------------------------------------------------------------


def hex_distance(a: Hex, b: Hex) -> int:
    """Hex distance between two hexes."""
    q = a[0] - b[0]
    r = a[1] - b[1]
    return max(abs(q), abs(r), abs(q + r))


def closest_approach(path: Sequence[Hex], position: Hex, target: Hex) -> Hex:
    """The hex of ``path`` (the attacker's movement path this turn, start hex first) nearest to ``target``;
    the first such hex on ties; ``position`` itself if the path is empty (the ship did not move)."""
    if not path:
        return position
    tq, tr = target
    best = path[0]
    q, r = tq - best[0], tr - best[1]
    best_d = max(abs(q), abs(r), abs(q + r))
    for h in path:
        q = tq - h[0]
        r = tr - h[1]
        d = max(abs(q), abs(r), abs(q + r))
        if d < best_d:
            best, best_d = h, d
    return best


def range_modifier(path: Sequence[Hex], position: Hex, target: Hex) -> int:
    """Range penalty of one attacker: the distance from its closest approach (see :func:`closest_approach`)
    to the target hex."""
    return hex_distance(closest_approach(path, position, target), target)


def velocity_modifier(attacker_velocity: Hex, target_velocity: Hex) -> int:
    """Velocity penalty of one attacker: ``max(0, |Va - Vt| - 2)`` with ``|.|`` the hex norm."""
    q = attacker_velocity[0] - target_velocity[0]
    r = attacker_velocity[1] - target_velocity[1]
    d = max(abs(q), abs(r), abs(q + r)) - VELOCITY_FREE
    return d if d > 0 else 0


def line_of_sight(origin: Hex, target: Hex, is_body: Callable[[Hex], bool]) -> bool:
    """True unless a *definite* body hex lies strictly between ``origin`` and ``target`` on the line between
    their centres. Lines that only graze a body hex along a hexside never block (our ruling 2); ships,
    ordnance and asteroids never block (pass a predicate that is true for planet, moon and Sol hexes only)."""
    oq, orr = origin
    definite = analyze_offset(target[0] - oq, target[1] - orr).definite
    for i in range(1, len(definite) - 1):
        dq, dr = definite[i]
        if is_body((oq + dq, orr + dr)):
            return False
    return True


def asteroid_hazards(start: Hex, end: Hex, is_asteroid: Callable[[Hex], bool]) -> tuple[Hex, ...]:
    """The asteroid hazards of a move from ``start`` to ``end`` (call it only when the ship's new speed is
    above 1): one per *definite* asteroid hex of the line after the start hex (the end hex included), plus one
    per grazed hexside whose two hexes are both asteroids (reported as the first hex of the pair), in the
    order met. ``is_asteroid`` should be false for destroyed asteroids. Each hazard rolls the asteroid table
    at the start of the owner's combat step."""
    sq, sr = start
    out: list[Hex] = []
    for i, step in enumerate(analyze_offset(end[0] - sq, end[1] - sr).steps):
        if i == 0:
            continue
        if len(step) == 1:
            h = (sq + step[0][0], sr + step[0][1])
            if is_asteroid(h):
                out.append(h)
        elif len(step) == 2:
            a = (sq + step[0][0], sr + step[0][1])
            b = (sq + step[1][0], sr + step[1][1])
            if is_asteroid(a) and is_asteroid(b):
                out.append(a)
    return tuple(out)


# --- combatants --------------------------------------------------------------------------------------------


class Combatant(NamedTuple):
    """One ship as combat sees it (plain, immutable, cheap to build).

    ``combat`` is the printed combat factor; ``strength`` the effective strength now (see
    :func:`effective_strength`; :func:`make_combatant` fills it in); ``path`` the hexes of its movement this
    turn, start hex first (empty if it did not move); ``heroic`` whether it has earned heroism."""

    id: str
    combat: int
    strength: int
    disabled_turns: int
    position: Hex
    velocity: Hex
    path: tuple[Hex, ...] = ()
    heroic: bool = False


def make_combatant(
    id: str,
    combat: int,
    disabled_turns: int,
    position: Hex,
    velocity: Hex,
    path: Sequence[Hex] = (),
    heroic: bool = False,
    policy: str = OPERATES_NEVER,
) -> Combatant:
    """Build a :class:`Combatant`, computing its effective strength from the disabled-operation ``policy``
    (``disabled_policy(ship_type)``)."""
    return Combatant(
        id,
        combat,
        effective_strength(combat, disabled_turns, policy),
        disabled_turns,
        position,
        velocity,
        tuple(path),
        heroic,
    )


def can_attack(
    *,
    defensive_only: bool,
    disabled_turns: int,
    policy: str = OPERATES_NEVER,
    active: bool = True,
    resupplied: bool = False,
    own_control: bool = True,
) -> bool:
    """May this ship declare a gun attack? ``active``: in play and not landed (landed and destroyed ships
    never fire); not resupplied this player-turn; under its owner's control (not captured or surrendered);
    not defensive-only (transport, tanker, liner); and :func:`operational` under its disabled policy."""
    return (
        active
        and not resupplied
        and own_control
        and not defensive_only
        and (disabled_turns <= 0 or operational(disabled_turns, policy))
    )


def can_counterattack(
    *,
    combat: int,
    defensive_only: bool,
    disabled_turns: int,
    policy: str = OPERATES_NEVER,
    active: bool = True,
    resupplied: bool = False,
    own_control: bool = True,
) -> bool:
    """May this ship join a counterattack? The conditions of :func:`can_attack` and a combat factor > 0."""
    return combat > 0 and can_attack(
        defensive_only=defensive_only,
        disabled_turns=disabled_turns,
        policy=policy,
        active=active,
        resupplied=resupplied,
        own_control=own_control,
    )


def counter_group(target: Combatant, candidates: Iterable[Combatant]) -> tuple[Combatant, ...]:
    """The counterattacking group of an attack on ``target``: the ``candidates`` (pass the target owner's
    ships that :func:`can_counterattack`, the target itself included if it can) standing in the target's hex
    with exactly the target's velocity, in the order given. Empty: no counterattack."""
    pos = target.position
    vel = target.velocity
    return tuple(c for c in candidates if c.position == pos and c.velocity == vel)


def primary_attacker(attackers: Sequence[Combatant]) -> Combatant:
    """The ship a counterattack aims at: highest printed combat factor, ties to more disabled turns, then to
    the smallest id (plain string order)."""
    if not attackers:
        raise ValueError("an attack needs at least one attacker")
    best = attackers[0]
    for a in attackers:
        if a.combat > best.combat or (
            a.combat == best.combat
            and (a.disabled_turns > best.disabled_turns or (a.disabled_turns == best.disabled_turns and a.id < best.id))
        ):
            best = a
    return best


def _min_distance(path: Sequence[Hex], position: Hex, tq: int, tr: int) -> int:
    """Distance from the target ``(tq, tr)`` to the closest hex of ``path`` (or ``position`` if empty)."""
    if not path:
        q = tq - position[0]
        r = tr - position[1]
        s = q + r
        return max(q if q >= 0 else -q, r if r >= 0 else -r, s if s >= 0 else -s)
    best = 1 << 30
    for hq, hr in path:
        q = tq - hq
        r = tr - hr
        s = q + r
        d = max(q if q >= 0 else -q, r if r >= 0 else -r, s if s >= 0 else -s)
        if d < best:
            best = d
    return best


def _group_modifiers(group: Iterable[Combatant], target: Hex, target_velocity: Hex) -> tuple[int, int, bool]:
    """(worst range penalty, worst velocity penalty, any heroic) of a group firing at a hex and velocity."""
    tq, tr = target
    vq, vr = target_velocity
    free = VELOCITY_FREE
    rmax = 0
    vmax = 0
    heroic = False
    for g in group:
        d = _min_distance(g.path, g.position, tq, tr)
        if d > rmax:
            rmax = d
        gv = g.velocity
        q = gv[0] - vq
        r = gv[1] - vr
        s = q + r
        d = max(q if q >= 0 else -q, r if r >= 0 else -r, s if s >= 0 else -s) - free
        if d > vmax:
            vmax = d
        if g.heroic:
            heroic = True
    return rmax, vmax, heroic


def group_range_modifier(attackers: Iterable[Combatant], target: Hex) -> int:
    """The attacking group's range penalty: the largest :func:`range_modifier` of its ships (0 if empty)."""
    tq, tr = target
    worst = 0
    for a in attackers:
        d = _min_distance(a.path, a.position, tq, tr)
        if d > worst:
            worst = d
    return worst


def group_velocity_modifier(attackers: Iterable[Combatant], target_velocity: Hex) -> int:
    """The attacking group's velocity penalty: the largest :func:`velocity_modifier` of its ships."""
    worst = 0
    for a in attackers:
        d = velocity_modifier(a.velocity, target_velocity)
        if d > worst:
            worst = d
    return worst


def group_line_of_sight(attackers: Iterable[Combatant], target: Hex, is_body: Callable[[Hex], bool]) -> bool:
    """True if every attacker sees ``target`` from its closest-approach hex (a group needs LOS from all)."""
    return all(line_of_sight(closest_approach(a.path, a.position, target), target, is_body) for a in attackers)


# --- table lookups and damage ------------------------------------------------------------------------------


def modified_roll(die: int, range_mod: int = 0, velocity_mod: int = 0, heroic: bool = False) -> int:
    """``die - range_mod - velocity_mod (+1 if heroic)``, not clamped (the table clamps)."""
    return die - range_mod - velocity_mod + (HEROISM_BONUS if heroic else 0)


def gun_result(column: int, modified: int) -> Damage:
    """The Gun Combat Results Table at an odds column and a modified roll (clamped to 0..6)."""
    if modified < MIN_ROLL:
        modified = MIN_ROLL
    elif modified > MAX_ROLL:
        modified = MAX_ROLL
    return GUN_COMBAT[modified][column]


def other_damage(source: str, die: int) -> Damage:
    """An Other Damage Table (``"torpedo"``, ``"mine"``, ``"asteroid"``, ``"ram"``) at a raw d6 (1..6)."""
    if not 1 <= die <= 6:
        raise ValueError(f"a d6 is 1..6, got {die}")
    try:
        return OTHER_DAMAGE[source][die - 1]
    except KeyError:
        raise ValueError(f"unknown damage source {source!r} (expected one of {OTHER_DAMAGE_SOURCES})") from None


def apply_damage(disabled_turns: int, result: Damage) -> tuple[int, bool]:
    """Accumulate a result: returns ``(new disabled turns, eliminated)``. D results add their turns; a total
    of 6 or more, or an E, eliminates (the turns are then returned unchanged for E)."""
    if result == Damage.ELIMINATED:
        return disabled_turns, True
    total = disabled_turns + result
    return total, total >= ELIMINATION_THRESHOLD


def repair(disabled_turns: int) -> int:
    """Disabled turns left after the end-of-player-turn repair of the owner's ships (one turn, never below 0)."""
    left = disabled_turns - REPAIR_PER_TURN
    return left if left > 0 else 0


def heroism_earned(declared_strength: int, defence_strength: int, result: Damage) -> bool:
    """An underdog attack (declared strength below the defender's strength) that scores D2 or better makes
    every ship of the attacking group heroic, permanently (+1 on all its later attack and counter rolls)."""
    return declared_strength < defence_strength and result >= HEROISM_MIN_RESULT


def result_counts(column: int, penalty: int = 0) -> tuple[int, ...]:
    """How many of the six faces of a d6 give each result (indexed by :class:`Damage`) at an odds column with
    a net penalty (range + velocity - heroism). For bots: probabilities are these counts over 6."""
    counts = [0] * 7
    for die in range(1, 7):
        counts[gun_result(column, die - penalty)] += 1
    return tuple(counts)


# --- resolutions -------------------------------------------------------------------------------------------


class Shot(NamedTuple):
    """One die rolled on the Gun Combat Results Table, with everything that went into it.

    ``odds`` is the column index (label: :attr:`odds_label`); ``heroism`` the bonus added (0 or 1);
    ``modified`` the roll before clamping."""

    odds: int
    attack_strength: int
    defence_strength: int
    range_mod: int
    velocity_mod: int
    heroism: int
    die: int
    modified: int
    result: Damage

    @property
    def odds_label(self) -> str:
        """The odds column as text (``"2:1"``)."""
        return ODDS_LABELS[self.odds]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for events: ``{"odds": "2:1", "attack": 8, "defence": 4, "range": 1, "velocity": 0,
        "heroism": 0, "die": 5, "modified": 4, "result": "D3"}``."""
        return {
            "odds": ODDS_LABELS[self.odds],
            "attack": self.attack_strength,
            "defence": self.defence_strength,
            "range": self.range_mod,
            "velocity": self.velocity_mod,
            "heroism": self.heroism,
            "die": self.die,
            "modified": self.modified,
            "result": _RESULT_LABELS[self.result],
        }


def _check_die(die: int, what: str) -> None:
    """Reject a die outside 1..6 (a caller bug, so ValueError)."""
    if not 1 <= die <= 6:
        raise ValueError(f"{what} must be a d6 roll 1..6, got {die}")


def resolve_shot(
    column: int,
    die: int,
    range_mod: int = 0,
    velocity_mod: int = 0,
    heroic: bool = False,
    attack_strength: int = 0,
    defence_strength: int = 0,
) -> Shot:
    """Roll ``die`` on the Gun Combat Results Table at ``column`` with the given modifiers."""
    _check_die(die, "die")
    bonus = HEROISM_BONUS if heroic else 0
    m = die - range_mod - velocity_mod + bonus
    return Shot(column, attack_strength, defence_strength, range_mod, velocity_mod, bonus, die, m, gun_result(column, m))


class AttackOutcome(NamedTuple):
    """The whole result of one gun attack on a ship (see :func:`resolve_attack`).

    Apply it in this order: the counterattack's damage to ``counter_target_id`` (its new disabled turns and
    whether it is eliminated are given), then the attack's damage to ``target_id``, then heroism (if
    ``heroism``, every ship of ``attacker_ids`` becomes heroic)."""

    attacker_ids: tuple[str, ...]
    target_id: str
    attack: Shot
    target_disabled_turns: int
    target_eliminated: bool
    heroism: bool
    counter_ids: tuple[str, ...] = ()
    counter: Shot | None = None
    counter_target_id: str | None = None
    counter_target_disabled_turns: int = 0
    counter_target_eliminated: bool = False

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for events (``counter`` is null when the target had no counterattack)."""
        return {
            "attackers": list(self.attacker_ids),
            "target": self.target_id,
            "attack": self.attack.to_json(),
            "target_disabled_turns": self.target_disabled_turns,
            "target_eliminated": self.target_eliminated,
            "heroism": self.heroism,
            "counter": None
            if self.counter is None
            else {
                "attackers": list(self.counter_ids),
                "target": self.counter_target_id,
                "shot": self.counter.to_json(),
                "target_disabled_turns": self.counter_target_disabled_turns,
                "target_eliminated": self.counter_target_eliminated,
            },
        }


def resolve_attack(
    attackers: Sequence[Combatant],
    target: Combatant,
    attack_die: int,
    *,
    declared: int | None = None,
    counterattackers: Sequence[Combatant] = (),
    counter_die: int | None = None,
) -> AttackOutcome:
    """Resolve one gun attack on a ship with the dice given (roll the attack die first, then the counter die
    only if ``counterattackers`` is not empty).

    - Attack strength: ``declared`` (a reduced or split-fire allocation, 1..group strength) or the group's
      full strength (sum of effective strengths). Defence: the target's effective strength.
    - Modifiers: the group's worst range (closest approach) and velocity penalties; +1 if any attacker is
      heroic.
    - Counterattack (before the attack's damage; the target counterattacks even if the attack destroys it):
      ``counterattackers`` (from :func:`counter_group`) at their total strength against the attacking group's
      *full* strength, aimed at :func:`primary_attacker`; range and velocity penalties recomputed from the
      counterattackers to that ship; +1 if any counterattacker is heroic. Counterattacks never earn heroism.
    - Heroism: see :func:`heroism_earned`, judged on the declared strength.

    Raises ValueError for programming errors (no attackers, a die outside 1..6, a declared strength outside
    1..group strength, a counter die missing or given without counterattackers); rule checks on declarations
    belong to :func:`allocate_strength`."""
    if not attackers:
        raise ValueError("an attack needs at least one attacker")
    if not 1 <= attack_die <= 6:
        raise ValueError(f"attack_die must be a d6 roll 1..6, got {attack_die}")
    full = 0
    for a in attackers:
        full += a.strength
    if declared is None:
        strength = full
    else:
        if not 1 <= declared <= full:
            raise ValueError(f"declared strength {declared} outside 1..{full}")
        strength = declared
    defence = target.strength
    column = odds_column(strength, defence)
    rmod, vmod, heroic = _group_modifiers(attackers, target.position, target.velocity)
    bonus = HEROISM_BONUS if heroic else 0
    m = attack_die - rmod - vmod + bonus
    result = GUN_COMBAT[MIN_ROLL if m < MIN_ROLL else MAX_ROLL if m > MAX_ROLL else m][column]
    shot = Shot(column, strength, defence, rmod, vmod, bonus, attack_die, m, result)

    counter_shot = None
    primary_id = None
    p_turns = 0
    p_elim = False
    if counterattackers:
        if counter_die is None:
            raise ValueError("a counterattack needs counter_die")
        if not 1 <= counter_die <= 6:
            raise ValueError(f"counter_die must be a d6 roll 1..6, got {counter_die}")
        primary = primary_attacker(attackers)
        primary_id = primary.id
        cstrength = 0
        for cc in counterattackers:
            cstrength += cc.strength
        ccol = odds_column(cstrength, full)
        crmod, cvmod, cheroic = _group_modifiers(counterattackers, primary.position, primary.velocity)
        cbonus = HEROISM_BONUS if cheroic else 0
        cm = counter_die - crmod - cvmod + cbonus
        cresult = GUN_COMBAT[MIN_ROLL if cm < MIN_ROLL else MAX_ROLL if cm > MAX_ROLL else cm][ccol]
        counter_shot = Shot(ccol, cstrength, full, crmod, cvmod, cbonus, counter_die, cm, cresult)
        p_turns, p_elim = apply_damage(primary.disabled_turns, cresult)
    elif counter_die is not None:
        raise ValueError("counter_die given but there are no counterattackers")

    t_turns, t_elim = apply_damage(target.disabled_turns, result)
    return AttackOutcome(
        tuple([a.id for a in attackers]),
        target.id,
        shot,
        t_turns,
        t_elim,
        strength < defence and result >= HEROISM_MIN_RESULT,
        tuple([cc.id for cc in counterattackers]),
        counter_shot,
        primary_id,
        p_turns,
        p_elim,
    )


def nuke_destroyed(shot: Shot) -> bool:
    """Any result other than "-" on an anti-nuke shot destroys the nuke."""
    return shot.result != Damage.NONE


def resolve_anti_nuke(attackers: Sequence[Combatant], nuke_position: Hex, nuke_velocity: Hex, die: int) -> Shot:
    """Ships firing at an enemy nuke: fixed 2:1 odds, the group's worst range and velocity penalties, no
    heroism, no counterattack, never reduced strength. The nuke is destroyed iff :func:`nuke_destroyed`."""
    if not attackers:
        raise ValueError("an attack needs at least one attacker")
    return resolve_shot(
        ANTI_NUKE_ODDS,
        die,
        group_range_modifier(attackers, nuke_position),
        group_velocity_modifier(attackers, nuke_velocity),
    )


def planetary_defense_shot(die: int) -> Shot:
    """A planetary base's shot at an enemy ship in its body's gravity within :data:`BASE_FIRE_RANGE` of the
    base hex (see :func:`in_base_fire_zone`): 2:1 odds, no modifiers, no counterattack."""
    return resolve_shot(PLANETARY_DEFENSE_ODDS, die)


def base_anti_nuke_shot(base: Hex, nuke_position: Hex, nuke_velocity: Hex, die: int) -> Shot:
    """A planetary base's shot at an enemy nuke it sees (check :func:`line_of_sight` from the base hex):
    2:1 odds, range = distance from the base, velocity penalty ``max(0, |V_nuke| - 2)`` (the base is still)."""
    return resolve_shot(
        ANTI_NUKE_ODDS,
        die,
        hex_distance(base, nuke_position),
        velocity_modifier(nuke_velocity, (0, 0)),
    )


def in_base_fire_zone(ship_hex: Hex, ship_gravity_body: str | None, base_hex: Hex, base_body: str) -> bool:
    """True if a planetary base shoots at a ship here: the ship's hex carries gravity of the base's own body
    and lies within :data:`BASE_FIRE_RANGE` (1) of the base hex. (The caller also requires the ship to be an
    active enemy, the base to be the active player's, undestroyed, on a body with gravity.)"""
    return ship_gravity_body == base_body and hex_distance(ship_hex, base_hex) <= BASE_FIRE_RANGE


# --- declarations ------------------------------------------------------------------------------------------


def allocate_strength(
    group_strength: int,
    allocated: int,
    declared: int | None,
    *,
    group_target_hex: Hex | None = None,
    target_hex: Hex | None = None,
    nuke: bool = False,
) -> int:
    """Check one attack declaration of a group against what the group already fired this phase, and return
    the strength it fires with. Raises ``IllegalAction`` (state untouched: this function has none).

    ``group_strength``: the group's full strength (sum of its ships' effective strengths, which for ships
    that may attack equals their printed factors); ``allocated``: strength it already declared this phase;
    ``declared``: the strength asked for (None: everything left); ``group_target_hex``: the hex of the ships
    it already fired at (None if none); ``nuke``: the target is a nuke.

    Rules: strengths are integers >= 1 and never exceed what is left (so a split never sums above the
    group's strength); split fire only at ships in one hex; a nuke takes the group's whole fire at once
    (no reduced strength, no split, no mixing nukes and ships)."""
    remaining = group_strength - allocated
    if remaining <= 0:
        raise IllegalAction("tactical.combat.group_spent", "this attacking group has no strength left to declare")
    if nuke:
        if allocated > 0:
            raise IllegalAction(
                "tactical.combat.split_nuke", "a group that fired at ships cannot also fire at a nuke"
            )
        if declared is not None:
            raise IllegalAction("tactical.combat.nuke_strength", "fire at a nuke is always at full strength")
        return remaining
    if group_target_hex is not None and target_hex is not None and group_target_hex != target_hex:
        raise IllegalAction("tactical.combat.split_hex", "split fire may only target ships in the same hex")
    if declared is None:
        return remaining
    if isinstance(declared, bool) or not isinstance(declared, int) or not 1 <= declared <= remaining:
        raise IllegalAction(
            "tactical.combat.strength", f"declared strength must be an integer from 1 to {remaining}, got {shown(declared)}"
        )
    return declared


def gun_target_error(*, enemy: bool, active: bool, detected: bool, landed: bool = False,
                     destroyed: bool = False) -> tuple[str, str] | None:
    """Why a ship cannot be the target of a gun attack, as ``(rule id, message)``, or None if it can: it must
    be an enemy, in play and not landed (landed ships are immune to guns), and detected. There is no range
    limit; line of sight is checked separately (:func:`group_line_of_sight`, rule
    ``tactical.combat.line_of_sight``). ``landed`` / ``destroyed`` name why a ship is not active (their own rule
    ids); ``active=False`` alone gives ``target_inactive``."""
    if not enemy:
        return ("tactical.combat.own_target", "you cannot attack your own ship")
    if destroyed:
        return ("tactical.combat.target_destroyed", "that ship is already destroyed")
    if landed:
        return ("tactical.combat.target_landed", "a landed ship is immune to gun attacks")
    if not active:
        return ("tactical.combat.target_inactive", "only a ship in flight (not landed or destroyed) can be shot at")
    if not detected:
        return ("tactical.combat.target_undetected", "an undetected ship cannot be targeted")
    return None


def check_line_of_sight(attackers: Iterable[Combatant], target: Hex, is_body: Callable[[Hex], bool]) -> None:
    """Raise ``IllegalAction("tactical.combat.line_of_sight", ...)`` unless every attacker sees ``target``."""
    if not group_line_of_sight(attackers, target, is_body):
        raise IllegalAction("tactical.combat.line_of_sight", "a body blocks the line of sight of an attacker")


def check_split_fire(strengths: Sequence[int], group_combat: int, target_hexes: Sequence[Hex]) -> None:
    """Check a whole split-fire declaration of one group at once: one integer strength >= 1 per target,
    summing to at most the group's printed combat sum, every target in the same hex. Raises
    ``IllegalAction`` with rule ``tactical.combat.strength`` or ``tactical.combat.split_hex``."""
    if len(strengths) != len(target_hexes) or not strengths:
        raise IllegalAction("tactical.combat.strength", "give exactly one strength per target")
    total = 0
    for s in strengths:
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            raise IllegalAction("tactical.combat.strength", f"each declared strength must be an integer >= 1, got {shown(s)}")
        total += s
    if total > group_combat:
        raise IllegalAction(
            "tactical.combat.strength", f"declared strengths sum to {total}, above the group's combat factor {group_combat}"
        )
    first = target_hexes[0]
    if any(h != first for h in target_hexes):
        raise IllegalAction("tactical.combat.split_hex", "split fire may only target ships in the same hex")
