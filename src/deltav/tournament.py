"""Tournaments of bot specs: a round robin or a gauntlet over chosen scenarios, seats rotated, rated.

:func:`schedule` lists the matches: for every scenario, every group of entrants (round robin: every
combination of as many entrants as the game has seats; gauntlet: the first entrant, the champion, with every
combination of the others), ``rounds`` times every rotation of the group through the seats (so each entrant
sits in each seat equally often). Match seeds are ``derive_seed(seed, "tournament", scenario, group, k)``: a
tournament is the same for the same seed on any backend. :func:`rate` feeds the results, in schedule order, to
a Glicko-2 ladder (two seats) or an openskill one (3-4 seats) and counts wins per entrant and per pairing.

This module owns the schedule and the ratings table; the matches run in :mod:`deltav.sweep`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.protocol import Game
from deltav.core.rng import derive_seed
from deltav.ratings import Ladder, match_outcome

FORMATS = ("round-robin", "gauntlet")


def groups(entrants: Sequence[str], seats: int, fmt: str) -> list[tuple[int, ...]]:
    """The entrant groups (indices) that meet, each sorted."""
    if fmt == "round-robin":
        return list(itertools.combinations(range(len(entrants)), seats))
    if fmt == "gauntlet":
        return [(0, *rest) for rest in itertools.combinations(range(1, len(entrants)), seats - 1)]
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def schedule(game: type[Game], scenarios: Sequence[Mapping[str, Any]], entrants: Sequence[str], fmt: str,
             rounds: int, seed: int, record_dir: str | None = None) -> list[dict]:
    """Every match of the tournament: ``{"job", "scenario", "group", "order"}``, where ``job`` is the
    :mod:`deltav.sweep` job and ``order[seat]`` the entrant index in that seat."""
    out = []
    for opts in scenarios:
        n = game.num_players(opts)
        for g, group in enumerate(groups(entrants, n, fmt)):
            for k in range(rounds * n):
                shift = k % n
                order = [group[(s + shift) % n] for s in range(n)]
                mseed = derive_seed(seed, "tournament", str(opts.get("scenario", "")), g, k)
                job = (game.id, dict(opts), mseed, [entrants[e] for e in order], record_dir, len(out))
                out.append({"job": job, "scenario": opts.get("scenario"), "group": group, "order": order})
    return out


def rate(entrants: Sequence[str], matches: Sequence[dict], results: Sequence[dict]) -> dict:
    """The ratings table (best first, with 95% intervals), wins per entrant and per pairing, and errors."""
    seats = len(matches[0]["order"]) if matches else 2
    ladder = Ladder("glicko2" if seats == 2 else "openskill")
    for e in entrants:
        ladder.entry(e)
    pair_wins: dict[tuple[int, int], float] = {}
    pair_games: dict[tuple[int, int], int] = {}
    errors = []
    for m, r in zip(matches, results):
        if "error" in r:
            errors.append({"index": r["index"], "seed": r["seed"], "specs": r["specs"], "error": r["error"]})
            continue
        order = m["order"]
        scores = match_outcome(r["winners"], r["returns"], len(order))
        ladder.add([entrants[e] for e in order], scores)
        for a, b in itertools.permutations(range(len(order)), 2):
            key = (order[a], order[b])
            pair_games[key] = pair_games.get(key, 0) + 1
            if scores[a] > scores[b]:
                pair_wins[key] = pair_wins.get(key, 0.0) + 1.0
            elif scores[a] == scores[b]:
                pair_wins[key] = pair_wins.get(key, 0.0) + 0.5
    pairs = [{"entrant": entrants[a], "opponent": entrants[b], "games": g, "score": pair_wins.get((a, b), 0.0)}
             for (a, b), g in sorted(pair_games.items())]
    return {"system": ladder.system, "table": ladder.table(), "pairs": pairs, "errors": errors}
