"""Race figures of one tactical bot level playing itself (docs/bots-tactical.md), run on demand, never as a test.

Usage: ``python benchmarks/race_tactical.py SCENARIO [LEVEL] [N] [SEED]`` prints JSON: per game the game turn at
the end (``state.turn``, the reference's ``turnNumber``) and how it ended; the mean turn of the games won by the
scenario's objective.
"""

from __future__ import annotations

import json
import sys

from deltav.core.match import play_match
from deltav.core.rng import derive_seed
from deltav.games import load_all
from deltav.games.tactical.bots.level_bot import LevelBot


def race_figures(scenario: str, level: str = "hard", n: int = 20, seed: int = 1) -> dict:
    """Race figures of one level playing itself (docs/bots-tactical.md): per game the game turn at the end
    (``state.turn``, the reference's ``turnNumber``) and how it ended; the mean turn of the games won by the
    scenario's objective (a landing or the completed Grand Tour)."""
    game = load_all()["tactical"]
    games = []
    for i in range(n):
        _, final, _ = play_match(game, {"scenario": scenario}, derive_seed(seed, "game", i),
                                 [LevelBot(level), LevelBot(level)])
        res = final.result()
        games.append({"turn": final.turn, "winners": list(res.winners), "reason": res.reason})
    done = [g["turn"] for g in games if "Landed" in g["reason"] or "Grand Tour complete" in g["reason"]]
    return {
        "scenario": scenario, "level": level, "games": n,
        "objective_games": len(done),
        "mean_objective_turn": sum(done) / len(done) if done else None,
        "mean_turn": sum(g["turn"] for g in games) / n,
        "p0_wins": sum(1 for g in games if g["winners"] == [0]),
        "reasons": {r: sum(1 for g in games if g["reason"] == r) for r in sorted({g["reason"] for g in games})},
    }


if __name__ == "__main__":
    args = sys.argv[1:]
    print(json.dumps(race_figures(args[0], *(args[1:2] or ["hard"]), *[int(x) for x in args[2:4]]), indent=2))
