"""Our rulings on the gaps and contradictions of the Delta-V tactical rules: each is a named game option
(``ruling=True``) whose default is our ruling, listed in the rulings table of docs/tactical.md.

Owns: the ruling options. Must not apply any rule itself.
"""

from __future__ import annotations

from deltav.core.protocol import Option

RULING_OPTIONS: tuple[Option, ...] = (
    Option("escape_is_winnable", bool, True, "ruling 1: a fugitive whose move ends north of the map (r < minR) "
           "escapes before any off-map elimination (false: the reference, where escaping is impossible)",
           ruling=True),
    Option("grazing_is_contact", bool, False, "ruling 2: a course along a hexside touches neither hex for "
           "crashes, landings, checkpoints and ordnance (true: a graze touches both hexes, close to the "
           "reference, which crashes on some grazes)", ruling=True),
    Option("grand_tour_luna", bool, False, "ruling 3: Grand Tour checkpoints follow the help text (true: also "
           "require Luna, as the reference does)", ruling=True),
    Option("fog_of_war", bool, True, "ruling 4: an undetected enemy ship is absent from a player's view "
           "(false: every ship is shown, as the reference's server sends them)", ruling=True),
    Option("takeoff_costs_fuel", bool, True, "ruling 5: a takeoff burn costs fuel as in the reference (false: "
           "the first burn from a landed position is free)", ruling=True),
    Option("ordnance_detection", bool, True, "ruling 7: ordnance is detected like a ship (an item launched by "
           "an undetected ship starts undetected; detected within 3 of an enemy ship or 5 of an enemy base; "
           "with fog of war hidden from the enemy until detected; only a detected nuke can be shot at). "
           "false: every item is detected at launch, as in the reference", ruling=True),
    Option("landing_tie", str, "aim", "ruling 8: a landing from orbit between two equally near bases of the "
           "body goes to the one the burn points at (nearest to the ship's hex after the burn), then to one of "
           "its side's; \"reference\": the first in the reference game's hex order (Mercury (0,3) before (2,3), "
           "Venus (-5,5) before (-5,7)), whoever owns it", choices=("aim", "reference"), ruling=True,
           legacy="reference", has_legacy=True),  # matches stored before ruling 8 were played the reference's way
    Option("surrender_ends_game", bool, False, "ruling 9: a player's surrender (every ship under its control "
           "strikes its colours) leaves the surrendered ships in play (they may still be ordered and looted) and "
           "the game goes on, as in the reference (the rules are silent); true: the game ends there and the other "
           "player wins", ruling=True),
)
