"""Our rulings on the gaps and contradictions of the Delta V (asteroid mining) rules (shared/design/mining.md
sections 1.4 and 1.5): each is a named game option (``ruling=True``) whose default is our ruling, listed in the
rulings table of docs/mining.md.

Owns: the ruling options. Must not apply any rule itself.
"""

from __future__ import annotations

from deltav.core.protocol import Option

RULING_OPTIONS = (
    Option("mandatory_contract_attempt", bool, True, "1.5.1 [rulebook: 'you must ... 2. Try to fulfill a "
           "contract']: a contract must be declared whenever one can be; false makes the attempt optional (a "
           "'pass')", ruling=True),
    Option("asteroid_to_asteroid", bool, False, "1.5.2 [rulebook]: rockets move station->asteroid or "
           "asteroid->station only; true also allows direct asteroid->asteroid moves", ruling=True),
    Option("bump", str, "one", "1.5.3: a rocket ending on opponents' rockets removes itself and ONE of them "
           "(the mover picks whose); 'all' removes every opponent rocket there", choices=("one", "all"), ruling=True),
    Option("survey_short_lines", bool, True, "1.5.4: a survey line with fewer than three eligible tiles may be "
           "surveyed with 1 or 2; false requires exactly three", ruling=True),
    Option("incident_ends_attempt", bool, True, "1.5.5: an incident revealed in a contract attempt ends it as a "
           "failure; false resolves the incident and lets the attempt go on", ruling=True),
    Option("overmatch", str, "mismatch", "1.5.6: a surplus tile of a needed mineral is a mismatch; 'ignored' "
           "leaves it face-up, unused, and the attempt goes on", choices=("mismatch", "ignored"), ruling=True),
    Option("omnidium_bid_up", str, "not_allowed", "1.5.7 [rulebook: a bid-up bribe must match a mineral of the "
           "contract; Brian 'could only spend a Betamite, Gammatite, or Deltamite bribe counter']: an Omnidium "
           "bribe counter may not bid up; 'reveal_omnidium' lets it bid up any contract and the fulfiller must "
           "then reveal Omnidium", choices=("reveal_omnidium", "not_allowed"), ruling=True),
    Option("bid_up", bool, True, "1.5.8: after each fulfilment opponents are asked clockwise whether to bid up; "
           "false plays without bidding up", ruling=True),
    Option("skip_empty_windows", bool, True, "1.5.9: Pirate Attack / Meteor Storm / bid-up windows ask only "
           "players who can react (holdings are public); false asks every opponent", ruling=True),
    Option("incident_cooldown", bool, True, "1.5.10 [rulebook]: an incident may not be used on the turn it was "
           "taken; false allows it", ruling=True),
    Option("scan_counts_station_rockets", bool, True, "1.5.11: Mineral Scan's extra looks equal your rockets in "
           "play including those on the station; false counts rockets on asteroids only", ruling=True),
    Option("sabotage_any_rocket", bool, True, "1.5.12: Sabotage may remove rockets on the station or frozen by the "
           "alien; false only unfrozen rockets on asteroids", ruling=True),
    Option("alien_tiles_count_for_end", bool, False, "1.5.13: the 'no free tiles' end counts face-down tiles "
           "only; true counts face-up Alien Encounter tiles too", ruling=True),
    Option("stolen_bribe", str, "usable", "1.5.14: a stolen unspent bribe counter joins the thief's counters "
           "(spending it later costs the thief 2 points); 'discarded' takes it out of the game",
           choices=("usable", "discarded"), ruling=True),
    Option("revealed_tiles_known", bool, True, "1.5.15: tiles revealed in an attempt and flipped back are known "
           "to every player; false credits nobody with them", ruling=True),
    Option("full_tie", str, "shared", "1.5.16: players tied on points, contracts and unspent bribes share the "
           "win; 'draw' makes nobody win", choices=("shared", "draw"), ruling=True),
)
