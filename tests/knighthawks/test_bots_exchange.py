"""The hard bot's speed-ups change no decision: ``exchange.MoveScores`` gives exactly the floats of
``fire_exchange.offense``/``exposure``/``threat``/``potential`` for every candidate plan of every ship along whole
games, the cached turn-pattern plans equal fresh ones, and a step decision takes the rng draws of the world it
no longer builds. (Whole-game decision identity is checked by
benchmarks/check_bots.py.)"""

from __future__ import annotations

import pytest

from deltav.agents.registry import make_agent
from deltav.core.match import play_match
from deltav.core.records import start_state
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks.bots import admiral as ad
from deltav.games.knighthawks.bots import fire_exchange as fx
from deltav.games.knighthawks.bots import heuristics as hx
from deltav.games.knighthawks.bots.move_scores import MoveScores


def _at_plot(state) -> bool:
    return state.stage == "move" and state.plotting is None


def _positions(scenario: str, seed: int, limit: int = 60, want=_at_plot):
    """States of a hard-against-normal game where ``want`` holds (movement decisions by default), replayed
    from its record."""
    record, _st, _stats = play_match(KnightHawks, {"scenario": scenario}, seed,
                                     [make_agent("knighthawks", "hard"), make_agent("knighthawks", "normal")])
    state = start_state(record)
    out = []
    for step in record.steps:
        if len(out) < limit and not state.is_terminal() and want(state):
            out.append(KnightHawks.state_from_json(state.to_json()))
        state.apply_action(step.player, KnightHawks.action_from_json(step.action))
    return out


def _plans(state, sh):
    navdir = sh.navdir if sh.nav else 0
    evading = sh.evading and sh.mr > 0
    for speed in range(max(1, sh.speed - sh.adf), sh.speed + sh.adf + 1):
        for facing in range(6):
            yield speed, facing, navdir, evading, ad._more_plans(state, sh, speed, facing, navdir, evading)


@pytest.mark.parametrize("scenario,seed", [("skirmish", 3), ("station_assault", 4), ("escort", 5),
                                           ("fleet_battle", 6)])
def test_move_scores_equal_the_fire_exchange_functions(scenario, seed):
    compared = 0
    for state in _positions(scenario, seed, limit=6):
        p = state.mover
        for sh in state.ships:
            if sh.owner != p or sh.status != 0:
                continue
            share = {e.id: 1 + (i % 2) for i, e in enumerate(state.ships) if e.owner != p}
            ms = MoveScores(state, sh, p, share)
            plain = MoveScores(state, sh, p)
            for _speed, _facing, _nav, _ev, cands in _plans(state, sh):
                for _turns, st in cands:
                    assert ms.offense(st.pos, st.facing) == fx.offense(state, sh, st.pos, st.facing, p)
                    assert ms.exposure(st.path) == fx.exposure(state, sh, st.path, p, share)
                    assert plain.exposure(st.path) == fx.exposure(state, sh, st.path, p)
                    assert ms.threat(st.pos) == fx.threat(state, sh, st.pos, p)
                    assert ms.potential(st.pos) == fx.potential(state, sh, st.pos, p)
                    compared += 1
    assert compared > 100


def test_cached_plans_equal_fresh_ones():
    for state in _positions("skirmish", 7, limit=4) + _positions("fleet_battle", 8, limit=2):
        for sh in state.ships:
            if sh.status != 0:
                continue
            for speed, facing, navdir, evading, got in _plans(state, sh):
                fresh = hx._plans(state.map, sh.pos, sh.mr, speed, facing, navdir, evading)
                if not (sh.mr <= 0 or navdir or evading or speed <= 1):
                    fresh = ad._single_turns(state, sh, speed, facing)
                assert got == fresh
                assert hx.plans(state, sh, speed, facing, navdir, evading) == hx._plans(
                    state.map, sh.pos, sh.mr, speed, facing, navdir, evading)


def test_a_step_takes_the_draws_of_a_world_without_building_it():
    from deltav.core.protocol import Decision
    from deltav.core.rng import Rng
    from deltav.games.knighthawks import messages as m

    def stepping(state):
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        return len(legal) > 1 and any(isinstance(a, m.Step) for a in legal)  # (one choice: no world drawn)

    seen = 0
    for state in _positions("skirmish", 9, limit=20, want=stepping) + _positions("escort", 9, limit=20,
                                                                                   want=stepping):
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        a, b = Rng(11), Rng(11)
        view = state.view(p)
        ad.Admiral().act(Decision(KnightHawks, p, view, legal, a, state.options))
        Decision(KnightHawks, p, view, legal, b, state.options).sample_world()
        assert a.to_json() == b.to_json()
        seen += 1
    assert seen


def _position_value_reference(state, me, pos, facing, speed, player, closing):
    """heuristics.position_value as it was before PositionValue (one pass per call)."""
    from deltav.core import hexgrid
    from deltav.games.knighthawks.combat import in_forward_field, weapon_range
    from deltav.games.knighthawks.tables import tables

    score = 0.0
    enemies = [e for e in state.ships if e.owner != player and e.status == 0]
    if not enemies:
        return 0.0
    for code, n, _mx, stt in me.weapons:
        if stt != 0 or n == 0:  # ships.OK
            continue
        w = tables().weapons[code]
        if not w.fired:
            continue
        reach = weapon_range(code, state.rules)
        best = 0.0
        for e in enemies:
            d = hexgrid.distance(pos, e.pos)
            if d > reach + 1:
                continue
            if w.ff and d > 0 and in_forward_field(pos, facing, e.pos, reach + 1) is None:
                continue
            c = tables().combat[code]["RH"] - (5 * d if w.rd else 0) + (10 if w.ff else 0)
            best = max(best, max(c, 5) / 100 * hx.hit_value(code) * (0.5 + e.points / 100))
        score += best
    nearest = min(hexgrid.distance(pos, e.pos) for e in enemies)
    score -= closing * nearest
    edge = state.map.radius - hexgrid.length(pos)
    if edge < 3:
        score -= (3 - edge) * 2.0 + speed * 0.3
    if me.severe():
        score -= 0.5 * hx.enemy_threat(state, me, pos, player)
    return score


def test_position_value_equals_the_one_pass_rule():
    compared = 0
    for state in _positions("fleet_battle", 10, limit=3) + _positions("skirmish", 11, limit=4):
        p = state.mover
        for sh in state.ships:
            if sh.owner != p or sh.status != 0:
                continue
            value = hx.PositionValue(state, sh, p, 0.5)
            for speed, _facing, _nav, _ev, cands in _plans(state, sh):
                for _turns, st in cands:
                    want = _position_value_reference(state, sh, st.pos, st.facing, speed, p, 0.5)
                    assert value(st.pos, st.facing, speed) == want
                    compared += 1
    assert compared > 100
