"""Opponent modelling for the Deep Space Combat planner (the ``hard`` level): what the enemy's ships are (a
belief that uses the public scenario file) and where they will be at the end of this round's movement (a model
of a sound player).

- **Scenario prior** (:func:`fleet_prior`): a side whose scenario names a fixed fleet has no design phase, so
  its ship designs are public knowledge (the scenario file the view names in ``options.scenario``); ship
  ``s<p>-<k>`` is the ``k``-th ship of that fleet. Hit points taken are public, their allocation is not:
  :func:`damaged_variants` spreads the taken hit points in a few plausible ways (the documented default
  allocation, keeping the weapons, keeping the ship stats). Sides that design their fleet during play are left
  to the game's determinizer (``decision.sample_world``).
- **Movement model** (:func:`predict_moves`): each enemy side is assumed to plot like the scripted (normal) bot:
  every velocity within its thrust scored by the exact expected damage given minus taken at the predicted
  ranges. The model is run on a view rebuilt for that side from public facts plus one particle of its stats,
  so it never reads the true state. The result, per enemy ship, is one predicted (position, velocity) per
  particle: a distribution the planner uses for ranges and for rams.
- **Detonation model** (:func:`enemy_detonates`): the scripted bot's self-destruct rule applied to a
  hypothetical meeting in one hex (the risk of ramming).

This module owns bot-side prediction only: it reads views and particles and never changes a game state.
"""

from __future__ import annotations

from deltav.games.deepspace.bots.heuristics import estimated_enemy_stats
from deltav.games.deepspace.choices import velocity_actions
from deltav.games.deepspace.odds import expected_damage, expected_shot
from deltav.games.deepspace.visibility import damaged_variants, fleet_prior

#: the highest probability the planner gives to a predicted enemy position (the enemy may not be scripted)
MAX_TRUST = 0.9


def particles(decision, k: int, prior: bool = True) -> dict[str, list[list[int]]]:
    """``k`` stat vectors per active enemy ship: from the scenario's public fleet when it names one (and
    ``prior``), else from ``k`` determinizations of the view (``decision.sample_world``)."""
    view = decision.view
    known = fleet_prior(view) if prior else {}
    out: dict[str, list[list[int]]] = {}
    enemy = [s for s in view["ships"] if s["owner"] != decision.player and s["status"] == "active"]
    unknown = [s["id"] for s in enemy if s["id"] not in known]
    for s in enemy:
        if s["id"] in known:
            out[s["id"]] = damaged_variants(s["size"], known[s["id"]], s["hp_taken"], k)
    if unknown:
        for _ in range(k):
            world = decision.sample_world(decision.rng)
            for sid in unknown:
                out.setdefault(sid, []).append(list(world.ship(sid).lv))
    return out


# --- the movement model ---------------------------------------------------------------------------------


