"""The summary of a finished Delta-V tactical match (``TacticalGame.match_summary``, issue 26 "game-over
statistics"), computed once from every event of the match (nothing is secret then) and the final state.

Per seat (``stats``, one value per seat, in seat order):

- ``Turns played``: the player-turns each side played (``turn_started``);
- ``Fuel spent``: fuel burnt by the ships that moved in each side's movement phases (``ship_moved``);
- ``Hits scored``: damaging results (a disabling result or an elimination, any cause but asteroids) on the
  other side's ships (``damage_roll``: guns, counterattacks, planetary defense, rams, mines, torpedoes);
- ``Times disabled``: disabling results on the side's own ships (not one that eliminates by reaching 6 turns);
- ``Ships lost``: the side's ships destroyed (``ship_destroyed``: crashes, off the map, combat, ordnance);
- ``Ships captured``: enemy ships the side captured (only when a capture happened);
- ``Ordnance launched``: mines, torpedoes and nukes (``ordnance_launched``);
- ``Colonists delivered`` (scenarios whose target needs colonists): colonists aboard the side's ships landed on
  its target body at the end;
- ``Checkpoints visited`` (Grand Tour).

``scores`` is None (the game has no score table); ``notes``: how the game ended, and each side's ships still in
play at the end, by label. This module reads the events and the final state; it changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from deltav.core.protocol import player_names

from .labels import ShipLabels

_NO_HIT = ("-",)


def _json(e) -> Mapping[str, Any]:
    return e.to_json() if hasattr(e, "to_json") else e


def match_summary(state, events: Iterable, names: Sequence[str] | None = None) -> dict:
    """The summary of a finished match (see the module docstring)."""
    names = player_names(names, 2)
    labels = ShipLabels.for_state(state)
    owner = {sh.id: labels.side(sh.id) if labels.side(sh.id) is not None else sh.owner for sh in state.ships}
    turns = [0, 0]
    fuel = [0, 0]
    hits = [0, 0]
    disabled = [0, 0]
    lost = [0, 0]
    captured = [0, 0]
    launched = [0, 0]
    active = state.first_player
    pending = None  # a disabling result just counted: undone if the ship's destruction follows (6+ turns)
    for raw in events:
        e = _json(raw)
        t = e.get("type")
        if pending is not None:
            if t == "ship_destroyed" and e.get("ship") == pending[0]:
                disabled[pending[1]] -= 1
            pending = None
        if t == "turn_started":
            active = e.get("player", active)
            if active in (0, 1):
                turns[active] += 1
        elif t == "fleet_spawned":
            for sid, *_rest in e.get("ships", ()):
                owner.setdefault(sid, e.get("player"))
        elif t == "ship_moved":
            if active in (0, 1):
                fuel[active] += int(e.get("fuel_spent") or 0)
        elif t == "damage_roll":
            side = owner.get(e.get("target"))
            result = e.get("result")
            if side in (0, 1) and result not in _NO_HIT:
                if e.get("source") != "asteroid":
                    hits[1 - side] += 1
                if result != "E":
                    disabled[side] += 1
                    pending = (e.get("target"), side)
        elif t == "ship_destroyed":
            side = owner.get(e.get("ship"))
            if side in (0, 1):
                lost[side] += 1
        elif t == "ship_captured":
            by = owner.get(e.get("by"))
            if by in (0, 1):
                captured[by] += 1
                owner[e.get("ship")] = by
        elif t == "ordnance_launched":
            side = owner.get(e.get("ship")) if e.get("ship") else active
            if side in (0, 1):
                launched[side] += 1
    stats = [
        {"label": "Turns played", "values": turns},
        {"label": "Fuel spent", "values": fuel},
        {"label": "Hits scored", "values": hits},
        {"label": "Times disabled", "values": disabled},
        {"label": "Ships lost", "values": lost},
    ]
    if any(captured):
        stats.append({"label": "Ships captured", "values": captured})
    stats.append({"label": "Ordnance launched", "values": launched})
    rules = state.rules
    gmap = state.gmap
    if rules.target_requires_passengers:
        delivered = [0, 0]
        for sh in state.ships:
            pl = state.players[sh.owner]
            if not sh.destroyed and sh.landed and pl.target and (
                    gmap.base.get(sh.pos) == pl.target or gmap.surface.get(sh.pos) == pl.target):
                delivered[sh.owner] += sh.passengers
        stats.append({"label": "Colonists delivered", "values": delivered})
    if rules.checkpoints:
        stats.append({"label": "Checkpoints visited", "values": [len(pl.visited) for pl in state.players]})
    notes = []
    res = state.result()
    if res is not None:
        who = " and ".join(names[w] for w in res.winners) if res.winners else ""
        notes.append(f"{who} {'wins' if len(res.winners) == 1 else 'win'}: {res.reason}" if who
                     else f"A draw: {res.reason}")
    for p in (0, 1):
        left = []
        for sh in state.ships:
            if sh.owner != p or sh.destroyed:
                continue
            side = labels.side(sh.id)
            word = labels.label(sh.id) if side in (None, p) else f"{names[side]}'s {labels.label(sh.id)} (captured)"
            if sh.disabled:
                word += f" (disabled {sh.disabled} turn{'s' if sh.disabled != 1 else ''})"
            left.append(word)
        notes.append(f"{names[p]}'s ships in play at the end: {', '.join(left) if left else 'none'}")
    return {"scores": None, "stats": stats, "notes": notes}
