"""Attack, damage and explosion rolls of Deep Space Combat, as pure functions of stats and dice.

- Attack: the attacker's ``2d6 x Targeting - range`` against the defender's ``2d6 x Evasion``; ties hit.
- Damage: ``2d6 x Damage - 2d6 x Endurance`` hit points, never negative (ruling 2.3.9).
- Self-destruct: a damage roll whose Damage level is the ship's total remaining stat levels (size excluded,
  ruling 2.3.12) against each victim's Endurance.

The ``*_from_rolls`` functions take the 2d6 results, so the rulebook's worked examples are exact tests; the
``roll_*`` functions draw those dice from an :class:`~deltav.core.rng.Rng`.

This module owns dice arithmetic only: no ships, no positions, no state.
"""

from __future__ import annotations

from deltav.core.rng import Rng


def attack_total(targeting: int, roll: int, range_: int) -> int:
    return roll * targeting - range_


def hits_from_rolls(targeting: int, evasion: int, range_: int, attack_roll: int, evasion_roll: int) -> bool:
    """True if ``attack_roll x targeting - range >= evasion_roll x evasion`` (ties hit)."""
    return attack_roll * targeting - range_ >= evasion_roll * evasion


def damage_from_rolls(damage: int, endurance: int, damage_roll: int, endurance_roll: int) -> int:
    """Hit points of a damage roll: ``damage_roll x damage - endurance_roll x endurance``, at least 0."""
    hp = damage_roll * damage - endurance_roll * endurance
    return hp if hp > 0 else 0


def explosion_power(levels) -> int:
    """The Damage level of a self-destruct: the total of the ship's remaining stat levels (size excluded)."""
    return sum(levels)


def roll_attack(rng: Rng, targeting: int, evasion: int, range_: int) -> tuple[bool, int, int]:
    """Roll an attack; returns ``(hit, attack_roll, evasion_roll)`` (the 2d6 results)."""
    a = rng.below(6) + rng.below(6) + 2
    e = rng.below(6) + rng.below(6) + 2
    return a * targeting - range_ >= e * evasion, a, e


def roll_damage(rng: Rng, damage: int, endurance: int) -> tuple[int, int, int]:
    """Roll damage; returns ``(hit_points, damage_roll, endurance_roll)``."""
    a = rng.below(6) + rng.below(6) + 2
    e = rng.below(6) + rng.below(6) + 2
    hp = a * damage - e * endurance
    return (hp if hp > 0 else 0), a, e
