"""The scenario briefing of Deep Space Combat (``DeepSpaceGame.briefing``): what a round is, each fleet's budget and
ships, each side's goal, what wins, and notes (the round limit, withdrawal, the agreed size levels, the rulings
that differ from the rules text's defaults), read from the options alone.

Owns: the briefing's wording. Must not read a state, nor tell a seat more than the scenario does: a side that
designs its fleet during play is described by its budget only; a fixed fleet by its public ships (the scenario
file is public).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.protocol import player_names
from deltav.games.deepspace.design import POINTS_PER_SIZE
from deltav.games.deepspace.text import plural, ship_labels

ROUND = ("A round: every fleet plots in secret and at once (each ship's new velocity, paid for with thrust, and "
         "each weapon's target); then the plots are revealed, ships move, every weapon fires at once, each "
         "defender places the hit points its ships took on their stats, ships with every stat at zero are "
         "destroyed, and any ship may self-destruct against everything in its hex.")
AGREED = ("The players agreed on the size levels: every side designs its fleet in secret (it may adopt a ready-made "
          "one that fits), then they fight.")
POINTS = "Campaign points: hit points inflicted on enemies minus hit points received."


def forces(side, labels: list[str] | None) -> list[str]:
    """One side's fleet in words, one short item each (the shell lists them after "Forces:"): a designing side's
    budget; a fixed fleet's title and budget, then each ship with its size."""
    if side.fleet is None:
        return [f"a fleet it designs itself: {plural(side.size_levels, 'size level')} ({POINTS_PER_SIZE} design points "
                "per level of a ship's size), secret until it shows in battle"]
    return [f"{side.fleet.title} ({plural(side.size_levels, 'size level')})"] + [
        f"{name} (size {d.size})" for d, name in zip(side.fleet.ships, labels or [], strict=False)]


def briefing(game, options: Mapping[str, Any], seat: int | None, names: Sequence[str] | None) -> dict:
    opts = game.resolve_options(options)
    sc = game._scenario(opts)
    n = len(sc.players)
    who = player_names(names, n)
    labels = ship_labels(sc)
    limit = opts["round_limit"] or sc.round_limit
    two = n == 2 and opts["two_fleet_victory"] == "annihilation"
    if two:
        goal = "Destroy the other fleet or drive it from the field, and keep your own ships in the battle."
        wins = (f"The side left on the field wins: the other fleet destroyed or withdrawn. Both gone is a draw. After "
                f"round {limit} the campaign points decide. {POINTS}")
    else:
        goal = "Deal more damage than you take: every hit point you inflict on an enemy scores, every one you take costs."
        wins = (f"The best campaign points win when at most one fleet is left in the battle, or after round {limit}. "
                f"{POINTS}")
    sides = [{"seat": p, "name": who[p], "forces": forces(side, labels[p]), "goal": goal}
             for p, side in enumerate(sc.players)]
    notes = [f"The battle lasts at most {limit} rounds."]
    levels = [side.size_levels for side in sc.players]
    if opts["size_levels"].strip():
        each = (f"{plural(levels[0], 'size level')} each" if len(set(levels)) == 1 else
                ", ".join(f"{who[p]}: {levels[p]}" for p in range(n)))
        notes.append(f"The players agreed on the fleets' size levels ({each}): every side designs its fleet.")
    elif len(set(levels)) > 1:
        notes.append("The fleets' budgets are unequal: " + ", ".join(
            f"{who[p]} {plural(levels[p], 'size level')}" for p in range(n)) + ".")
    if opts["withdrawal_radius"]:
        notes.append(f"A ship farther than {opts['withdrawal_radius']} hexes from every enemy may withdraw from the "
                     "battle (it is safe, and scores no more).")
    if opts["arena_radius"]:
        notes.append(f"A ship that ends its move farther than {opts['arena_radius']} hexes from the centre has left "
                     "the battle.")
    if opts["initial_velocity"] == "rest":
        notes.append("Every ship starts at rest.")
    notes.append("Sizes and velocities are seen by everyone; thrust, evasion, endurance and weapons only by their "
                 "owner.")
    return {
        "title": f"{game.title}: {sc.title}" if sc.title else game.title,
        "objective": " ".join(x for x in (AGREED if opts["size_levels"].strip() else sc.summary, ROUND) if x),
        "sides": sides,
        "wins": wins,
        "notes": notes,
    }
