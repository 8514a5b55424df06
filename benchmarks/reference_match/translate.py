"""Translation between the reference Delta-V's game state (its TypeScript engine's ``GameState`` as JSON, the
state one seat may see: its ``filterStateForPlayer``) and our tactical state, and from our actions back to the
reference's orders. Used by ``bridge.py`` (the head-to-head harness, docs/bots-tactical.md "Head to head on the
reference's engine") and by tests/tactical/test_reference_bridge.py.

What it owns: the field mapping (below), the rules options that make our engine behave as the reference's
(``REFERENCE_RULINGS``), the scenario names of both. What it must not touch: our engine's rules (it builds a
state through ``TacticalGame.state_from_json``, which validates it) and any field of the reference's state the
seat may not know: it reads only what ``SEEN_SHIP_FIELDS`` and the top-level keys below name, and an enemy's hidden
identity (Escape), which the reference's filter strips, is taken from our own start (which ships carry one), the
fugitive put on the first unrevealed one (the seat's view hides which).

Mapping (reference -> ours): hexes ``{q, r}`` -> ``[q, r]`` (both axial, the same map), velocities ``{dq, dr}``;
``lifecycle`` -> ``landed`` / ``destroyed``; ``deathCause`` -> ``cause`` (``baseDefense`` = planetary defense,
``asteroidHazard`` = asteroid, ``ramming`` = ram); ``damage.disabledTurns`` -> ``disabled``; unlimited fuel
(``Infinity``, JSON null) -> null; ``pendingGravityEffects`` -> the directions not ignored; the active player's
``pendingAstrogationOrders`` -> ``orders``; ``pendingAsteroidHazards`` -> ``hazards``; ``firedThisPhase`` and
``combatTargetedThisPhase`` -> the combat's ``used`` / ``attacked``; ``lastMovementPath`` -> ``path`` (both engines
take a gun's range and line of sight from the closest approach of the attacker's last move); ``turnNumber`` -> ``turn`` with
``first_player`` 0 (the reference counts a game turn from player 0's player-turn whoever started). Ship and
ordnance ids are the same strings in both engines (``p0s0``, ``ord3``).
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from deltav.games import load_all

#: Our scenario id -> the reference's scenario key.
SCENARIOS = {
    "biplanetary": "biplanetary",
    "duel": "duel",
    "blockade": "blockade",
    "grand_tour": "grandTour",
    "escape": "escape",
    "evacuation": "evacuation",
    "convoy": "convoy",
    "fleet_action": "fleetAction",
    "interplanetary_war": "interplanetaryWar",
}
OURS = {v: k for k, v in SCENARIOS.items()}

#: Our rules options set to the reference engine's behaviour where our rulings differ (docs/tactical.md, Options).
REFERENCE_RULINGS = {
    "turn_limit": 1000,              # the reference has none (its simulator stops a game after 1000 phases)
    "escape_is_winnable": False,     # ruling 1: the reference eliminates off-map first
    "grazing_is_contact": True,      # ruling 2: the reference's +epsilon nudge settles a graze on one side, so it
    # crashes on some grazes; true counts both hexes of the pair: in --check runs the reference never crashed a
    # ship where ours did not (false: it did, and lost Grand Tour games at turn 5; docs/bots-tactical.md)
    "grand_tour_luna": True,         # ruling 3: the reference's nine checkpoints
    "fog_of_war": False,             # ruling 4: the reference shows every ship to both players
    "takeoff_costs_fuel": True,      # ruling 5: the reference charges the take-off burn too
    "ordnance_detection": False,     # ruling 7: every item detected at launch
    "landing_tie": "reference",      # ruling 8: the reference's hex order
    "surrender_ends_game": False,    # ruling 9: as the reference
}

PHASES = {"fleetBuilding": "fleet_building", "astrogation": "astrogation", "ordnance": "ordnance",
          "combat": "combat", "logistics": "logistics", "gameOver": "game_over"}

CAUSES = {"crash": "crash", "gun": "gun", "baseDefense": "planetary_defense", "asteroid": "asteroid",
          "asteroidHazard": "asteroid", "ramming": "ram", "ram": "ram", "mine": "mine", "torpedo": "torpedo",
          "nuke": "nuke", "antiNuke": "gun"}

#: The ship fields of the reference's state the bridge reads (nothing else: ``killedBy``, ``lastBurnDirection``
#: and ``originalOwner`` are not used).
SEEN_SHIP_FIELDS = ("id", "type", "owner", "position", "velocity", "lastMovementPath", "fuel", "cargoUsed",
                    "nukesLaunchedSinceResupply",
                    "resuppliedThisTurn", "lifecycle", "control", "detected", "heroismAvailable", "overloadUsed",
                    "baseStatus", "identity", "passengersAboard", "pendingGravityEffects", "deathCause",
                    "firedThisPhase", "damage")


def game():
    return load_all()["tactical"]


def options_for(scenario: str, rulings: dict | None = None) -> dict:
    """Our resolved options for ``scenario`` (our id) with the reference's rulings (``rulings`` overrides some:
    the driver's ``--ruling NAME=VALUE``)."""
    return dict(game().resolve_options({"scenario": scenario, **REFERENCE_RULINGS, **(rulings or {})}))


