"""The scenario briefing of Delta-V tactical (``TacticalGame.briefing``, issue 26 "what the reference has"): what
a seat reads before its first decision: the objective, each side's forces and goal, what wins, and the
scenario's special rules, in words.

The objective and each side's goal are scenario data (``objective`` and ``players[].goal`` of the scenario
files); the forces, what wins and the notes are worded here from the scenario's ships, rule flags and the
options (rulings, turn limit). Everything is public: a briefing is the same for every seat but for who reads it
(``seat``, for a client that marks "you"). This module reads scenario data only; it changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.protocol import player_names

from .labels import class_word
from .places import place
from .scenarios import Scenario, get_scenario

_ORDNANCE = {"mine": "mines", "torpedo": "torpedoes", "nuke": "nukes"}


def _plural(word: str, n: int) -> str:
    if n == 1:
        return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"
    return f"{n} {word}es" if word.endswith(("s", "sh", "ch")) else f"{n} {word}s"


def _join(words: Sequence[str]) -> str:
    words = [w for w in words if w]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def forces(sc: Scenario, p: int) -> list[str]:
    """A side's starting forces in words, one line per class: ``["a liner (120 colonists), landed at the NE base
    of Mars", "a tanker, landed at the NE base of Mars", ...]``; a fleet to buy: ``"a fleet bought with 600 MC:
    corvettes, corsairs, frigates, dreadnaughts or torches"``."""
    pl = sc.players[p]
    groups: dict[str, list] = {}
    for s in pl.ships:
        groups.setdefault(s.type, []).append(s)
    out = []
    for t, ships in groups.items():
        word = _plural(class_word(t), len(ships))
        colonists = sum(s.passengers for s in ships)
        if colonists:
            word += f" ({colonists} colonists)"
        wheres = []
        for s in ships:
            w = ("landed at " if s.landed else "at ") + place(s.position)
            if w not in wheres:
                wheres.append(w)
        out.append(f"{word}, {_join(wheres)}")
    if pl.credits:
        buy = [_plural(class_word(x), 2).split(" ", 1)[1] if x != "orbitalBaseCargo" else "orbital bases"
               for x in sc.rules.fleet_purchases]
        out.append(f"a fleet bought with {pl.credits} MC: {', '.join(buy[:-1])} or {buy[-1]}" if len(buy) > 1
                   else f"a fleet bought with {pl.credits} MC: {_join(buy)}")
    return out


def _wins(sc: Scenario, opts: Mapping[str, Any], names: list[str]) -> str:
    rules = sc.rules
    out = []
    cps = list(rules.checkpoints)
    if cps and opts.get("grand_tour_luna") and "Luna" not in cps:
        cps.insert(cps.index("Mars") if "Mars" in cps else len(cps), "Luna")
    if cps:
        out.append(f"the first side to pass {_join(cps)} and then land back home wins the Grand Tour")
    for p, pl in enumerate(sc.players):
        if pl.target:
            cargo = " with colonists aboard" if rules.target_requires_passengers else ""
            out.append(f"{names[p]} wins by landing a ship{cargo} on {pl.target}")
    if rules.escape_edge == "north":
        runners = [names[p] for p, pl in enumerate(sc.players) if pl.escape_wins]
        who = _join(runners) or "the runners"
        what = "the fugitives' transport" if rules.hidden_identity else "a ship"
        out.append(f"{who} wins by flying {what} off the map's northern edge (decisive with fuel to spare, else "
                   "marginal)")
    if rules.hidden_identity:
        out.append("the fugitives destroyed, or captured and landed at an enforcer base, win for the enforcers "
                   "unless the pilgrims have already destroyed an enforcer ship or disabled one 2 turns or more "
                   "(a moral victory)")
    if rules.target_requires_passengers:
        for p, pl in enumerate(sc.players):
            if pl.target:
                out.append(f"{names[p]} loses when no ship carrying colonists survives")
    if not rules.hidden_identity:
        out.append("a side with no ship left loses" + (" (if both lose their last ships at once, the side that "
                                                       "was moving loses)" if rules.combat else ""))
        if opts.get("surrender_ends_game", False):
            out.append("a side that surrenders loses")
    limit = opts.get("turn_limit")
    if limit:
        tail = " (the Grand Tour: the side with more checkpoints wins)" if cps else ""
        out.append(f"after {limit} turns the game ends in a draw{tail}")
    text = "; ".join(out)
    return text[:1].upper() + text[1:] + "."


def _notes(sc: Scenario, opts: Mapping[str, Any], names: list[str]) -> list[str]:
    rules = sc.rules
    notes = []
    first = sc.starting_player
    notes.append("The first player is drawn at random." if first == "random" else f"{names[first]} moves first.")
    if not rules.combat:
        notes.append("No combat: ships cannot fire; asteroids still damage a ship passing through them too fast.")
    elif rules.planetary_defense:
        notes.append("Planetary defense: each base fires (2:1) at the enemy ships that end a move in its body's "
                     "gravity next to it, in its owner's turn.")
    else:
        notes.append("No planetary defense: bases do not fire.")
    kinds = [_ORDNANCE[k] for k in rules.allowed_ordnance if k in _ORDNANCE]
    if rules.combat:
        notes.append(f"Ordnance allowed: {_join(kinds)}." if kinds else "No ordnance.")
    if rules.logistics:
        goods = "fuel, cargo and colonists" if rules.passenger_rescue else "fuel and cargo"
        notes.append(f"Transfers: ships in one hex on one course may pass {goods}, and loot disabled enemies.")
    if rules.hidden_identity:
        notes.append("One of the pilgrim transports secretly carries the fugitives: only its owner knows which, "
                     "until an enforcer ship ends a move in its hex on its course and inspects it.")
    if any(pl.credits for pl in sc.players):
        notes.append("Fleet building: each side buys its fleet in secret; the ships appear landed at its bases.")
    if opts.get("fog_of_war", True):
        notes.append("Fog of war: an enemy ship shows only once detected (within 3 hexes of one of your ships or "
                     "5 of one of your bases); a ship landed at its own base hides again.")
    if rules.combat and not rules.hidden_identity and opts.get("surrender_ends_game", False):
        notes.append("Surrender (every ship you control strikes its colours) ends the game: the other side wins.")
    return notes


def briefing(options: Mapping[str, Any], seat: int | None, names: Sequence[str] | None = None) -> dict:
    """The briefing of a scenario for ``seat`` (None: a spectator): ``{"title", "objective", "sides": [{"seat",
    "name", "forces": [text], "goal"}], "wins", "notes"}`` (``protocol.check_briefing``)."""
    names = player_names(names, 2)
    sc = get_scenario(options["scenario"])
    sides = [{"seat": p, "name": names[p], "forces": forces(sc, p), "goal": sc.players[p].goal or ""}
             for p in (0, 1)]
    return {
        "title": sc.name,
        "objective": sc.objective or sc.summary,
        "sides": sides,
        "wins": _wins(sc, options, names),
        "notes": _notes(sc, options, names),
    }
