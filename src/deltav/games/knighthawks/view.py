"""The Knight Hawks determinizer: a full state built from one player's view alone, for search bots (the views
themselves and the secret tokens are built by ``KHState.view`` / ``KHState.secret_tokens`` in ``state.py``).

Owns: :func:`determinize`. Must never read anything but the view.
"""

from __future__ import annotations

from collections.abc import Mapping

from deltav.core.rng import Rng
from deltav.games.knighthawks.repair import sample_secret_repairs
from deltav.games.knighthawks.ships import Ship
from deltav.games.knighthawks.state import KHState


def determinize(view: Mapping, player: int, rng: Rng) -> KHState:
    """A full state from ``player``'s view: the other side's hidden traps (their number is in the view)
    are placed at random map hexes off planets, each a mine pattern or a seeker with even odds; once a
    repair turn has passed, each damaged item of an enemy ship may have been repaired in secret (25% each;
    the view's record stays the world's picture of it)."""
    o = {k: v for k, v in view.items() if k not in ("viewer", "hidden_mines", "mover")}
    mines = [list(x) for x in view["mines"]]
    radius = view["map"]["radius"]
    planets = {tuple(h) for _, h in view["map"]["planets"]}
    cells = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
             if max(abs(q), abs(r), abs(q + r)) <= radius and (q, r) not in planets]
    for k in range(view.get("hidden_mines", 0)):
        h = cells[rng.below(len(cells))]
        kind = "M" if rng.below(2) == 0 else "S"
        mines.append([f"trap-sampled-{k + 1}", 1 - player, kind, list(h), -1, 0, ""])
    o["mines"] = mines
    if view["turn"] > 3:  # a repair turn has passed: the enemy may have repaired in secret
        ships = []
        for sj in view["ships"]:
            if sj["owner"] != player and sj["status"] == "active":
                belief = Ship.from_json(sj)
                sj = sample_secret_repairs(belief, rng).to_json()
            ships.append(sj)
        o["ships"] = ships
    o["rng"] = Rng(rng.next64()).to_json()
    return KHState.from_json(o)
