"""Per-action notes for the browser (``DeepSpaceGame.annotate_legal``): what each legal step costs and predicts.

One plain-JSON object (or None) per legal action, computed from the acting player's *view* only (never from the
state's hidden fields), so a note can hold nothing that player may not know:

- ``velocity`` in plotting: ``cost`` (thrust spent: the hex distance between the old and new velocity), its
  display breakdown ``speed_up``, ``slow_down``, ``turn`` (``movement.breakdown``), ``speed``, ``label``
  (rulebook components, ``"3A+2B"``) and ``dest`` (the hex the ship ends its movement in). In deployment:
  ``speed`` and ``label``.
- ``velocity_column`` (thrust above ``SPLIT_THRUST``): ``rows``, ``min_cost`` (the cheapest velocity of the column).
- ``withdraw``: ``radius`` (the option: every enemy is farther than this).
- ``fire`` at a ship: the predicted ``range`` if the target keeps its velocity (``drift``), the range bounds
  ``range_min`` / ``range_max`` it can reach with its thrust, ``p_hit`` at each (``p_hit``, ``p_hit_best``,
  ``p_hit_worst``), ``expected_hp`` (hit points if it hits, the mean), ``p_damage`` (the chance a hit does any
  damage) and ``basis``: ``design`` (the target's side fights with the scenario's public fleet and it took no
  hit points: its stats are exact), ``damaged`` (that design, but it has taken ``hp_taken`` hit points whose
  allocation only its owner knows: the odds are against its undamaged stats) or ``estimate`` (a fleet designed
  in secret: the AI's ``bots.assist.estimated_enemy_stats`` from its size and what it was seen doing), or ``own`` (a
  friendly target under ``friendly_fire``: exact). ``fire`` holding fire: None.
- ``allocate``: ``levels`` the stat loses and ``lost`` hit points wasted; ``auto_allocate``: ``plan``, the default
  allocation as ``[stat, weapon, hp, levels]`` per stat it
  touches, in the order first touched (as its ``stat_lost`` events).
- ``self_destruct`` detonating: ``damage_level`` (the explosion's Damage level: the ship's remaining stat total)
  and ``in_hex`` (the other ships sharing its hex, public).
- design: ``set_stat`` / ``weapon_targeting`` / ``weapon_damage``: ``left`` (design points left after it);
  ``use_fleet``: the built-in fleet (public data).

This module owns annotations only: pure functions of a view and the legal actions; it changes nothing and does
no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, NotRequired, TypedDict

from deltav.core.hexgrid import distance
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.bots.assist import estimated_enemy_stats
from deltav.games.deepspace.design import POINTS_PER_SIZE, load_fleet
from deltav.games.deepspace.movement import breakdown, label, speed, thrust_cost
from deltav.games.deepspace.odds import TWO_D6, p_hit
from deltav.games.deepspace.visibility import ShipDesignJson, fleet_prior

# --- the notes' JSON shapes (web/tools/gen_types.py writes the client's types from them) -------------------------

class VelocityNoteJson(TypedDict):
    """A ``velocity``: its speed and rulebook label; in plotting also the thrust it costs, its breakdown and the
    hex the ship ends its movement in."""

    speed: int
    label: str
    cost: NotRequired[int]
    speed_up: NotRequired[int]
    slow_down: NotRequired[int]
    turn: NotRequired[int]
    dest: NotRequired[tuple[int, int]]


class VelocityColumnNoteJson(TypedDict):
    rows: int
    min_cost: int
    """The cheapest velocity of the column."""


class WithdrawNoteJson(TypedDict):
    radius: int
    """The option: every enemy is farther than this."""


class FireNoteJson(TypedDict):
    """A shot at a ship: the predicted range and its bounds, the chance to hit at each, the hit points a hit
    does, and what the target's stats are judged from (``basis``)."""

    range: int
    range_min: int
    range_max: int
    p_hit: float
    p_hit_best: float
    p_hit_worst: float
    expected_hp: float
    p_damage: float
    basis: Literal["design", "damaged", "estimate", "own"]
    evasion: int
    endurance: int
    hp_taken: NotRequired[int]


class AllocateNoteJson(TypedDict):
    levels: int
    """Levels the stat loses."""
    lost: int
    """Hit points wasted."""


class AutoAllocateNoteJson(TypedDict):
    plan: list[tuple[str, int | None, int, int]]
    """The default allocation: ``[stat, weapon, hp, levels]`` per stat it touches, in the order first touched."""


class SelfDestructNoteJson(TypedDict):
    damage_level: int
    in_hex: list[str]
    """The other ships sharing its hex."""


