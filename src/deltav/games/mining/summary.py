"""The summary of a finished mining match (``MiningGame.match_summary``): the rulebook's scoring as a table (the
collected tiles' points, the spent bribe counters at 2 points each, the total, then the tie-breaks in the
rulebook's order: fulfilled contracts, unspent counters), a few statistics per player counted from every event
of the match, and notes in words (how the game ended, how a tie was broken).

Computed once when the match is over (nothing is secret then). This module reads a state and events; it must
not change them, and it decides no rule (the scores are ``state.scores()``, the winners the result's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.protocol import player_names
from deltav.games.mining import scoring
from deltav.games.mining.text import listing, plural

SCORE_COLUMNS = ["Player", "Points", "Contracts", "Unspent"]
SCORE_TITLE = ("Points: the values of the tiles collected − 2 per bribe counter spent (in brackets); ties: the most "
               "contracts, then the most unspent counters")


def _json(e: Any) -> Mapping:
    return e.to_json() if hasattr(e, "to_json") else e


def match_summary(state, events: Sequence[Any], names: Sequence[str] | None) -> dict:
    """``{"scores": {"title", "columns", "rows"}, "stats": [{"label", "values"}], "notes": [str]}``: rows in the
    order of the rulebook's ranking (points, then contracts, then unspent counters), each row the player's name,
    the points with their sum ("13 (15 − 2)": the collected tiles' values, minus 2 per bribe counter spent), the
    contracts and the unspent counters; stats one value per seat."""
    n = state.num_players
    who = player_names(list(names) if names is not None else None, n)
    values = state.cfg.values
    points = state.scores()
    tiles = [len(c) for c in state.collected]
    tile_points = [sum(values[t] for t, _ in c) for c in state.collected]
    held = [[b for b, h in enumerate(state.holders) if h == p] for p in range(n)]
    spent = [sum(1 for b in held[p] if state.spent >> b & 1) for p in range(n)]
    unspent = [len(held[p]) - spent[p] for p in range(n)]
    contracts = [sum(1 for o in state.contract_owners if o == p) for p in range(n)]
    key = [(points[p], contracts[p], unspent[p]) for p in range(n)]
    order = sorted(range(n), key=lambda p: (key[p], -p), reverse=True)
    rows = [[who[p], _points(points[p], tile_points[p], spent[p]), contracts[p], unspent[p]] for p in order]
    stats = _stats(state, [_json(e) for e in events], n)
    stats[2:2] = [{"label": "Tiles collected", "values": tiles}, {"label": "Bribe counters spent", "values": spent}]
    decisions = getattr(events, "decisions", None)  # a session's MatchEvents counts each seat's actions
    if decisions is not None and len(decisions) == n:
        stats.insert(1, {"label": "Decisions", "values": list(decisions)})
    return {
        "scores": {"title": SCORE_TITLE, "columns": list(SCORE_COLUMNS), "rows": rows},
        "stats": stats,
        "notes": _notes(state, who, key, order),
    }


def _points(points: int, tiles: int, spent: int) -> str:
    """ "13 (15 − 2)": the points, then the tiles' values minus the bribes (just "15" when none was spent)."""
    return f"{points} ({tiles} − {scoring.BRIBE_PENALTY * spent})" if spent else str(points)


def _stats(state, events: list[Mapping], n: int) -> list[dict]:
    fulfilled, failed, revealed, looked, bids, incidents, played, bumped, aliens = ([0] * n for _ in range(9))
    purposes = {"survey": [0] * n, "replacement": [0] * n, "bid-up": [0] * n}
    turns = [0] * n  # turn k (from 1) is played by the first player's k-1-th successor clockwise
    for k in range(state.turn):
        turns[(state.first + k) % n] += 1
    for e in events:
        t = e.get("type")
        p = e.get("player")
        if not isinstance(p, int) or not 0 <= p < n:
            p = None
        if t == "contract-fulfilled" and p is not None:
            fulfilled[p] += 1
        elif t == "attempt-failed" and p is not None:
            failed[p] += 1
        elif t == "tile-revealed" and p is not None:
            revealed[p] += 1
        elif t == "looked" and p is not None:
            looked[p] += len(e.get("squares") or ())
        elif t == "bribe-spent" and p is not None and e.get("purpose") in purposes:
            purposes[e["purpose"]][p] += 1
        elif t == "bid-up" and p is not None:
            bids[p] += 1
        elif t == "incident-taken" and p is not None:
            incidents[p] += 1
        elif t == "incident-discarded" and p is not None:
            played[p] += 1
        elif t == "rockets-bumped":
            for v in e.get("victims") or ():
                if isinstance(v, int) and 0 <= v < n:
                    bumped[v] += 1
            if p is not None:
                bumped[p] += 1
        elif t == "alien-encounter" and p is not None:
            aliens[p] += 1
    return [
        {"label": "Turns played", "values": turns},
        {"label": "Contracts fulfilled", "values": fulfilled},
        {"label": "Attempts failed", "values": failed},
        {"label": "Tiles revealed", "values": revealed},
        {"label": "Secret looks (tiles)", "values": looked},
        {"label": "Bribes: satellite surveys", "values": purposes["survey"]},
        {"label": "Bribes: mineral replacements", "values": purposes["replacement"]},
        {"label": "Bid-ups made", "values": bids},
        {"label": "Incidents taken", "values": incidents},
        {"label": "Incidents played", "values": played},
        {"label": "Alien Encounters revealed", "values": aliens},
        {"label": "Rockets lost to bumps", "values": bumped},
    ]


def _notes(state, who: list[str], key: list[tuple], order: list[int]) -> list[str]:
    notes = []
    if state.is_terminal() and state.reason:
        notes.append(f"The game ended: {state.reason}.")
    best = key[order[0]]
    top = [p for p in order if key[p][0] == best[0]]
    if len(top) > 1:
        tied = listing([who[p] for p in top])
        by_contracts = [p for p in top if key[p][1] == best[1]]
        if len(by_contracts) < len(top):
            counts = " to ".join(str(key[p][1]) for p in top)
            notes.append(f"{tied} tied on {plural(best[0], 'point')}; the first tie-break, fulfilled contracts, went to "
                         f"{listing([who[p] for p in by_contracts])} ({counts}).")
        else:
            by_unspent = [p for p in top if key[p] == best]
            if len(by_unspent) < len(top):
                counts = " to ".join(str(key[p][2]) for p in top)
                notes.append(f"{tied} tied on {plural(best[0], 'point')} and {plural(best[1], 'contract')}; the "
                             "second tie-break, unspent bribe counters, went to "
                             f"{listing([who[p] for p in by_unspent])} ({counts}).")
            else:
                rule = "nobody wins (a draw)" if state.cfg.full_tie == "draw" else "they share the win"
                notes.append(f"{tied} tied on points, contracts and unspent counters: {rule} (ruling full_tie).")
    return notes
