"""The briefing of a mining match (``MiningGame.briefing``), shown before a seat's first decision: what a turn is,
what each player starts with, what wins and ends the game, and the rulings of this match that differ from the
defaults, in plain words for the chosen player count and options.

Built from the options and the component file alone (public facts). This module owns those words; it decides no
rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.protocol import player_names
from deltav.games.mining.scenarios import ALIENS_TO_END, MINERALS

# a plain sentence for each ruling whose value in this match is not the default (the default is the rulebook's
# reading, described in the turn and the end above)
NON_DEFAULT = {
    "mandatory_contract_attempt": "Trying a contract is optional in this game: you may end your turn without one.",
    "asteroid_to_asteroid": "Rockets may also fly straight from one asteroid to another.",
    "bump": "A rocket landing on opponents' rockets bumps every one of them (not just one).",
    "survey_short_lines": "A satellite survey must look at exactly three tiles.",
    "incident_ends_attempt": "An incident revealed during a contract attempt is resolved and the attempt goes on.",
    "overmatch": "A surplus tile of a mineral already matched is set aside instead of failing the attempt.",
    "omnidium_bid_up": "An Omnidium counter may bid up any contract; the fulfiller must then reveal Omnidium.",
    "bid_up": "There are no bid-ups in this game.",
    "skip_empty_windows": "Every opponent is asked in every Pirate Attack, Meteor Storm and bid-up window.",
    "incident_cooldown": "Incidents may be played on the turn they were taken.",
    "scan_counts_station_rockets": "A Mineral Scan's extra looks count only your rockets on asteroids.",
    "sabotage_any_rocket": "Sabotage cannot touch rockets on the station or held by the alien.",
    "alien_tiles_count_for_end": "Face-up Alien Encounter tiles count as free tiles for the end of the game.",
    "stolen_bribe": "A stolen bribe counter leaves the game.",
    "revealed_tiles_known": "Tiles flipped back after a failed attempt are not marked as known to all.",
    "full_tie": "A complete tie is a draw: nobody wins.",
}


def briefing(game, options: Mapping[str, Any] | None, seat: int | None, names: Sequence[str] | None) -> dict:
    """``{"title", "objective", "sides": [{"seat", "name", "forces", "goal"}], "wins", "notes"}``."""
    opts = game.resolve_options(options)
    cfg = game.config(opts)
    n = opts["players"]
    who = player_names(names, n)
    rockets = cfg.rockets
    counters = ", ".join(m.capitalize() for m in MINERALS)
    forces = ["1 rocket on the station", f"{rockets - 1} rockets in the shipyard", "5 bribe counters"]
    goal = "the most points"
    sides = [{"seat": p, "name": who[p], "forces": list(forces), "goal": goal} for p in range(n)]
    limit = opts["max_turns"]
    default_limit = next(o.default for o in game.options if o.name == "max_turns")
    turn_limit = f"; or after {limit} turns in all (this game's turn limit)" if limit != default_limit else ""
    notes = [
        "Your turn: take ONE action (move rockets from the station to asteroids and back, prospect under your "
        "rockets, a satellite survey of three tiles in a row or column for a bribe counter, or buy a rocket), then "
        "try ONE contract: declare it and reveal tiles one at a time until it is matched or a tile does not fit.",
        "What you see when you look is yours alone; the others see only where you looked. Remember it.",
        f"Each player's 5 bribe counters ({counters}) pay for a satellite survey, a mineral replacement (a tile "
        "that does not fit counts as the counter's mineral) or a bid-up of an opponent's contract; each is used "
        "once and costs 2 points at the end.",
        "A rocket landing on an opponent's rocket sends both back to their shipyards. The alien freezes the rockets "
        "on its tile.",
        f"This game: {n} players, {cfg.comps.title}; who goes first is drawn at random.",
    ]
    for opt in game.options:
        if opt.ruling and opts.get(opt.name) != opt.default and opt.name in NON_DEFAULT:
            notes.append(NON_DEFAULT[opt.name])
    return {
        "title": f"Delta V asteroid mining: {n} players",
        "objective": "Run a mining corporation: fulfil government contracts by revealing asteroid tiles whose "
                     "minerals match them. Each collected tile scores its value; each bribe counter you spend "
                     "costs 2 points.",
        "sides": sides,
        "wins": "The most points wins (ties: the most fulfilled contracts, then the most unspent bribe counters). "
                f"The game ends when the last contract is fulfilled, when the {_ordinal(ALIENS_TO_END)} Alien "
                "Encounter is revealed, or when no face-down tile is free of rockets and the alien at the end of a "
                f"turn{turn_limit}.",
        "notes": notes,
    }


def _ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"{k}th")
