"""One line of readable text for each Knight Hawks action and event (CLI logs, replays, the terminal player).

Owns: wording only, from the JSON form of a value. Must not look at states.
"""

from __future__ import annotations

from collections.abc import Mapping

TURNS = {1: "left", -1: "right", 0: "straight"}
FACINGS = ("E", "NE", "NW", "W", "SW", "SE")
SCREENS = {"PS": "proton screen on", "ES": "electron screen on", "SS": "stasis screen on",
           "MS": "releases a masking screen", "none": "screens off"}


def _hex(h) -> str:
    return f"[{h[0]},{h[1]}]"


def describe(o: Mapping) -> str | None:
    """The text of a value's JSON form, or None for a type this module does not word."""
    t = o.get("type")
    g = o.get
    if t == "screen":
        return f"{g('ship')}: {SCREENS.get(g('screen'), g('screen'))}"
    if t == "lay":
        return f"{g('ship')}: drop {'mines' if g('kind') == 'M' else 'a seeker'} at hex {g('at')} of its path"
    if t == "activate":
        return f"activate seeker {g('seeker')}"
    if t == "orbit":
        return f"{g('ship')}: enter orbit {'clockwise' if g('clockwise') else 'counter-clockwise'}"
    if t == "course":
        return f"{g('ship')}: speed {g('speed')}, facing {FACINGS[g('facing') % 6]}"
    if t == "step":
        return f"next hex, then turn {TURNS.get(g('turn'), g('turn'))}"
    if t == "end_movement":
        return "end movement (unplotted ships hold course)"
    if t == "assign":
        return f"{g('ship')}: weapon {g('weapon')} at {g('target')}"
    if t == "fire":
        return "fire the declared weapons"
    if t == "intercept":
        return f"fire {g('icms')} ICMs" + (", evade" if g("evade") else "")
    if t == "repair":
        return f"{g('ship')}: {g('points')} DCR on {g('target')}"
    if t == "end_repair":
        return "end repairs"
    if t == "turn_started":
        return f"turn {g('turn')}: side {g('player')} moves"
    if t == "moved":
        path = g("path")
        end = {"crash": " and crashes", "exit": " and leaves the battle", "orbit": " (orbit)"}.get(g("end"), "")
        return f"{g('ship')} moves {len(path) - 1} hexes to {_hex(path[-1])} facing {FACINGS[g('facing') % 6]}{end}"
    if t == "attack":
        icms = f", {g('icms')} ICMs" if g("icms") else ""
        ev = ", evading" if g("evade") else ""
        return (f"{g('source')} fires {g('weapon')} at {g('target')} (range {g('range')}, vs {g('column')}, "
                f"{g('chance')}%{icms}{ev}): {g('roll')} {'HIT' if g('hit') else 'miss'}")
    if t == "damage":
        eff = g("effect")
        what = f"{g('hull')} hull points" if eff == "hull" else eff + (f" ({g('system')})" if g("system") else "")
        note = f" [{g('note')}]" if g("note") else ""
        return f"  damage to {g('ship')}: {g('modified')} -> {what}{note}"
    if t == "destroyed":
        return f"{g('ship')} destroyed: {g('cause')}"
    if t == "disengaged":
        return f"{g('ship')} leaves the battle at {_hex(g('hex'))}"
    if t == "breakup_check":
        return f"{g('ship')} break-up check: {g('chance')}%, rolls {g('roll')}" + (" - BREAKS APART" if g("broke")
                                                                                 else "")
    if t == "repair_roll":
        return f"{g('ship')} repairs {g('target')} ({g('points')}%): {g('roll')} {g('outcome')}"
    if t == "plotted":
        turns = "".join({1: "L", -1: "R", 0: "."}.get(x, "?") for x in g("turns"))
        return f"{g('ship')} plots speed {g('speed')} facing {FACINGS[g('facing') % 6]}" + (
            f" turns {turns}" if turns else "")
    if t == "nav_roll":
        return f"{g('ship')} navigation roll {g('roll')}: must turn {g('direction')}"
    if t == "screen_set":
        return f"{g('ship')}: {SCREENS.get(g('screen'), g('screen'))}"
    if t == "masking_ended":
        return f"{g('ship')}'s masking screen is gone"
    if t == "laid":
        return f"{g('ship')} drops {'mines' if g('kind') == 'M' else 'a seeker'} {g('id')} at {_hex(g('hex'))}"
    if t == "seeker_activated":
        return f"seeker {g('seeker')} activated"
    if t == "seeker_moved":
        path = g("path")
        return f"seeker {g('seeker')} moves {len(path) - 1} hexes to {_hex(path[-1])} toward {g('target')}"
    if t == "orbit_declared":
        return f"{g('ship')} enters orbit"
    if t == "docked":
        return f"{g('ship')} docks at {g('host')}"
    if t == "rearmed":
        return f"{g('ship')} rearms"
    if t == "wasted":
        return f"{g('source')}'s {g('weapon')} at {g('target')} is wasted (target gone)"
    if t == "fired":
        shots = ", ".join(f"{a[0]} w{a[1]} at {a[2]}" for a in g("attacks"))
        return f"side {g('player')} fires: {shots}" if shots else f"side {g('player')} holds fire"
    if t == "intercepted":
        return f"{g('target')} defends: {g('icms')} ICMs" + (", evades" if g("evade") else "")
    if t == "repairs_allocated":
        return f"side {g('player')} has allocated its repairs"
    if t == "repair_turn":
        return f"repair turn after game turn {g('turn')}"
    if t == "game_over":
        return f"game over: winners {g('winners')} - {g('reason')} (points {g('scores')})"
    return None
