"""Evaluation helpers for Deep Space Combat bots: design points held, a neutral guess of an enemy ship's stats
from public facts, closing ranges, and the search hooks (leaf evaluation, playout policy) the presets name. The
exact dice odds these build on are the rules-side ``odds.py``.

This module owns bot-side evaluation only: it reads plain numbers, view dictionaries and sampled worlds, never
changes a state.
"""

from __future__ import annotations

from deltav.core.hexgrid import distance

# --- evaluation helpers over views -------------------------------------------------------------------


def ship_points(ship: dict) -> int:
    """Design points a ship still holds (own ships only: needs its stats)."""
    return ship["size"] * (ship["thrust"] + ship["evasion"] + ship["endurance"]) + sum(t + d for t, d in ship["weapons"])


def estimated_enemy_stats(ship: dict) -> tuple[int, int, int, list[tuple[int, int]]]:
    """A neutral guess of an enemy ship's (thrust, evasion, endurance, weapons) from public facts only: its
    size, the hit points it has taken and what it was seen doing. Used when a bot does not sample worlds."""
    size = ship["size"]
    budget = max(size, 60 * size - ship["hp_taken"])
    seen = ship["seen"]
    nw = max(1, seen["weapons"])
    ship_share = budget * 0.4
    thrust = max(seen["thrust"], int(ship_share * 0.2 / size))
    evasion = int(ship_share * 0.4 / size)
    endurance = int(ship_share * 0.4 / size)
    per_weapon = budget * 0.6 / nw
    dmg = seen["damage"]
    weapons = []
    for w in range(nw):
        d = max(int(per_weapon / 2), ((dmg[w] if w < len(dmg) else 0) + 11) // 12)
        weapons.append((int(per_weapon / 2), d))
    return thrust, evasion, endurance, weapons


def closing_range(a_pos, a_vel, b_pos, b_vel) -> int:
    """Range after both ships keep their velocities for one round."""
    return distance((a_pos[0] + a_vel[0], a_pos[1] + a_vel[1]), (b_pos[0] + b_vel[0], b_pos[1] + b_vel[1]))


# --- search hooks (used by the generic agents through deltav.agents.presets) ----------------------------


def fleet_points(state, player: int) -> int:
    """Design points still held by ``player``'s ships in the battle (a sampled world's, in search)."""
    total = 0
    for s in state.ships:
        if s.owner == player and s.status == 0:
            lv = s.lv
            total += s.size * (lv[0] + lv[1] + lv[2]) + sum(lv[3:])
    return total


def evaluate(state, player: int) -> float:
    """Leaf value in [-1, 1]: the share of surviving design points, against the strongest other side; with
    more than two fleets (or the score ruling) the campaign score counts as well."""
    if state.is_terminal():
        return state.returns()[player]
    mine = fleet_points(state, player)
    others = max((fleet_points(state, q) for q in range(state.num_players) if q != player), default=0)
    material = (mine - others) / max(1, mine + others)
    if state.num_players == 2 and state.opts["two_fleet_victory"] == "annihilation":
        return material
    scores = state.scores()
    best_other = max(scores[q] for q in range(state.num_players) if q != player)
    scale = max(1, sum(abs(x) for x in scores))
    return 0.5 * material + 0.5 * (scores[player] - best_other) / scale


def rollout_policy(state, player: int, legal: list, rng):
    """A cheap playout policy: weapons always fire (at a random enemy), damage goes by the default allocation,
    ships never self-destruct, and velocities are random but half the time kept."""
    first = legal[0]
    tag = first.TYPE
    if tag == "fire" and len(legal) > 1:
        return legal[1 + rng.below(len(legal) - 1)]
    if tag == "auto_allocate" or tag == "self_destruct":
        return first
    if tag == "velocity" and state.phase == "plot" and rng.below(2):
        s = state.ship(first.ship)
        for a in legal:
            if a.TYPE == "velocity" and a.dq == s.vel[0] and a.dr == s.vel[1]:
                return a
    return legal[rng.below(len(legal))]
