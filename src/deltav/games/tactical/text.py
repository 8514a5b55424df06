"""One line of readable text for each Delta-V tactical action and event (the browser's log and legal-action
buttons, CLI logs, replays).

Owns: wording only, from the JSON form of a value. Must not look at states. Directions are numbered 1-6 as the
in-game help's keys are (1 E, 2 NE, 3 NW, 4 W, 5 SW, 6 SE; the engine's 0-5 plus one); hexes are written as the
engine's "q,r" keys.
"""

from __future__ import annotations

from collections.abc import Mapping

from deltav.core.hexgrid import DIRECTION_NAMES

PHASES = {"fleet_building": "fleet building", "astrogation": "astrogation", "ordnance": "ordnance",
          "combat": "combat", "logistics": "logistics", "over": "game over"}
CAUSES = {"crash": "crashed", "off_map": "lost off the map", "combat": "destroyed in combat",
          "damage": "destroyed by damage", "ordnance": "destroyed by ordnance", "nuke": "destroyed by a nuke",
          "ram": "rammed", "asteroid": "destroyed in an asteroid field",
          "planetary_defense": "destroyed by planetary defense"}
REMOVED = {"expired": "burnt out", "off_map": "left the map", "body": "hit a body", "asteroid": "hit an asteroid",
           "base": "hit a base", "shot": "was shot down", "nuke": "was caught in a nuclear blast"}


def direction(d) -> str:
    """A burn direction as the help's key and compass name: ``2 NE``."""
    return f"{d + 1} {DIRECTION_NAMES[d % 6]}" if isinstance(d, int) else "?"


def _velocity(v) -> str:
    return f"({v[0]}, {v[1]})" if v else "(0, 0)"


def _player(p) -> str:
    return f"player {p}"


def _order(g) -> str:
    burn, over, land = g("burn"), g("overload"), g("land")
    if burn is None:
        words = "coast"
    elif over is not None:
        words = f"burn {direction(burn)} + overload {direction(over)}"
    else:
        words = f"burn {direction(burn)}"
    if land:
        words += ", land"
    weak = g("weak") or ()
    if weak:
        words += f", ignore weak gravity at {', '.join(weak)}"
    return f"{g('ship')}: {words}"


def _action(t, g) -> str | None:
    if t == "order":
        return _order(g)
    if t == "end_astrogation":
        return "confirm the orders (end astrogation)"
    if t == "surrender":
        return "surrender"
    if t == "launch":
        n = g("boost")
        boost = (f", boosted {n} {'hex' if n == 1 else 'hexes'} toward {direction(g('boost_dir'))}"
                 if g("boost_dir") is not None and n else "")
        return f"{g('ship')}: launch a {g('kind')}{boost}"
    if t == "emplace_base":
        return f"{g('ship')}: emplace its orbital base"
    if t == "end_ordnance":
        return "end the ordnance phase"
    if t == "add_attacker":
        return f"{g('ship')} joins the attack"
    if t == "fire":
        strength = f" with strength {g('strength')}" if g("strength") is not None else ""
        return f"attack {g('target')}{strength}"
    if t == "end_combat":
        return "end combat"
    if t == "transfer":
        return f"transfer {g('amount')} {g('kind')} from {g('source')} to {g('target')}"
    if t == "end_logistics":
        return "end logistics"
    if t == "buy":
        carrier = f" (carried by {g('carrier')})" if g("carrier") else ""
        return f"buy a {g('item')}{carrier}"
    if t == "fleet_ready":
        return "the fleet is ready"
    return None


