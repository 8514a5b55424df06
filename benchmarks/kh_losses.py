"""How ships are lost in Knight Hawks matches between two bots: per entrant and side, the count of ships
destroyed by weapons, broken apart maneuvering, crashed into a planet or disengaged (left the map). A
measurement script, not a test (figures in ``docs/bots-knighthawks.md``).

``python benchmarks/kh_losses.py SPEC_A SPEC_B GAMES SEED [SCENARIO]`` (specs without ``bot:``, e.g.
``admiral captain 60 900``); A takes seat 0 in even games, seat 1 in odd ones.

This module owns measurement only; it decides no move.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.agents.registry import make_agent  # noqa: E402
from deltav.core.match import play_match  # noqa: E402
from deltav.core.rng import derive_seed  # noqa: E402
from deltav.games.knighthawks import KnightHawks  # noqa: E402


def losses(spec_a: str, spec_b: str, games: int, seed: int, scenario: str = "fleet_battle") -> tuple[dict, dict]:
    """(wins by (entrant, A's seat), losses by (entrant, side, cause)) over ``games`` matches."""
    opts = {"scenario": scenario}
    tot: collections.Counter = collections.Counter()
    wins: collections.Counter = collections.Counter()
    for g in range(games):
        a_seat = g % 2
        specs = [spec_a, spec_b] if a_seat == 0 else [spec_b, spec_a]
        agents = [make_agent("knighthawks", s) for s in specs]
        owner: dict[str, int] = {}

        def on_step(_i, state, ev, owner=owner, a_seat=a_seat):
            if not owner:
                owner.update({s.id: s.owner for s in state.ships})
            for e in ev:
                kind = type(e).__name__
                if kind == "Destroyed":
                    cause = e.cause.split(" by ")[0].split(" with ")[0]
                elif kind == "Disengaged":
                    cause = "disengaged"
                else:
                    continue
                tot[("A" if owner[e.ship] == a_seat else "B", owner[e.ship], cause)] += 1

        _, st, _ = play_match(KnightHawks, opts, derive_seed(seed, "diag", g), agents, on_step=on_step)
        w = st.result().winners
        wins[("A" if w and w[0] == a_seat else "B", a_seat)] += 1
    return dict(wins), dict(tot)


if __name__ == "__main__":
    a, b, n, s = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    w, t = losses(a, b, n, s, *(sys.argv[5:6]))
    print("wins (entrant, A's seat):", w)
    for k in sorted(t):
        print(k, t[k])
