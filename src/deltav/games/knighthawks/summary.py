"""The summary of a finished Knight Hawks match (``KnightHawks.match_summary``): the victory points as the rules
score them (destroyed enemy ships their class points, ships driven off half), the scenario's objective and how it
ended, and statistics per side counted from every event of the match (shots, hits, hull points dealt, systems
knocked out, ships destroyed and escaped, ICMs, repairs).

Owns: the summary's figures and wording. Must not change the state; it reads the final state (nothing is secret
once the match is over) and the match's events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from deltav.games.knighthawks.briefing import POINTS_RULE
from deltav.games.knighthawks.ships import DEAD, GONE
from deltav.games.knighthawks.victory import escaped

STATS = ("Shots fired", "Hits", "Hull points dealt", "Systems knocked out", "Enemy ships destroyed", "Own ships escaped",
         "Own ships driven off", "ICMs fired", "Repairs made")


def _objective(state) -> str:
    v = state.victory
    if v["kind"] in ("exit", "destroy"):
        sh = state.ship(v["ship"])
        side = state.sides[sh.owner]
        if v["kind"] == "exit":
            edge = v.get("edge", "any")
            where = "any edge" if edge == "any" else f"the {edge} edge"
            return f"Objective: {side} must get {sh.name} off the map by {where} within {state.turn_limit} turns."
        return f"Objective: {state.sides[1 - sh.owner]} must destroy {sh.name} within {state.turn_limit} turns."
    return (f"Objective: destroy or drive off the enemy; after {state.turn_limit} turns the side with more points "
            "wins.")


def match_summary(state, events: Iterable[Any], names: Sequence[str] | None) -> dict:
    names = list(names) if names else ["Player 1", "Player 2"]
    owner = {s.id: s.owner for s in state.ships}
    # traps: the scenario's (trap-k, in its order) and those dropped in play (their ``laid`` events)
    traps: dict[str, int] = {}
    for t in state.mines:
        traps[t[0]] = t[1]
    stats = {k: [0, 0] for k in STATS}
    evs = [e.to_json() if hasattr(e, "to_json") else dict(e) for e in events]
    for e in evs:
        if e.get("type") == "laid":
            traps[e["id"]] = owner.get(e["ship"], 0)
    for e in evs:
        t = e.get("type")
        if t == "attack":
            side = owner.get(e["source"], traps.get(e["source"]))
            if side is None:
                tgt = owner.get(e["target"])
                side = None if tgt is None else 1 - tgt
            if side is not None:
                stats["Shots fired"][side] += 1
                stats["Hits"][side] += 1 if e["hit"] else 0
        elif t == "damage":
            victim = owner.get(e["ship"])
            if victim is None:
                continue
            if e["hull"]:
                stats["Hull points dealt"][1 - victim] += e["hull"]
            if e["effect"] != "hull":
                stats["Systems knocked out"][1 - victim] += 1
        elif t == "intercepted" and e.get("icms"):
            victim = owner.get(e["target"])
            if victim is not None:
                stats["ICMs fired"][victim] += e["icms"]
        elif t == "repair_roll" and e.get("outcome") == "repaired":
            side = owner.get(e["ship"])
            if side is not None:
                stats["Repairs made"][side] += 1
    for s in state.ships:
        if s.status == DEAD:
            stats["Enemy ships destroyed"][1 - s.owner] += 1
        elif s.status == GONE:
            stats["Own ships escaped" if escaped(state, s) else "Own ships driven off"][s.owner] += 1
    # points as the rules count them (victory.tally), split into what was destroyed and what was driven off
    destroyed = [0, 0]
    driven = [0, 0]
    for s in state.ships:
        if s.status == DEAD:
            destroyed[1 - s.owner] += s.points
        elif s.status == GONE and not escaped(state, s):
            driven[1 - s.owner] += s.points // 2
    rows = []
    for p in (0, 1):
        who = names[p] if p < len(names) else f"Player {p + 1}"
        rows.append([who, state.sides[p], destroyed[p], driven[p], destroyed[p] + driven[p]])
    notes = [_objective(state)]
    res = state.result()
    if res is not None and res.reason:
        r = res.reason
        notes.append(f"The battle ended on game turn {min(state.turn, state.turn_limit)}: {r}.")
    notes.append(POINTS_RULE)
    if state.victory["kind"] != "exit":
        del stats["Own ships escaped"]
    return {
        "scores": {"title": "Victory points",
                   "columns": ["Player", "Side", "Ships destroyed", "Ships driven off", "Points"],
                   "rows": rows},
        "stats": [{"label": k, "values": v} for k, v in stats.items()],
        "notes": notes,
    }
