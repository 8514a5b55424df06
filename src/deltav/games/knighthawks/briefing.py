"""The scenario briefing of Knight Hawks (``KnightHawks.briefing``): the title, the objective, each side's ships and
goal, what wins, and notes (the turn limit, who moves first, the minefields), read from the scenario alone, and
the wording of the victory conditions the match summary reuses.

Owns: the briefing's wording. Must not read a state, nor tell a seat more than its view would: the other side's
traps placed before play are only counted, never placed or named (its own are described).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deltav.games.knighthawks.tables import tables

POINTS_RULE = "A destroyed enemy ship scores its class points, one driven off the map half of them."


def _count_words(n: int, noun: str) -> str:
    if n == 1:
        return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"
    return f"{n} {noun}{'es' if noun.endswith(('s', 'x')) else 's'}"


def ship_label(spec) -> str:
    """A scenario ship as the texts name it: its name, and its class when the name does not say it."""
    cname = tables().classes[spec.cls].name
    return spec.name if cname.lower() in spec.name.lower() else f"{spec.name} ({cname})"


def forces(scen, side: int) -> list[str]:
    """One side's ships in words, one each: "Z'Gata (frigate)", "UPF fighter A, docked at Ken'zah Station"."""
    by_id = {s.id: s for s in scen.ships}
    out = []
    for s in scen.ships:
        if s.side != side:
            continue
        where = (f", docked at {by_id[s.docked].name}" if s.docked in by_id else "") + (
            f", in orbit round {s.orbit[0]}" if s.orbit else "")
        out.append(ship_label(s) + where)
    return out


def goals(scen, turn_limit: int) -> tuple[str, str]:
    """Each side's goal in words, from the scenario's victory condition."""
    v = scen.victory
    if v["kind"] in ("exit", "destroy"):
        spec = next(s for s in scen.ships if s.id == v["ship"])
        who, label = spec.side, ship_label(spec)
        if v["kind"] == "exit":
            edge = {"east": "the east edge", "west": "the west edge"}.get(v.get("edge", "any"), "any edge")
            mine = f"Get {label} off the map by {edge} within {turn_limit} turns."
            theirs = f"Destroy {label} or drive it off any other way before it escapes (within {turn_limit} turns)."
        else:
            mine = f"Keep {label} alive for {turn_limit} turns."
            theirs = f"Destroy {label} within {turn_limit} turns."
        return (mine, theirs) if who == 0 else (theirs, mine)
    both = (f"Destroy or drive off every enemy ship; after {turn_limit} turns the side with more points wins.")
    return both, both


def wins(scen, turn_limit: int) -> str:
    v = scen.victory
    if v["kind"] == "exit":
        spec = next(s for s in scen.ships if s.id == v["ship"])
        side = scen.sides[spec.side]
        return (f"{side} win when {ship_label(spec)} leaves the map by the {v.get('edge', 'any')} edge; "
                f"{scen.sides[1 - spec.side]} win if it is destroyed, leaves by another edge, or is still on the "
                f"map after turn {turn_limit}.").replace("the any edge", "any edge")
    if v["kind"] == "destroy":
        spec = next(s for s in scen.ships if s.id == v["ship"])
        return (f"{scen.sides[1 - spec.side]} win when {ship_label(spec)} is destroyed; "
                f"{scen.sides[spec.side]} win if it still stands after turn {turn_limit}.")
    return (f"A side wins when the other has no ship left in the battle (destroyed or driven off the map); after "
            f"turn {turn_limit} the side with more points wins (equal points: a draw). {POINTS_RULE}")


def briefing(scen, turn_limit: int, seat: int | None, names: Sequence[str] | None) -> dict[str, Any]:
    names = list(names) if names else ["Player 1", "Player 2"]
    g = goals(scen, turn_limit)
    sides = []
    for p in (0, 1):
        who = names[p] if p < len(names) else f"Player {p + 1}"
        goal = f"{scen.sides[p]}: {g[p][0].lower()}{g[p][1:]}"  # the fleet's name, the seat's own in ``name``
        sides.append({"seat": p, "name": who, "forces": forces(scen, p), "goal": goal})
    notes = [f"{scen.sides[scen.first]} move first each game turn; a repair turn follows every third turn.",
             f"The battle lasts at most {turn_limit} game turns."]
    for p in (0, 1):
        traps = [k for side, k, _h in scen.mines if side == p]
        if not traps:
            continue
        if seat == p:
            mines, seekers = traps.count("M"), traps.count("S")
            parts = [x for x in (_count_words(mines, "mine pattern") if mines else "",
                                 _count_words(seekers, "seeker") if seekers else "") if x]
            them = "them" if len(traps) > 1 else "it"
            notes.append(f"Your side placed {' and '.join(parts)} before the battle: the enemy cannot see {them}.")
        else:
            what = "mine patterns or seekers" if len(traps) > 1 else "a mine pattern or a seeker"
            notes.append(f"{scen.sides[p]} placed {_count_words(len(traps), 'hidden trap')} ({what}) before the "
                         "battle: where, nobody else knows until one goes off.")
    if any(s.docked for s in scen.ships):
        notes.append("Docked fighters and scouts cannot be attacked until they launch.")
    objective = g[seat] if seat in (0, 1) else scen.summary
    return {"title": scen.title, "objective": objective, "sides": sides, "wins": wins(scen, turn_limit),
            "notes": notes}