class DesignNoteJson(TypedDict):
    left: int
    """Design points left after it."""


class FleetNoteJson(TypedDict):
    """A built-in fleet (public data)."""

    title: str
    size_levels: int
    ships: list[ShipDesignJson]


class NotesJson(TypedDict):
    """The note of each kind of legal action that has one, by the action's ``type`` (``annotate``)."""

    velocity: VelocityNoteJson
    velocity_column: VelocityColumnNoteJson
    withdraw: WithdrawNoteJson
    fire: FireNoteJson
    allocate: AllocateNoteJson
    auto_allocate: AutoAllocateNoteJson
    self_destruct: SelfDestructNoteJson
    set_stat: DesignNoteJson
    weapon_targeting: DesignNoteJson
    weapon_damage: DesignNoteJson
    use_fleet: FleetNoteJson


@lru_cache(maxsize=4096)
def damage_odds(damage: int, endurance: int) -> tuple[float, float]:
    """(mean hit points of a hit, chance a hit does any damage): exact over the 36 x 36 dice outcomes."""
    total = 0
    ways = 0
    for a, wa in TWO_D6:
        for e, we in TWO_D6:
            hp = a * damage - e * endurance
            if hp > 0:
                total += hp * wa * we
                ways += wa * we
    return total / 1296, ways / 1296


def _r4(x: float) -> float:
    return round(x, 4)


def annotate(view: dict, actions: Sequence) -> list[dict | None]:
    """The notes of ``actions`` (the acting player's legal actions) from that player's ``view``."""
    ships = {s["id"]: s for s in view["ships"]}
    mine = view.get("mine") or {}
    plans = mine.get("plans") or {}
    phase = view["phase"]
    opts = view["options"]
    ctx: dict = {}
    out: list[dict | None] = []
    for a in actions:
        tag = a.TYPE
        if tag == "velocity":
            out.append(_velocity(ships[a.ship], (a.dq, a.dr), phase))
        elif tag == "velocity_column":
            out.append(_column(ships[a.ship], a.dq))
        elif tag == "withdraw":
            out.append({"radius": opts["withdrawal_radius"]})
        elif tag == "fire":
            out.append(None if a.target is None else _fire(view, ships, plans, a, ctx))
        elif tag == "allocate":
            out.append(_allocate(ships[a.ship], a, opts["leftover_damage"]))
        elif tag == "auto_allocate":
            out.append(_auto(ships[a.ship], opts["leftover_damage"]))
        elif tag == "self_destruct":
            out.append(_detonate(ships, ships[a.ship], opts) if a.detonate else None)
        elif tag in ("set_stat", "weapon_targeting", "weapon_damage"):
            out.append({"left": _design_left(mine.get("draft") or {}, tag, getattr(a, "stat", ""), a.level)})
        elif tag == "use_fleet":
            out.append(_fleet(a.fleet, opts.get("stat_cap", 0)))
        else:
            out.append(None)
    return out


def _velocity(s: dict, v: tuple[int, int], phase: str) -> dict:
    if phase != "plot" or s.get("pos") is None:
        return {"speed": speed(v), "label": label(v)}
    v0 = (s["vel"][0], s["vel"][1])
    up, down, turn = breakdown(v0, v)
    return {
        "cost": thrust_cost(v0, v),
        "speed_up": up,
        "slow_down": down,
        "turn": turn,
        "speed": speed(v),
        "label": label(v),
        "dest": [s["pos"][0] + v[0], s["pos"][1] + v[1]],
    }


def _column(s: dict, q: int) -> dict:
    v0 = (0, 0) if s.get("vel") is None else (s["vel"][0], s["vel"][1])
    thrust = s.get("thrust", 0)
    dq = q - v0[0]
    lo = max(-thrust, -dq - thrust)
    hi = min(thrust, -dq + thrust)
    return {"rows": hi - lo + 1, "min_cost": min(thrust_cost(v0, (q, v0[1] + dr)) for dr in range(lo, hi + 1))}


def _target_stats(view: dict, ships: dict, t: dict, ctx: dict) -> tuple[str, int, int, int]:
    """(basis, thrust, evasion, endurance) of a target, from the viewer's knowledge only."""
    if "evasion" in t:  # the viewer's own ship (friendly fire)
        return "own", t["thrust"], t["evasion"], t["endurance"]
    if "prior" not in ctx:
        ctx["prior"] = fleet_prior(view)
    lv = ctx["prior"].get(t["id"])
    if lv is not None:
        return ("damaged" if t["hp_taken"] > 0 else "design"), lv[0], lv[1], lv[2]
    thrust, evasion, endurance, _ = estimated_enemy_stats(t)
    return "estimate", thrust, evasion, endurance


