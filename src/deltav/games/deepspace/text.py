"""One line of plain English for each Deep Space Combat action and event (``DeepSpaceGame.describe_value``): the
browser's log, the terminal's menus, replays. ``describe(obj)`` takes the JSON form and returns None for a type
it does not know (the caller falls back to the generic wording); a malformed field raises, and the caller falls
back as well.

This module owns wording only: it reads the JSON it is given and nothing else.
"""

from __future__ import annotations

from deltav.games.deepspace.movement import label, speed


def _v(dq, dr) -> str:
    v = (int(dq), int(dr))
    return f"{label(v)} (speed {speed(v)})"


def _stat(stat: str, weapon) -> str:
    return stat if weapon is None else f"weapon {int(weapon) + 1} {stat}"


def describe(o: dict) -> str | None:
    t = o.get("type")
    # actions
    if t == "use_fleet":
        return f"adopt the built-in fleet {o['fleet']}"
    if t == "new_ship":
        return f"design a ship of size {int(o['size'])}"
    if t == "set_stat":
        return f"{o['stat']} {int(o['level'])}"
    if t == "weapon_targeting":
        return f"a weapon with targeting {int(o['level'])}"
    if t == "weapon_damage":
        return f"its damage {int(o['level'])}"
    if t == "end_ship":
        return "commission the ship"
    if t == "place":
        return f"place {o['ship']} at {int(o['q'])}, {int(o['r'])}"
    if t == "velocity":
        return f"{o['ship']}: velocity {_v(o['dq'], o['dr'])}"
    if t == "velocity_column":
        return f"{o['ship']}: velocity column dq {int(o['dq'])}"
    if t == "withdraw":
        return f"{o['ship']} withdraws from the battle"
    if t == "fire":
        w = int(o["weapon"]) + 1
        return f"{o['ship']} weapon {w}: " + ("hold fire" if o["target"] is None else f"fire at {o['target']}")
    if t == "done":
        return "done"
    if t == "allocate":
        return f"{o['ship']}: {int(o['hp'])} hit points on {_stat(o['stat'], o['weapon'])}"
    if t == "auto_allocate":
        return f"{o['ship']}: the default damage allocation"
    if t == "self_destruct":
        return f"{o['ship']}: " + ("self-destruct" if o["detonate"] else "stand down")
    # events
    if t == "design_step":
        return f"designing: size {o['size']}, thrust {o['thrust']}, evasion {o['evasion']}, endurance {o['endurance']}"
    if t == "designed":
        return f"player {int(o['player']) + 1} has designed a fleet"
    if t == "commissioned":
        return f"{o['ship']} (player {int(o['player']) + 1}, size {int(o['size'])}) commissioned"
    if t == "deployed":
        return f"player {int(o['player']) + 1} has deployed"
    if t == "placed":
        return f"{o['ship']} deployed at {int(o['q'])}, {int(o['r'])}, velocity {_v(o['dq'], o['dr'])}"
    if t == "round":
        return f"round {int(o['round'])} begins"
    if t == "plotted":
        return f"player {int(o['player']) + 1} has plotted"
    if t == "moved":
        spent = int(o["thrust"])
        return (f"{o['ship']} moved to {int(o['q'])}, {int(o['r'])}, velocity {_v(o['dq'], o['dr'])}"
                + (f", {spent} thrust" if spent else ", drifting"))
    if t == "withdrew":
        return f"{o['ship']} withdrew from the battle"
    if t == "shot":
        w = int(o["weapon"]) + 1
        head = f"{o['ship']} weapon {w} at {o['target']}, range {int(o['range'])}: "
        return head + (f"hit, {int(o['hp'])} hit points" if o["hit"] else "miss")
    if t == "shot_void":
        return f"{o['ship']} weapon {int(o['weapon']) + 1}: {o['target']} withdrew, the shot is void"
    if t == "stat_lost":
        return f"{o['ship']} lost {int(o['levels'])} {_stat(o['stat'], o['weapon'])} ({int(o['hp'])} hit points)"
    if t == "allocated":
        return f"player {int(o['player']) + 1} has allocated damage"
    if t == "declared":
        return f"player {int(o['player']) + 1} has declared"
    if t == "detonated":
        return f"{o['ship']} self-destructs!"
    if t == "blast":
        return f"the explosion of {o['ship']} does {int(o['hp'])} hit points to {o['victim']}"
    if t == "destroyed":
        return f"{o['ship']} destroyed" + (" (self-destruct)" if o["cause"] == "self-destruct" else "")
    if t == "game_over":
        w = o["winners"]
        who = ", ".join(f"player {int(p) + 1}" for p in w) if w else "nobody"
        return f"game over: {who} won ({o['reason']})"
    return None