@lru_cache(maxsize=32)
def _start_json(scenario: str, rulings: tuple) -> dict:
    return game().new_initial_state(options_for(scenario, dict(rulings)), 0).to_json()


def start_json(scenario: str, rulings: dict | None = None) -> dict:
    """Our own engine's start of ``scenario`` with the reference's rulings, as state JSON (a fresh copy)."""
    return copy.deepcopy(_start_json(scenario, tuple(sorted((rulings or {}).items()))))


def _hex(h: dict) -> list[int]:
    return [int(h["q"]), int(h["r"])]


def _vel(v: dict) -> list[int]:
    return [int(v["dq"]), int(v["dr"])]


def _pending(effects) -> list[int]:
    return [int(e["direction"]) for e in effects or () if not e.get("ignored")]


def _ship(s: dict, hidden_ids: set[str]) -> dict:
    lifecycle = s["lifecycle"]
    fuel = s.get("fuel")
    out: dict[str, Any] = {
        "id": s["id"],
        "owner": int(s["owner"]),
        "type": s["type"],
        "position": _hex(s["position"]),
        "velocity": _vel(s["velocity"]),
        "fuel": None if fuel is None else int(fuel),
        "pending_gravity": _pending(s.get("pendingGravityEffects")),
        "landed": lifecycle == "landed",
        "destroyed": lifecycle == "destroyed",
        "cause": CAUSES.get(s.get("deathCause") or "", "off_map") if lifecycle == "destroyed" else None,
        "disabled": int(s["damage"]["disabledTurns"]),
        "overload_used": bool(s.get("overloadUsed")),
        "cargo_used": int(s.get("cargoUsed") or 0),
        "passengers": int(s.get("passengersAboard") or 0),
        "nukes": int(s.get("nukesLaunchedSinceResupply") or 0),
        "detected": bool(s.get("detected")),
        "heroic": bool(s.get("heroismAvailable")),
        "control": s.get("control") or "own",
        "resupplied": bool(s.get("resuppliedThisTurn")),
        "path": [_hex(h) for h in s.get("lastMovementPath") or ()],
        "carrying_base": s.get("baseStatus") == "carryingBase",
        "emplaced": s.get("baseStatus") == "emplaced",
    }
    identity = s.get("identity")
    if identity is not None:  # the seat's own ship, or a revealed one
        out["hidden_identity"] = True
        out["revealed"] = bool(identity["revealed"])
        out["identity"] = "fugitives" if identity["hasFugitives"] else "decoy"
    elif s["id"] in hidden_ids:  # an enemy's unrevealed ship: which one carries the fugitives is unknown
        out["hidden_identity"] = True
        out["revealed"] = False
        out["identity"] = "decoy"
    return out


def _ordnance(o: dict) -> dict:
    return {
        "id": o["id"],
        "owner": int(o["owner"]),
        "kind": o["type"],
        "position": _hex(o["position"]),
        "velocity": _vel(o["velocity"]),
        "pending_gravity": _pending(o.get("pendingGravityEffects")),
        "turns_remaining": int(o["turnsRemaining"]),
        "launched_by": o.get("sourceShipId"),
        "detected": True,
    }


