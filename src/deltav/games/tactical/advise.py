"""The astrogation assistant of Delta-V tactical: for one of a seat's ships and a destination, the AI planner's
fewest-turn course within the ship's fuel, asked through the AI's interface for player services
(``bots.assist.plan_course``, never the planner itself), as a multi-turn ghost path with the order of each turn.

Computed from the seat's own view only (the ship's position, velocity, fuel and queued gravity, which its owner
knows exactly; the map; the destroyed bases and the options, which are public), never from the true state.

A request (plain JSON from a client)::

    {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}}   # land on one of Venus' bases
    {"ship": "p0s0", "goal": {"kind": "base", "hex": "-5,7"}}     # land on that base
    {"ship": "p0s0", "goal": {"kind": "orbit", "body": "Luna"}}   # reach that body's gravity and survive there
    {"ship": "p0s0", "goal": {"kind": "hex", "hex": "3,-4"}}      # touch that hex and survive there

The answer: ``{"ship", "goal", "found", "turns", "steps": [{"turn", "order", "start", "path", "destination",
"velocity", "fuel_after", "outcome", "body", "defended"}], "reason", "avoids_defense"}``; ``steps[0].order`` is an
``order`` action that the client matches against its legal list.

Enemy planetary defense (when the rules have combat and planetary defense) shoots a ship that ends a move unlanded
in an intact enemy base's fire zone, so the course never stops there (the planner's ``avoid``); when no course
within the fuel and depth does, the assistant gives the fewest-turn course anyway, marks each step that ends in a
defended hex (``defended``) and says so (``avoids_defense`` false, ``reason``).

A bad request raises MalformedAction naming the field; a ship that is not the seat's raises IllegalAction. This module
does no I/O and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deltav.core.errors import IllegalAction, MalformedAction

from .bots.assist import plan_course
from .mapdata import default_map
from .model import hkey
from .movement import compute_course

GOAL_KINDS = ("body", "base", "orbit", "hex")
DEPTH = 16  # turns the planner looks ahead
BEAM = 48


def _hex_field(goal: Mapping, field: str) -> tuple[int, int]:
    raw = goal.get("hex")
    if not isinstance(raw, str):
        raise MalformedAction(field, "a hex key 'q,r' is required")
    parts = raw.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise MalformedAction(field, f"{raw[:40]!r} is not a hex key 'q,r'") from None


def _goal(gmap, goal: Any, destroyed: frozenset) -> tuple[str, tuple, str | None, dict]:
    """(planner kind, goal hexes, body, the goal as JSON) of a request's goal."""
    if not isinstance(goal, Mapping):
        raise MalformedAction("request.goal", "an object {kind, body | hex} is required")
    kind = goal.get("kind")
    if kind not in GOAL_KINDS:
        raise MalformedAction("request.goal.kind", f"must be one of {', '.join(GOAL_KINDS)}")
    if kind in ("body", "orbit"):
        body = goal.get("body")
        if not isinstance(body, str) or body not in gmap.bodies:
            raise MalformedAction("request.goal.body", f"must be a body of the map ({', '.join(gmap.body_order)})")
        b = gmap.bodies[body]
        bases = tuple(sorted(h for h in b.bases if h not in destroyed))
        if kind == "body" and bases:
            return "land", bases, None, {"kind": kind, "body": body}
        ring = tuple(sorted(gmap.gravity_hexes_of.get(body, frozenset()) or b.surface))
        if not ring:
            raise MalformedAction("request.goal.body", f"{body} has neither bases nor gravity to reach")
        return "visit", ring, body, {"kind": kind, "body": body}
    h = _hex_field(goal, "request.goal.hex")
    if kind == "base":
        if h not in gmap.base:
            raise MalformedAction("request.goal.hex", f"{hkey(h)} is not a base hex")
        if h in destroyed:
            raise IllegalAction("tactical.advise.base_destroyed", f"the base at {hkey(h)} is destroyed")
        return "land", (h,), None, {"kind": kind, "hex": hkey(h)}
    if h in gmap.surface:
        raise MalformedAction("request.goal.hex", f"{hkey(h)} is the surface of {gmap.surface[h]}: pick a base")
    return "reach", (h,), None, {"kind": kind, "hex": hkey(h)}


