"""Knight Hawks views, secret tokens and the determinizer: what one seat (or a spectator) may see of a state,
which event tokens stay secret from it, and a full world sampled from one player's view alone, for search
bots.

Owns: :func:`view`, :func:`secret_tokens` (``KHState.view`` / ``KHState.secret_tokens`` delegate here) and
:func:`sample_world` (the JSON of a full state, which ``Game.determinize`` loads). The determinizer must never
read anything but the view; a view must share no mutable object with the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from deltav.core.rng import Rng
from deltav.games.knighthawks.repair import sample_secret_repairs
from deltav.games.knighthawks.ships import Ship


def view(state, player: int | None) -> dict:
    """Everything but the dice and the other side's hidden mines: enemy mine patterns and inert seekers
    are not shown (their count is); see docs/knighthawks.md."""
    out = state._public_json([sh.to_json() if player is not None and sh.owner == player else sh.public_json()
                              for sh in state.ships])
    hidden = 0
    shown = []
    for mm in out["mines"]:
        mine_owner, moves, layer = mm[1], mm[4], mm[6]
        if player is not None and mine_owner == player or moves >= 0 or mm[0] in state.activated:
            shown.append(mm)
        elif layer == "":
            hidden += 1  # placed before play: the scenario says how many there are, not where
        # a trap dropped in play is unknown to the other side (not even counted) until it detonates or,
        # a seeker, is activated
    out["mines"] = shown
    out["hidden_mines"] = hidden
    acting = state.current_players()
    if player is None or player not in acting:  # a seat's decision in progress is its own business
        out["plotting"] = None
        out["declared"] = []
    out["allocations"] = [a for a in out["allocations"] if player is not None and a[0] == player]
    if player is None or player != state.mover:
        out["laid"] = []
    out["viewer"] = player
    return out


def secret_tokens(state, player: int | None) -> set[str]:
    return {mm[0] for mm in state.mines
            if mm[4] < 0 and mm[0] not in state.activated and (player is None or mm[1] != player)}


@lru_cache(maxsize=32)
def _open_cells(radius: int, planets: tuple) -> tuple:
    """The map hexes off planets, in a fixed order (where a hidden trap may lie)."""
    return tuple((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                 if max(abs(q), abs(r), abs(q + r)) <= radius and (q, r) not in planets)


def sample_world(view: Mapping, player: int, rng: Rng) -> dict:
    """The JSON of a full state from ``player``'s view: the other side's hidden traps (their number is in the view)
    are placed at random map hexes off planets, each a mine pattern or a seeker with even odds; once a
    repair turn has passed, each damaged item of an enemy ship may have been repaired in secret (25% each;
    the view's record stays the world's picture of it)."""
    o = {k: v for k, v in view.items() if k not in ("viewer", "hidden_mines", "mover")}
    mines = [list(x) for x in view["mines"]]
    hidden = view.get("hidden_mines", 0)
    if hidden:
        cells = _open_cells(view["map"]["radius"], tuple((h[0], h[1]) for _, h in view["map"]["planets"]))
    for k in range(hidden):
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
    return o