def state_json_from_reference(ref: dict, seat: int, rulings: dict | None = None) -> dict:
    """Our state JSON (``deltav-tactical-state/1``) of the reference's state ``ref`` as ``seat`` sees it."""
    scenario = OURS[ref["scenario"]]
    doc = start_json(scenario, rulings)
    start_ships = {s["id"]: s for s in doc["ships"]}
    hidden_ids = {i for i, s in start_ships.items() if s.get("hidden_identity")}
    ships = [_ship(s, hidden_ids) for s in ref["ships"]]
    # an enemy's hidden identities, stripped by the reference's filter: one of the unrevealed ones carries them
    for owner in range(2):
        hidden = [s for s in ships if s["owner"] == owner and s.get("hidden_identity")]
        if hidden and not any(s["identity"] == "fugitives" for s in hidden):
            candidates = [s for s in hidden if not s["revealed"] and not s["destroyed"]] or hidden
            candidates[0]["identity"] = "fugitives"
    ordnance = [_ordnance(o) for o in ref["ordnance"] if o.get("lifecycle") != "destroyed"]
    numbers = [int(o["id"][3:]) for o in ordnance if o["id"].startswith("ord") and o["id"][3:].isdigit()]
    phase = PHASES[ref["phase"]]
    active = int(ref["activePlayer"])
    players = []
    for p, start in zip(ref["players"], doc["players"]):
        players.append({
            "home": p.get("homeBody") or "",
            "target": p.get("targetBody") or "",
            "escape_wins": bool(p.get("escapeWins")),
            "bases": list(p.get("bases") or []),
            "credits": int(p["credits"]) if p.get("credits") is not None else start["credits"],
            "spent": 0 if phase != "fleet_building" else start["spent"],
            "visited": list(p.get("visitedBodies") or []),
            "ready": bool(p.get("ready")) if phase == "fleet_building" else False,
        })
    orders = {}
    for o in ref.get("pendingAstrogationOrders") or ():
        weak = sorted(k for k, v in (o.get("weakGravityChoices") or {}).items() if v)
        orders[o["shipId"]] = {"type": "order", "ship": o["shipId"], "burn": o.get("burn"),
                               "overload": o.get("overload"), "land": bool(o.get("land")), "weak": weak}
    combat = None
    if phase == "combat":
        attacked = [k.split(":", 1)[1] for k in ref.get("combatTargetedThisPhase") or ()]
        combat = {"used": [s["id"] for s in ref["ships"] if s.get("firedThisPhase")], "attacked": attacked,
                  "group": [], "allocated": 0, "group_hex": None}
    result = None
    if ref.get("outcome"):
        winner = ref["outcome"].get("winner")
        result = {"winners": [] if winner is None else [int(winner)], "reason": str(ref["outcome"].get("reason", "")),
                  "scores": None}
        phase = "game_over"
    doc.update({
        "players": players,
        "ships": ships,
        "ordnance": ordnance,
        "next_ordnance": max(numbers, default=0) + 1,
        "destroyed_bases": sorted(ref.get("destroyedBases") or []),
        "destroyed_asteroids": sorted(ref.get("destroyedAsteroids") or []),
        "orders": orders if phase == "ordnance" else {},
        "launched": [],
        "hazards": [[h["shipId"], f"{h['hex']['q']},{h['hex']['r']}"] for h in ref.get("pendingAsteroidHazards") or ()],
        "combat": combat,
        "transfers": 0,
        "moral": bool(ref.get("escapeMoralVictoryAchieved")),
        "escaped": None,
        "result": result,
        "turn": int(ref["turnNumber"]),
        "first_player": 0,
        "active_player": active,
        "phase": phase,
        "purchases": [[], []],
    })
    return doc


def state_from_reference(ref: dict, seat: int, rulings: dict | None = None):
    """Our ``TacticalState`` of the reference's state as ``seat`` sees it (validated by ``state_from_json``)."""
    return game().state_from_json(state_json_from_reference(ref, seat, rulings))