def defended_hexes(gmap, view: Mapping[str, Any], seat: int, destroyed: frozenset) -> frozenset:
    """The hexes where the enemies' intact bases would shoot a ship of ``seat`` that ends its move there (the
    fire zones of the bases the view lists for every other player, ``destroyed`` left out); empty when the rules
    have no planetary defense. The bases and the destroyed ones are public."""
    rules = view.get("rules", {})
    if not (rules.get("combat", True) and rules.get("planetary_defense", True)):
        return frozenset()
    out: set = set()
    for i, pl in enumerate(view.get("players", ())):
        if i == seat:
            continue
        for key in pl.get("bases", ()):
            q, r = (int(x) for x in key.split(","))
            if (q, r) not in destroyed:
                out |= gmap.fire_zone.get((q, r), frozenset())
    return frozenset(out)


def advise(view: Mapping[str, Any], seat: int, request: Any) -> dict:
    """The planned course of the request (see the module docstring) from ``seat``'s ``view``."""
    if not isinstance(request, Mapping):
        raise MalformedAction("request", "an object {ship, goal} is required")
    ship_id = request.get("ship")
    if not isinstance(ship_id, str):
        raise MalformedAction("request.ship", "a ship id is required")
    ship = next((s for s in view.get("ships", ()) if s.get("id") == ship_id), None)
    if ship is None or ship.get("owner") != seat:
        raise IllegalAction("tactical.advise.not_yours", f"{ship_id[:40]!r} is not one of your ships")
    if ship.get("destroyed"):
        raise IllegalAction("tactical.advise.destroyed", f"{ship_id} is destroyed")
    gmap = default_map()
    destroyed = frozenset(tuple(h) for h in view.get("destroyed_bases", ()))
    kind, goals, body, goal_json = _goal(gmap, request.get("goal"), destroyed)
    opts = view.get("options", {})
    grazing = bool(opts.get("grazing_is_contact", False))
    takeoff = bool(opts.get("takeoff_costs_fuel", True))
    pos = tuple(ship["position"])
    vel = tuple(ship["velocity"])
    pending = tuple(ship.get("pending_gravity", ()))
    fuel = ship.get("fuel")
    landed = bool(ship.get("landed"))
    out: dict = {"ship": ship_id, "goal": goal_json, "found": False, "turns": None, "steps": [], "reason": None,
                 "avoids_defense": True}
    if ship.get("disabled", 0) > 0 or ship.get("control") == "captured":
        out["reason"] = "the ship cannot burn now (disabled or captured): it can only coast"
        return out
    defended = defended_hexes(gmap, view, seat, destroyed)
    plan = plan_course(gmap, pos, vel, pending, fuel, landed, kind, goals, body, destroyed, grazing=grazing,
                       takeoff_costs_fuel=takeoff, beam=BEAM, depth=DEPTH, avoid=defended) if defended else None
    out["avoids_defense"] = plan is not None or not defended
    if plan is None:
        plan = plan_course(gmap, pos, vel, pending, fuel, landed, kind, goals, body, destroyed, grazing=grazing,
                           takeoff_costs_fuel=takeoff, beam=BEAM, depth=DEPTH)
        if plan is not None and defended:
            out["reason"] = "no course keeps out of the enemy's planetary defense: the marked turns end in its fire"
    if plan is None:
        out["reason"] = f"no course within {DEPTH} turns and the ship's fuel reaches it"
        return out
    steps = []
    players = view.get("players", ())
    own = tuple(tuple(int(x) for x in k.split(",")) for k in players[seat].get("bases", ())) \
        if 0 <= seat < len(players) else ()
    reference = opts.get("landing_tie") == "reference"
    for turn, ((burn, land, weak), (p, v, pend, f, ld)) in enumerate(plan, start=1):
        c = compute_course(gmap, p, v, f, pend, ld, False, burn, None, weak, land, destroyed, grazing, takeoff,
                           own if land else (), reference)
        steps.append({
            "turn": turn,
            "order": {"type": "order", "ship": ship_id, "burn": burn, "overload": None, "land": bool(land),
                      "weak": sorted(hkey(h) for h in weak)},
            "start": hkey(p),
            "path": [hkey(h) for h in c.path],
            "destination": hkey(c.destination),
            "velocity": [c.velocity[0], c.velocity[1]],
            "fuel_after": None if f is None else f - c.fuel_spent,
            "outcome": c.outcome,
            "body": c.body,
            "defended": c.outcome != "landing" and c.destination in defended,
        })
    out.update(found=True, turns=len(steps), steps=steps)
    return out
