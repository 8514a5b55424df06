"""Our rulings on the gaps of the Knight Hawks rules (design/knight-hawks.md section 7, G1-G18, plus a few
of our own, K1-K4): each is a named game option whose default is our ruling.

Owns: the ruling options and the small immutable ``Rulings`` record the rule functions read. Must not apply
any rule itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from deltav.core.protocol import Option

RULING_OPTIONS: tuple[Option, ...] = (
    Option("eb_range", int, 12, "G1: electron beam battery range (12 per the rulebook text; 10 per the table "
           "transcription)", choices=(12, 10), ruling=True),
    Option("fire_timing", str, "opponent", "G2: electrical fires roll (d100+20) at the start of the burning "
           "ship's opponent's combat phase ('opponent', the text: 'at the start of his opponent's combat step') or "
           "of its owner's combat phase ('owner', the edited transcription)",
           choices=("opponent", "owner"), ruling=True),
    Option("disaster_fallback", str, "partial", "G3: a disastrous fire applies each part not yet in effect "
           "('partial'), a hull hit only if none applies; 'hull': any part already in effect makes it a hull hit",
           choices=("partial", "hull"), ruling=True),
    Option("dcr_rounding", str, "up", "G4: a damage control hit halves DCR rounding up ('up', the text) or "
           "down ('down', as SSW)", choices=("up", "down"), ruling=True),
    Option("weapon_hit_scope", str, "mount", "G5: a weapon hit destroys one mount of the listed type "
           "('mount') or every mount of that type ('type'); LTD weapons are one system either way",
           choices=("mount", "type"), ruling=True),
    Option("half_rounding", str, "up", "G6: half damage (starred cells) rounds up ('up') or down ('down', the "
           "Basic footnote); halving comes before doubling", choices=("up", "down"), ruling=True),
    Option("store_hit", str, "all", "G7: a defense hit on masking screens or ICMs destroys the whole store "
           "('all') or one charge/missile ('one')", choices=("all", "one"), ruling=True),
    Option("breakup_counts_gravity", bool, False, "G8: gravity deflections count as MR points in the "
           "break-up check (default: no; one check per move, after it is plotted)", ruling=True),
    Option("nav_roll", str, "each_move", "G9: a navigation hit rolls its direction before each move "
           "('each_move', the text) or once when the hit happens ('once', as SSW)",
           choices=("each_move", "once"), ruling=True),
    Option("declared_fire_after_damage", bool, True, "G10: a weapon destroyed after it was declared in the "
           "same phase still fires (all declarations precede all rolls)", ruling=True),
    Option("stasis_attracts_guided", bool, True, "G11: the stasis screen attracts torpedoes, mines and "
           "seekers (as SSW); otherwise the most effective defense is used", ruling=True),
    Option("auto_results", bool, True, "G12: within range a roll of 5 or less always hits and 96 or more "
           "always misses (false: only the 5% floor, as SSW)", ruling=True),
    Option("ccs_affects_mines", bool, False, "G14: the -10% of a combat control hit applies to mines and "
           "seekers the ship laid", ruling=True),
    Option("station_ms_turns", int, 6, "G16: how many of its owner's movement phases a station's masking "
           "screen lasts (one orbit = 6)", minimum=1, maximum=12, ruling=True),
    Option("one_screen", bool, True, "G18: a released masking screen and a powered screen exclude each other "
           "(at most one screen active)", ruling=True),
    Option("priority_skips_destroyed", bool, False, "K1: a weapon/defense hit whose first listed type the "
           "ship carries but has already lost becomes a hull hit (the text's 'hit on a destroyed system'); "
           "true: walk on down the list", ruling=True),
    Option("repeat_flag_hit", str, "hull", "K2: a second power short or navigation hit while the first is "
           "unrepaired is a hull hit ('hull'), like CCS, DC and fire; 'none': it has no further effect",
           choices=("hull", "none"), ruling=True),
    Option("start_hex_fire", bool, True, "K3: defensive fire may target a moving ship in the hex it started "
           "its move from as well as every hex it entered", ruling=True),
)


@dataclass(frozen=True, slots=True)
class Rulings:
    eb_range: int = 12
    fire_timing: str = "opponent"
    disaster_fallback: str = "partial"
    dcr_rounding: str = "up"
    weapon_hit_scope: str = "mount"
    half_rounding: str = "up"
    store_hit: str = "all"
    breakup_counts_gravity: bool = False
    nav_roll: str = "each_move"
    declared_fire_after_damage: bool = True
    stasis_attracts_guided: bool = True
    auto_results: bool = True
    ccs_affects_mines: bool = False
    station_ms_turns: int = 6
    one_screen: bool = True
    priority_skips_destroyed: bool = False
    repeat_flag_hit: str = "hull"
    start_hex_fire: bool = True

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Rulings:
        return cls(**{o.name: options.get(o.name, o.default) for o in RULING_OPTIONS})


DEFAULT = Rulings()
