"""The summary of a finished Deep Space Combat match (``DeepSpaceGame.match_summary``): the campaign points as the
rules score them (hit points inflicted on enemies minus hit points received, rules section MISC) as a table, a few
statistics per fleet counted from every event of the match (shots, hits, hit points dealt and taken, ships
destroyed, withdrawn and self-destructed, thrust spent), and notes in words (how the battle ended, what decided
it).

Computed once when the match is over (nothing is secret then). This module reads a state and events; it must not
change them, and it decides no rule (the points are ``state.inflicted`` and ``state.received``, the winners the
result's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.protocol import player_names
from deltav.games.deepspace.limits import ALIVE
from deltav.games.deepspace.text import DRAWS, REASONS, listing, plural

#: short headers (the title says what they count): the table fits a phone
SCORE_COLUMNS = ["Player", "Inflicted", "Received", "Points", "Ships left"]


def _json(e: Any) -> Mapping:
    return e.to_json() if hasattr(e, "to_json") else e


def _owner(sid: Any, n: int) -> int | None:
    if not isinstance(sid, str) or not sid.startswith("s"):
        return None
    head = sid[1:].partition("-")[0]
    if not head.isascii() or not head.isdigit():
        return None
    p = int(head)
    return p if p < n else None


def scored_by_points(state) -> bool:
    """Whether the campaign points decide this match (three fleets or more, or ``two_fleet_victory = score``;
    with two fleets fighting to annihilation they decide only at the round limit)."""
    return state.num_players >= 3 or state.opts["two_fleet_victory"] == "score"


def match_summary(state, events: Sequence[Any], names: Sequence[str] | None) -> dict:
    """``{"scores": {"title", "columns", "rows"}, "stats": [{"label", "values"}], "notes": [str]}``: rows with the
    winners first, then by campaign points (ties in seat order), each the player's name then the numbers; stats
    one value per seat."""
    n = state.num_players
    who = player_names(names, n)
    points = state.scores()
    left = [sum(1 for s in state.ships if s.owner == p and s.status == ALIVE) for p in range(n)]
    total = [sum(1 for s in state.ships if s.owner == p) for p in range(n)]
    res = state.result()
    winners = set(res.winners) if res is not None else set()
    order = sorted(range(n), key=lambda p: (p not in winners, -points[p], p))
    rows = [[who[p], state.inflicted[p], state.received[p], points[p], f"{left[p]} of {total[p]}"] for p in order]
    title = "Campaign points: the hit points each fleet inflicted on enemies minus those it received"
    if not scored_by_points(state):
        title += " (two fleets: the side left on the field wins; the points decide at the round limit)"
    return {
        "scores": {"title": title, "columns": list(SCORE_COLUMNS), "rows": rows},
        "stats": _stats(state, [_json(e) for e in events], n),
        "notes": _notes(state, who),
    }


def _stats(state, events: list[Mapping], n: int) -> list[dict]:
    shots, hits, dealt, taken, destroyed, withdrawn, scuttled, thrust = ([0] * n for _ in range(8))
    for e in events:
        t = e.get("type")
        if t == "shot":
            p, q = _owner(e.get("ship"), n), _owner(e.get("target"), n)
            if p is not None:
                shots[p] += 1
                if e.get("hit"):
                    hits[p] += 1
                    dealt[p] += int(e.get("hp") or 0)
            if q is not None and e.get("hit"):
                taken[q] += int(e.get("hp") or 0)
        elif t == "blast":
            p, q = _owner(e.get("ship"), n), _owner(e.get("victim"), n)
            if p is not None:
                dealt[p] += int(e.get("hp") or 0)
            if q is not None:
                taken[q] += int(e.get("hp") or 0)
        elif t == "destroyed":
            p = _owner(e.get("ship"), n)
            if p is not None:
                (scuttled if e.get("cause") == "self-destruct" else destroyed)[p] += 1
        elif t == "withdrew":
            p = _owner(e.get("ship"), n)
            if p is not None:
                withdrawn[p] += 1
        elif t == "moved":
            p = _owner(e.get("ship"), n)
            if p is not None:
                thrust[p] += int(e.get("thrust") or 0)
    return [
        {"label": "Rounds played", "values": [state.round] * n},
        {"label": "Shots fired", "values": shots},
        {"label": "Hits", "values": hits},
        {"label": "Hit points dealt (shots and explosions)", "values": dealt},
        {"label": "Hit points taken", "values": taken},
        {"label": "Ships lost", "values": destroyed},  # its own, destroyed by the enemy (not by self-destruct)
        {"label": "Ships self-destructed", "values": scuttled},
        {"label": "Ships withdrawn", "values": withdrawn},
        {"label": "Thrust spent", "values": thrust},
    ]


def _notes(state, who: list[str]) -> list[str]:
    res = state.result()
    if res is None:
        return [f"The battle was not fought to its end: it stopped in round {state.round} of {state.round_limit}."]
    notes = []
    reason = res.reason
    if res.winners:
        verb = "wins" if len(res.winners) == 1 else "win"
        notes.append(f"{listing([who[p] for p in res.winners])} {verb} {REASONS.get(reason, f'({reason})')}.")
    else:
        notes.append(f"A draw: {DRAWS.get(reason, reason)}.")
    if reason.startswith("campaign score"):
        points = state.scores()
        best = max(points)
        tied = [who[p] for p in range(state.num_players) if points[p] == best]
        if len(tied) > 1:
            notes.append(f"{listing(tied)} tied on {plural(best, 'campaign point')}.")
    if "round limit" in reason:
        notes.append(f"The round limit ({state.round_limit} rounds) was reached.")
    return notes