def _fire(view: dict, ships: dict, plans: dict, a, ctx: dict) -> dict:
    s = ships[a.ship]
    t = ships[a.target]
    plan = plans.get(a.ship) or {}
    vel = plan.get("vel") or s["vel"]
    here = (s["pos"][0] + vel[0], s["pos"][1] + vel[1])
    tplan = plans.get(t["id"]) if t["owner"] == s["owner"] else None
    tvel = (tplan or {}).get("vel") or t["vel"]
    there = (t["pos"][0] + tvel[0], t["pos"][1] + tvel[1])
    basis, t_thrust, evasion, endurance = _target_stats(view, ships, t, ctx)
    reach = 0 if tplan is not None else t_thrust
    rng = distance(here, there)
    lo = max(0, rng - reach)
    hi = rng + reach
    targeting, dmg_level = s["weapons"][a.weapon]
    mean, p_any = damage_odds(dmg_level, endurance)
    note = {
        "range": rng,
        "range_min": lo,
        "range_max": hi,
        "p_hit": _r4(p_hit(targeting, evasion, rng)),
        "p_hit_best": _r4(p_hit(targeting, evasion, lo)),
        "p_hit_worst": _r4(p_hit(targeting, evasion, hi)),
        "expected_hp": _r4(mean / p_any) if p_any else 0.0,
        "p_damage": _r4(p_any),
        "basis": basis,
        "evasion": evasion,
        "endurance": endurance,
    }
    if basis == "damaged":
        note["hp_taken"] = t["hp_taken"]
    return note


def _allocate(s: dict, a, mode: str) -> dict:
    slot = dmg.slot_of(a.stat, a.weapon)
    levels = [s["thrust"], s["evasion"], s["endurance"]]
    for tw, dw in s["weapons"]:
        levels += [tw, dw]
    lost_levels = dmg.apply(s["size"], levels, list(s["partial"]), slot, a.hp, mode)
    wasted = a.hp - lost_levels * dmg.slot_cost(slot, s["size"]) if mode == "lost" else 0
    return {"levels": lost_levels, "lost": max(0, wasted)}


def _auto(s: dict, mode: str) -> dict:
    levels = [s["thrust"], s["evasion"], s["endurance"]]
    for tw, dw in s["weapons"]:
        levels += [tw, dw]
    partial = list(s["partial"])
    totals: dict[int, list[int]] = {}  # slot -> [hp, levels], in the order first touched (as the stat_lost events)
    for slot, hp in dmg.default_plan(s["size"], levels, partial, s["pending"], mode):
        acc = totals.setdefault(slot, [0, 0])
        acc[0] += hp
        acc[1] += dmg.apply(s["size"], levels, partial, slot, hp, mode)
    return {"plan": [[*dmg.slot_name(k), hp, lost] for k, (hp, lost) in totals.items()]}


def _detonate(ships: dict, s: dict, opts: dict) -> dict:
    total = s["thrust"] + s["evasion"] + s["endurance"] + sum(t + d for t, d in s["weapons"])
    if opts.get("explosion_counts_size"):
        total += s["size"]
    pos = s["pos"]
    others = [x["id"] for x in ships.values() if x["id"] != s["id"] and x["status"] == "active" and x["pos"] == pos]
    return {"damage_level": total, "in_hex": others}


def _design_left(draft: dict, tag: str, stat: str, level: int) -> int:
    size = draft.get("size", 0)
    spent = size * (draft.get("thrust", 0) + draft.get("evasion", 0) + draft.get("endurance", 0))
    spent += sum(t + d for t, d in draft.get("weapons", []))
    if tag == "set_stat":
        # the stage's own stat is being chosen now: it is still 0 in the draft
        spent += size * level
    elif tag == "weapon_targeting":
        spent += level
    else:
        spent += draft.get("targeting", 0) + level
    return POINTS_PER_SIZE * size - spent


@lru_cache(maxsize=64)
def _fleet_json(fid: str, cap: int) -> dict:
    f = load_fleet(fid, cap)
    return {"title": f.title, "size_levels": f.levels_used, "ships": [d.to_json() for d in f.ships]}


def _fleet(fid: str, cap: int) -> dict:
    d = _fleet_json(fid, int(cap or 0))
    return {"title": d["title"], "size_levels": d["size_levels"], "ships": [dict(x) for x in d["ships"]]}
