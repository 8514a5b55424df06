"""The tuning of the tactical difficulty levels as data: one frozen :class:`Knobs` record per level.

This module owns the numbers only; :class:`~deltav.games.tactical.bots.level_bot.LevelBot` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Knobs:
    """The knobs of one level (docs/bots-tactical.md). ``noise``: share of turns (after the first) in which a
    ship takes a random order that neither crashes nor strands it; ``overload``: overloads considered;
    ``ordnance``: launches torpedoes; ``attacks``: gun attacks per combat phase; ``planner``: follows the
    astrogation planner's fewest-turns route to a landing or checkpoint (and plans around asteroids, looking
    three moves ahead); ``tactics``: adds the two-ply gun evaluation (tactics.py) to every course, weighted by
    ``tactics``; ``follow_up``: weight of the third ply (the next turn's best shot); ``fleet``: ``biggest``
    hulls or combat factor ``per_credit``; ``lookahead``: penalise courses whose next drift cannot be survived;
    ``escort``: a ship of a side that must land colonists keeps station with their carrier (same order);
    ``drift_guard``: penalty of a course whose drift (as a disabled ship) crashes while enemy guns can reach us;
    ``intercept``: weight of the multi-turn intercept plan's value (intercept.py) for a ship chasing a runner,
    searched ``intercept_horizon`` moves deep with a beam of ``intercept_beam``; ``carriers``: how many of the
    enemy's colonist carriers the intercept plan considers; ``spread``: colonists are shared over the hulls on a
    carrier's course in the logistics phase (``"spread"``; ``"rescue"``: only out of a disabled carrier; None:
    never); ``land_next``: a course after which the next order can land on the goal earns a bonus weighted by
    the chance of arriving undamaged (planetary defense, enemy guns); ``hold``: an outgunned last ship
    defending against colonists or a runner waits landed at its bases until a carrier could land next move;
    ``refuel_beam``, ``refuel_depth``: the planner's beam and depth (at most the bot's own) for a route back to a
    friendly base to refuel; ``combat_refuel_beam``: that route's beam (at most ``refuel_beam``) in a scenario
    with combat, where it is a retreat (issue 30's fourth pass: hard 12; on the head-to-head tapes of Duel and
    Escape it found every route the beam of 32 found, every answer the same, and a failing search, which
    explores the whole beam to its full depth, cost a third; Grand Tour, a race without combat, keeps 32: there
    the refuel route is the way round and a narrower beam made the tour longer); ``fleet_refuel_beam``: the
    same in a fleet battle (``level_bot.fleet_battle``: the sides bought their fleets, Fleet Action and
    Interplanetary War), in place of ``combat_refuel_beam`` (hard 20: those routes were a fifth of the hard bot's
    CPU there, half of the searches failing after exploring the whole beam; 12 doubled the fuel stalls in
    Interplanetary War); ``nearest_group``: a gun attack is made by the best group of the ships that see the
    target within a range and velocity bound (``heuristics.attack_groups``), not by all of them."""

    noise: float = 0.0
    overload: bool = True
    ordnance: bool = True
    attacks: int = 99
    planner: bool = False
    tactics: float = 0.0
    follow_up: float = 0.0
    fleet: str = "per_credit"
    lookahead: bool = True
    escort: bool = False
    drift_guard: float = 0.0
    intercept: float = 0.0
    intercept_horizon: int = 6
    intercept_beam: int = 60
    carriers: int = 1
    spread: str | None = None
    land_next: bool = False
    hold: bool = False
    refuel_beam: int = 48
    refuel_depth: int = 16
    combat_refuel_beam: int = 48
    fleet_refuel_beam: int = 48
    nearest_group: bool = False


LEVELS: dict[str, Knobs] = {
    "easy": Knobs(noise=0.25, overload=False, ordnance=False, attacks=1, fleet="biggest", lookahead=False),
    "normal": Knobs(escort=True, spread="spread"),
    "hard": Knobs(planner=True, tactics=60.0, follow_up=0.5, escort=True, drift_guard=200.0, intercept=300.0,
                  intercept_horizon=6, intercept_beam=60, land_next=True, spread="spread", hold=True, carriers=2,
                  refuel_beam=32, refuel_depth=12, combat_refuel_beam=12, fleet_refuel_beam=20, nearest_group=True),
}