def _event(t, g) -> str | None:
    if t == "turn_started":
        return f"turn {g('turn')}: {_player(g('player'))} to play"
    if t == "order_given":
        return f"{_player(g('player'))} orders {_order(g)}"
    if t == "phase_changed":
        return f"{_player(g('player'))}: {PHASES.get(g('phase'), g('phase'))}"
    if t == "ship_moved":
        fuel = f", fuel {g('fuel')}" if g("fuel") is not None and g("fuel_spent") else ""
        grav = g("gravity_queued") or ()
        pulls = [x for x in grav if not x[2]]
        gravity = f", {len(pulls)} gravity pull{'s' if len(pulls) != 1 else ''} next turn" if pulls else ""
        return (f"{g('ship')} moves {g('start')} -> {g('destination')}, velocity {_velocity(g('velocity'))}"
                f"{fuel}{gravity}")
    if t == "ship_landed":
        return f"{g('ship')} lands" + (f" on {g('body')}" if g("body") else "") + f" at {g('hex')}"
    if t == "ship_resupplied":
        return f"{g('ship')} is resupplied at {g('hex')}"
    if t == "ship_destroyed":
        body = f" ({g('body')})" if g("body") else ""
        return f"{g('ship')} {CAUSES.get(g('cause'), 'destroyed: ' + str(g('cause')))}{body} at {g('hex')}"
    if t == "checkpoint_visited":
        return f"{_player(g('player'))} visits {g('body')}"
    if t == "detection_changed":
        if g("detected"):
            return f"{g('ship')} detected at {g('position')}, velocity {_velocity(g('velocity'))}"
        return f"{g('ship')} is no longer detected"
    if t == "identity_revealed":
        return f"{g('ship')} is revealed: {g('identity')}"
    if t == "surrendered":
        return f"{_player(g('player'))} surrenders"
    if t == "ordnance_launched":
        if g("ship") is None:
            return f"a {g('kind')} {g('ordnance')} is launched at {g('hex')} by a ship out of sight"
        return f"{g('ship')} launches {g('kind')} {g('ordnance')} at {g('hex')}"
    if t == "base_emplaced":
        return f"{g('ship')} emplaces base {g('base')} at {g('hex')}"
    if t == "ordnance_moved":
        return f"{g('ordnance')} drifts to {g('destination')}"
    if t == "ordnance_detonated":
        targets = g("targets") or ()
        hit = f", hitting {', '.join(targets)}" if targets else ", hitting nothing"
        return f"{g('kind')} {g('ordnance')} detonates at {g('hex')}{hit}"
    if t == "ordnance_removed":
        return f"{g('ordnance')} {REMOVED.get(g('reason'), 'is removed: ' + str(g('reason')))}"
    if t == "ordnance_detected":
        return f"{_player(g('owner'))}'s {g('kind')} {g('ordnance')} detected at {g('hex')}"
    if t == "damage_roll":
        odds = f" at {g('odds')}" if g("odds") else ""
        mod = f" {g('modifier'):+d}" if g("modifier") else ""
        result = g("result")
        effect = ("no effect" if result == "-" else "eliminated" if result == "E"
                  else f"disabled {g('disabled')} turn{'s' if g('disabled') != 1 else ''}")
        return f"{g('source')} -> {g('target')}{odds}: roll {g('roll')}{mod}, {result} ({effect})"
    if t == "attacker_added":
        return f"{g('ship')} joins the attack"
    if t in ("attack_declared", "counterattack"):
        ships = g("attackers") if t == "attack_declared" else g("ships")
        # range and velocity are penalties taken off the die; heroism is a bonus
        mods = [f"range -{g('range_mod')}" if g("range_mod") else "",
                f"velocity -{g('velocity_mod')}" if g("velocity_mod") else "",
                f"heroism +{g('heroism')}" if g("heroism") else ""]
        mods_text = ", ".join(m for m in mods if m)
        verb = "attack" if t == "attack_declared" else "counterattack"
        return (f"{', '.join(ships or ())} {verb} {g('target')}: {g('strength')} vs {g('defense')} = {g('odds')}"
                + (f" ({mods_text})" if mods_text else ""))
    if t == "heroism_earned":
        return f"heroism earned by {', '.join(g('ships') or ())}"
    if t == "transferred":
        return f"{g('amount')} {g('kind')} transferred from {g('source')} to {g('target')}"
    if t == "ship_captured":
        return f"{g('ship')} is captured by {g('by')}"
    if t == "purchased":
        carrier = f" (carried by {g('carrier')})" if g("carrier") else ""
        return f"{_player(g('player'))} buys a {g('item')}{carrier}, {g('credits_left')} credits left"
    if t == "fleet_ready_declared":
        return f"{_player(g('player'))}'s fleet is ready"
    if t == "fleet_spawned":
        ships = g("ships") or ()
        return f"{_player(g('player'))}'s fleet arrives: " + ", ".join(f"{s[1]} {s[0]} at {s[2]}" for s in ships)
    if t == "game_over":
        winners = g("winners") or ()
        who = " and ".join(_player(w) for w in winners) + " win" + ("s" if len(winners) == 1 else "")
        return f"game over: {who if winners else 'a draw'} ({g('reason')})"
    return None


def describe(o: Mapping, is_event: bool) -> str | None:
    """The text of a value's JSON form, or None for a type this module does not word."""
    t = o.get("type")
    text = _event(t, o.get) if is_event else _action(t, o.get)
    if text is None or not is_event:
        return text
    audience = o.get("to")
    return f"(to {', '.join(_player(p) for p in audience)}) {text}" if audience else text