def to_reference(phase: str, steps: list) -> dict:
    """The reference's order for one phase from our decisions ``steps``: (action, combat group before it) pairs."""
    if phase == "astrogation":
        orders = []
        for a, _ in steps:
            if a.TYPE == "order":
                order = {"shipId": a.ship, "burn": a.burn, "overload": a.overload}
                if a.weak:
                    order["weakGravityChoices"] = {k: True for k in a.weak}
                if a.land:
                    order["land"] = True
                orders.append(order)
        return {"type": "astrogation", "orders": orders}
    if phase == "ordnance":
        launches, emplacements = [], []
        for a, _ in steps:
            if a.TYPE == "launch":
                boost = a.boost if a.kind == "torpedo" and a.boost_dir is not None and a.boost else None
                launches.append({"shipId": a.ship, "ordnanceType": a.kind,
                                 "torpedoAccel": a.boost_dir if boost else None, "torpedoAccelSteps": boost})
            elif a.TYPE == "emplace_base":
                emplacements.append({"shipId": a.ship})
        return {"type": "ordnance", "launches": launches, "emplacements": emplacements}
    if phase == "combat":
        attacks = []
        for a, group in steps:
            if a.TYPE == "fire":
                attacks.append({"attackerIds": list(group), "targetId": a.target,
                                "targetType": "ordnance" if a.target.startswith("ord") else "ship",
                                "attackStrength": a.strength})
        return {"type": "combat", "attacks": attacks}
    if phase == "logistics":
        transfers = [{"sourceShipId": a.source, "targetShipId": a.target, "transferType": a.kind, "amount": a.amount}
                     for a, _ in steps if a.TYPE == "transfer"]
        return {"type": "logistics", "transfers": transfers}
    if phase == "fleet_building":
        purchases = []
        for a, _ in steps:
            if a.TYPE == "buy":
                purchases.append({"kind": "orbitalBaseCargo"} if a.item == "orbitalBaseCargo"
                                 else {"kind": "ship", "shipType": a.item})
        return {"type": "fleet", "purchases": purchases}
    raise ValueError(f"no reference order for phase {phase}")


def movement_divergences(pre: dict, orders: list, launches: list, emplacements: list, post: dict,
                         rulings: dict | None = None) -> list[str]:
    """Replays in our engine one player-turn's orders the reference's engine accepted (its state ``pre`` at
    astrogation, the orders, the ordnance phase's launches and emplacements) and compares our ships after
    movement with the reference's ``post`` (the state after its movement): position, velocity, fuel, landed,
    crashed. Returns one line per difference (empty when the engines agree). A burn ordered for a disabled ship
    becomes a coast (the reference ignores it; our engine refuses it: docs/tactical.md, Differences)."""
    from deltav.games.tactical.messages import EmplaceBase, EndAstrogation, EndOrdnance, Launch, Order

    seat = int(pre["activePlayer"])
    state = state_from_reference(pre, seat, rulings)
    out: list[str] = []

    def act(action) -> bool:
        try:
            state.apply_action(seat, action)
            return True
        except Exception as exc:  # an order the reference accepted and ours refuses is a divergence
            out.append(f"refused {action.TYPE} {getattr(action, 'ship', '')}: {exc}")
            return False

    disabled = {s.id for s in state.ships if s.disabled}
    for o in orders:
        weak = tuple(sorted(k for k, v in (o.get("weakGravityChoices") or {}).items() if v))
        if o["shipId"] in disabled:
            act(Order(o["shipId"]))
        else:
            act(Order(o["shipId"], o.get("burn"), o.get("overload"), bool(o.get("land")), weak))
    act(EndAstrogation())
    if state.phase == "ordnance" and state.active_player == seat:
        for e in emplacements:
            act(EmplaceBase(e["shipId"]))
        for x in launches:
            act(Launch(x["shipId"], x["ordnanceType"], x.get("torpedoAccel"), x.get("torpedoAccelSteps") or 0))
        act(EndOrdnance())
    elif launches or emplacements:
        out.append(f"our engine has no ordnance phase where the reference launched {len(launches)}")
    ours = {s.id: s for s in state.ships}
    for s in post["ships"]:
        if int(s["owner"]) != seat or s["id"] not in ours:
            continue
        mine = ours[s["id"]]
        destroyed = s["lifecycle"] == "destroyed"
        if destroyed and s.get("deathCause") != "crash" or mine.destroyed and mine.cause != "crash":
            continue  # destroyed by ordnance or in combat: dice, not movement
        theirs = (tuple(_hex(s["position"])), tuple(_vel(s["velocity"])), s.get("fuel"), s["lifecycle"] == "landed",
                  destroyed)
        if destroyed:
            theirs = (None, None, None, False, True)
        got = (mine.pos, mine.vel, mine.fuel, mine.landed, mine.destroyed)
        if mine.destroyed:
            got = (None, None, None, False, True)
        if got != theirs:
            out.append(f"turn {pre['turnNumber']} {s['id']} from {tuple(_hex(pre_ship(pre, s['id'])['position']))} "
                       f"v{tuple(_vel(pre_ship(pre, s['id'])['velocity']))} order "
                       f"{next((o for o in orders if o['shipId'] == s['id']), None)}: "
                       f"ours (pos, vel, fuel, landed, crashed) {got}, the reference's {theirs}")
    return out


def pre_ship(ref: dict, sid: str) -> dict:
    return next(s for s in ref["ships"] if s["id"] == sid)
