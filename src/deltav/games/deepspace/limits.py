"""The small constants the Deep Space Combat state and its saved-state schema share: ship statuses, the design
stages, the thrust above which a velocity is chosen in two steps, the length of the public shot log.

Owns: these numbers only (a leaf: it imports nothing), so ``state_schema`` need not import ``state``.
"""

from __future__ import annotations

ALIVE, DESTROYED, WITHDRAWN = 0, 1, 2
STATUS_NAMES = ("active", "destroyed", "withdrawn")
DESIGN_STAGES = ("size", "thrust", "evasion", "endurance", "weapon", "damage")

#: ships with more thrust choose a velocity in two steps (its dq, then its dr), so no step lists more than
#: 2T+1 velocities; at or below it one step lists all 3T(T+1)+1
SPLIT_THRUST = 10
SHOT_LOG = 48  # public log of the latest shots (attacker, weapon, target, range, hit, hp), for deductions
