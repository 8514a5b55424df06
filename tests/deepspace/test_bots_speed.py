"""The hard bot's speed-ups (issue 15) change no decision: the movement model with its cached terms predicts
exactly what the one-pass rule predicts, and ``Side.loss`` with its shared particle terms and the exhaustive
``Side.assign`` with its per-target memo give exactly the one-pass values, on the positions of whole games.
(Whole-game decision identity is checked by benchmarks/check_bots.py.)"""

from __future__ import annotations

import pytest

from deltav.agents.registry import make_agent
from deltav.core.hexgrid import distance
from deltav.core.match import play_match
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.bots import lookahead, opponent
from deltav.games.deepspace.bots.heuristics import estimated_enemy_stats
from deltav.games.deepspace.bots.lookahead import PARTIAL, SCORE_WEIGHT, damage_moments, kill_prob
from deltav.games.deepspace.choices import velocity_actions
from deltav.games.deepspace.odds import expected_shot, p_hit


def _velocity_choice_reference(ships, q, sv, lv):
    """``opponent._velocity_choice`` as it was before issue 15 (every foe's sums for every velocity)."""
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
    best, best_score = vel, None
    ev, end = lv[1], lv[2]
    for a in velocity_actions(sv["id"], vel, lv[0]):
        npos = (pos[0] + a.dq, pos[1] + a.dr)
        score = 0.0
        for fpos, e, en, ws in foes:
            r = distance(npos, fpos)
            give = max((expected_shot(t, d, e, en, r) for t, d in weapons), default=0.0)
            take = sum(expected_shot(t, d, ev, end, r) for t, d in ws)
            score += give - take
        score -= 0.01 * (abs(a.dq) + abs(a.dr))
        if best_score is None or score > best_score:
            best, best_score = (a.dq, a.dr), score
    return best


def _loss_reference(side, npos):
    """``Side.loss`` as it was before issue 15 (every particle computed)."""
    total = 0.0
    k = len(side.enemies[0].parts) if side.enemies else 1
    for i in range(k):
        aimed = {u.id: [] for u in side.mine}
        left = {u.id: float(u.points) for u in side.mine}
        for e in side.enemies:
            epos = side.epos[e.id]
            for t, d in e.weapons[i % len(e.weapons)]:
                if t + d <= 0:
                    continue
                best, best_v, best_shot, best_m = None, 0.0, None, 0.0
                for u in side.mine:
                    r = distance(epos, npos[u.id])
                    ev, en = u.defence[0]
                    m = p_hit(t, ev, r) * damage_moments(d, en)[0]
                    v = min(m, max(0.0, left[u.id]))
                    if best is None or v > best_v:
                        best, best_v, best_shot, best_m = u.id, v, (t, d, r), m
                if best is not None:
                    aimed[best].append(best_shot)
                    left[best] -= best_m
        for u in side.mine:
            shots = tuple(sorted(aimed[u.id]))
            ev, en = u.defence[0]
            need = int(u.points)
            pk = kill_prob(shots, ev, en, need)
            mean = sum(p_hit(t, ev, r) * damage_moments(d, en)[0] for t, d, r in shots)
            frac = min(1.0, mean / max(1, need))
            total += side.m_threat[u.id] * (pk + PARTIAL * (1.0 - pk) * frac)
            if side.scored:
                total += SCORE_WEIGHT * mean
    return total / k


def _assign_reference(side, npos):
    """``Side.assign(npos, exhaustive=True)`` as it was before issue 15 (``_assignment_value`` per combination)."""
    import itertools

    shots = side._shots(npos)
    ids = [e.id for e in side.enemies]
    if not shots:
        return {}, side._assignment_value(shots, [])
    if len(ids) ** len(shots) <= lookahead.ENUMERATE:
        best, best_v = None, None
        for combo in itertools.product(ids, repeat=len(shots)):
            v = side._assignment_value(shots, combo)
            if best_v is None or v > best_v + 1e-12:
                best, best_v = combo, v
        choice = list(best)
    else:
        choice, best_v = side._greedy(shots, ids)
    return {(sid, w): choice[k] for k, (sid, w, _o) in enumerate(shots)}, best_v


def _plans(scenario, seed, monkeypatch):
    """(view, me, particles) of every whole-side plan the hard bot made in a hard-against-normal game."""
    seen = []
    real = opponent.predict_moves

    def record(view, me, parts):
        seen.append((view, me, parts))
        return real(view, me, parts)

    monkeypatch.setattr(opponent, "predict_moves", record)
    n = DeepSpaceGame.num_players(DeepSpaceGame.resolve_options({"scenario": scenario}))
    levels = ["hard"] + ["normal"] * (n - 1)
    play_match(DeepSpaceGame, {"scenario": scenario}, seed, [make_agent("deepspace", x) for x in levels])
    monkeypatch.setattr(opponent, "predict_moves", real)
    return seen


@pytest.mark.parametrize("scenario,seed", [("design-duel", 1), ("skirmish", 2), ("outpost", 3), ("melee", 4)])
def test_movement_model_and_loss_equal_the_one_pass_rules(scenario, seed, monkeypatch):
    compared = 0
    for view, me, parts in _plans(scenario, seed, monkeypatch):
        pred = opponent.predict_moves(view, me, parts)
        for sv in view["ships"]:
            if sv["id"] not in pred:
                continue
            for lv, (_pos, v) in zip(parts[sv["id"]], pred[sv["id"]]):
                assert v == _velocity_choice_reference(view["ships"], sv["owner"], sv, lv)
                compared += 1
        side = lookahead.Side(view, me, parts, pred)
        if not side.mine or not side.enemies:
            continue
        for u in side.mine[:1]:
            for v in ((0, 0), u.vel, (u.vel[0] + 1, u.vel[1])):
                npos = {w.id: (w.pos[0] + w.vel[0], w.pos[1] + w.vel[1]) for w in side.mine}
                npos[u.id] = (u.pos[0] + v[0], u.pos[1] + v[1])
                assert side.loss(npos) == _loss_reference(side, npos)
                assert side.assign(npos, exhaustive=True) == _assign_reference(side, npos)
    assert compared > 0
