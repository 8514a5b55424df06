"""Which hexes are a player's friendly bases in a position: a base hex of the map the scenario gives him, not
destroyed (landing maintenance, detection of a landed ship, the Escape capture victory).

This module only reads the state.
"""

from __future__ import annotations


def is_friendly_base(state, player: int, h) -> bool:
    return h in state.players[player].bases and h not in state.destroyed_bases and h in state.gmap.base