def _velocity_choice(ships: list[dict], q: int, sv: dict, lv: list[int], players: int,
                     terms: dict | None = None) -> tuple[int, int]:
    """The velocity the scripted bot's rule picks for enemy ship ``sv`` (of player ``q``, stats ``lv``) seeing
    ``ships`` (public facts): every velocity within its thrust scored by expected damage given (best weapon)
    minus taken at the ranges to the other sides' ships if they keep their velocity, minus 0.01 per unit of
    speed; the first best in the engine's velocity order. A foe's term (given minus taken) depends only on
    its range, so it is computed once per (foe, range) and kept in ``terms`` (which callers may share between
    ships of side ``q`` with the same stats ``lv``); the summed terms once per ranges to the foes' hexes (the
    same additions in the same order, so the same floats)."""
    pos = tuple(sv["pos"])
    weapons = [(lv[i], lv[i + 1]) for i in range(3, len(lv) - 1, 2) if lv[i] + lv[i + 1] > 0]
    foes = []
    for s in ships:
        if s["owner"] != q and s["status"] == "active" and s["pos"] is not None:
            _t, e, en, ws = estimated_enemy_stats(s)
            foes.append(((s["pos"][0] + s["vel"][0], s["pos"][1] + s["vel"][1]), e, en, ws))
    vel = tuple(sv["vel"])
    if not foes:
        return vel
    if terms is None:
        terms = {}
    per_foe = [terms.setdefault(i, {}) for i in range(len(foes))]
    # the foes' predicted hexes (often one stack): a velocity's summed term depends only on its ranges to them
    spots = list(dict.fromkeys(f[0] for f in foes))
    where = [spots.index(f[0]) for f in foes]
    one = spots[0] if len(spots) == 1 else None
    sums: dict = {}
    best, best_score = vel, None
    ev, end = lv[1], lv[2]
    for a in velocity_actions(sv["id"], vel, lv[0]):
        nq = pos[0] + a.dq
        nr = pos[1] + a.dr
        if one is not None:  # every foe in one hex (a stack): the key is its range alone
            dq = nq - one[0]
            dr = nr - one[1]
            rs = max(abs(dq), abs(dr), abs(dq + dr))  # hexgrid.distance
        else:
            rs = tuple(max(abs(nq - fq), abs(nr - fr), abs(nq - fq + nr - fr)) for fq, fr in spots)
        score = sums.get(rs)
        if score is None:
            score = 0.0
            for (_fpos, e, en, ws), cache, k in zip(foes, per_foe, where):
                r = rs if one is not None else rs[k]
                term = cache.get(r)
                if term is None:
                    give = max((expected_shot(t, d, e, en, r) for t, d in weapons), default=0.0)
                    take = sum(expected_shot(t, d, ev, end, r) for t, d in ws)
                    term = cache[r] = give - take
                score += term
            sums[rs] = score
        score -= 0.01 * (abs(a.dq) + abs(a.dr))
        if best_score is None or score > best_score:
            best, best_score = (a.dq, a.dr), score
    return best


def predict_moves(view: dict, me: int, parts: dict[str, list[list[int]]]) -> dict[str, list[tuple]]:
    """Per active enemy ship, one predicted ``(position, velocity)`` after this round's movement per particle,
    from the scripted model (identical particles are computed once; ships of one side with the same stats
    share the per-range terms)."""
    ships = view["ships"]
    players = len(view["players"])
    out: dict[str, list[tuple]] = {}
    shared: dict = {}  # (side, stats) -> the terms of _velocity_choice
    for sv in ships:
        if sv["owner"] == me or sv["status"] != "active" or sv["pos"] is None or sv["id"] not in parts:
            continue
        memo: dict = {}
        preds = []
        for lv in parts[sv["id"]]:
            key = tuple(lv)
            v = memo.get(key)
            if v is None:
                terms = shared.setdefault((sv["owner"], key), {})
                v = memo[key] = _velocity_choice(ships, sv["owner"], sv, lv, players, terms)
            preds.append(((sv["pos"][0] + v[0], sv["pos"][1] + v[1]), v))
        out[sv["id"]] = preds
    return out


def enemy_detonates(lv_enemy: list[int], size_enemy: int, victims: list[tuple[dict, int]],
                    friends: list[tuple[list[int], int]]) -> bool:
    """The scripted bot's self-destruct rule for an enemy ship (stats ``lv_enemy``) sharing a hex with
    ``victims`` (our ships: public facts and their design points) and its own ``friends`` (stats, size):
    detonate when the expected damage to the victims (each capped by its size's design points) exceeds 1.5 times
    its own remaining points plus the expected damage to its friends."""
    power = sum(lv_enemy)
    gain = 0.0
    for sv, _pts in victims:
        _t, _e, en, _ws = estimated_enemy_stats(sv)
        gain += min(expected_damage(power, en), 60 * sv["size"])
    loss = size_enemy * (lv_enemy[0] + lv_enemy[1] + lv_enemy[2]) + sum(lv_enemy[3:])
    for flv, fsize in friends:
        fpts = fsize * (flv[0] + flv[1] + flv[2]) + sum(flv[3:])
        loss += min(expected_damage(power, flv[2]), fpts)
    return gain > 1.5 * loss
