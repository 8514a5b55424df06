"""Our rulings on the gaps and contradictions of the Deep Space Combat rules: each is a named game option
(``ruling=True``) whose default is our ruling, listed in the rulings table of docs/deepspace.md.

Owns: the ruling options. Must not apply any rule itself.
"""

from __future__ import annotations

from deltav.core.protocol import Option

RULING_OPTIONS: tuple[Option, ...] = (
    Option("round_limit", int, 0,
           "Rounds before the campaign score decides (0: the scenario's limit). Ruling 2.3.15: without a limit "
           "a fleet could flee for ever.", minimum=0, ruling=True),
    Option("withdrawal_radius", int, 30,
           "A ship farther than this many hexes from every enemy may withdraw (0: no withdrawal). Ruling 2.3.4.",
           minimum=0, ruling=True),
    Option("arena_radius", int, 0,
           "0: the unbounded plane of the rules. Otherwise a bounded arena around hex (0, 0): a ship that ends "
           "its movement farther out has left the battle (withdrawn). Ruling 2.3.4 (the AI variant).",
           minimum=0, ruling=True),
    Option("initial_velocity", str, "up_to_thrust",
           "Deployment velocity: any with speed up to the ship's thrust, or 'rest' (all start still). "
           "Ruling 2.3.5.", choices=("up_to_thrust", "rest"), ruling=True),
    Option("leftover_damage", str, "lost",
           "Hit points below a ship stat's size: 'lost', or 'partial' (kept per stat until they make a level). "
           "Ruling 2.3.10.", choices=("lost", "partial"), ruling=True),
    Option("friendly_fire", bool, False,
           "Whether weapons may target friendly ships (the rules say 'enemy ships'). Ruling 2.3.8.", ruling=True),
    Option("self_destruct", bool, True,
           "Self-destruct declarations in the destruction phase (secret, simultaneous). Ruling 2.3.12.",
           ruling=True),
    Option("thrustless", str, "drift",
           "A ship whose thrust is shot away to 0: 'drift' (it keeps its velocity: the movement rules, where "
           "only thrust changes velocity) or 'fixed' (it stops and stays put: 'Ships that have no thrust cannot "
           "move. They are fixed objects').", choices=("drift", "fixed"), ruling=True),
    Option("self_destruct_scope", str, "anywhere",
           "Which ships may declare self-destruction: 'anywhere' (any ship in the battle: the rules give "
           "'ships' this 'final option') or 'with_enemy' (only ships sharing a hex with an enemy ship).",
           choices=("anywhere", "with_enemy"), ruling=True),
    Option("explosion_hits_friends", bool, True,
           "A self-destruct damages everything in its hex, friendly ships included. Ruling 2.3.12.", ruling=True),
    Option("explosion_counts_size", bool, False,
           "Whether size counts in the exploding ship's 'total remaining stats' (it does not: size is never a "
           "damageable stat). Ruling 2.3.12.", ruling=True),
    Option("two_fleet_victory", str, "annihilation",
           "Two fleets: 'annihilation' (the side left on the field wins; at the round limit the campaign score "
           "decides) or 'score' (always the campaign score). Rulebook MISC and ruling 2.3.15.",
           choices=("annihilation", "score"), ruling=True),
    Option("fleet_levels", str, "all",
           "'all': a side's ships total its size levels (the rules: the levels 'are then divided among the "
           "ships', 'any other combination that totals 12'); 'at_most': a side may leave levels unused.",
           choices=("all", "at_most"), ruling=True),
    Option("stat_cap", int, 0,
           "Optional cap on every stat level of a design (0: no cap, as the rules). Ruling 2.3.14.",
           minimum=0, ruling=True),
)
