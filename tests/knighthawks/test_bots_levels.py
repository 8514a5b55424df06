"""The difficulty ladder (easy: Cadet, normal: ScriptedCaptain, hard: Admiral): legal whole games in every
scenario, determinism, decisions from the view alone, and the fire-exchange scoring's behaviour on hand-made positions."""

from __future__ import annotations

import pytest

from deltav.agents.registry import make_agent
from deltav.agents.spec import AgentSpecError
from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.bots import BOTS, PRESETS
from deltav.games.knighthawks.bots import fire_exchange as fx
from deltav.games.knighthawks.bots.admiral import Admiral, _momentum_penalty
from deltav.games.knighthawks.bots.cadet import Cadet
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain
from deltav.games.knighthawks.movement import start_plot
from tests.knighthawks.helpers import make_state, ship

SCENARIOS = ["skirmish", "escort", "station_assault", "fleet_battle"]


def decision(state, seed=1):
    p = state.current_players()[0]
    return Decision(KnightHawks, p, state.view(p), state.legal_actions(p), Rng(seed), state.options)


def idx(state, sid, code):
    return [i for i, w in enumerate(state.ship(sid).weapons) if w[0] == code][0]


def to_offensive_fire(state):
    """End the mover's movement and pass the defender's fire (nothing declared) to the offensive fire."""
    p = state.mover
    state.apply_action(p, m.EndMovement())
    while not (state.stage == "declare" and state.fire_mode == "off"):
        q = state.current_players()[0]
        legal = state.legal_actions(q)
        state.apply_action(q, m.Fire() if m.Fire() in legal else legal[0])


def test_presets_name_bots_of_the_game():
    assert set(PRESETS) == {"easy", "normal", "hard"}
    for entry in PRESETS.values():
        assert entry["agent"] in BOTS and entry["budget"]
        BOTS[entry["agent"]](**entry.get("params", {}))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_level_plays_whole_games_with_legal_actions(scenario):
    """play_match raises AgentError on any action outside the legal list."""
    opts = {"scenario": scenario, "turn_limit": 5}
    for seed, agents in ((3, [Admiral(fleet_limit=0), Cadet()]), (4, [ScriptedCaptain(), Admiral()])):
        rec, state, _ = play_match(KnightHawks, opts, seed, agents)
        assert state.is_terminal() and rec.result is not None


def test_hard_and_easy_are_deterministic_given_the_seed():
    opts = {"scenario": "skirmish", "turn_limit": 4}
    runs = []
    for _ in range(2):
        rec, _s, _ = play_match(KnightHawks, opts, 11, [Admiral(), Cadet(epsilon=0.2)])
        runs.append([st.action for st in rec.steps])
    assert runs[0] == runs[1]


def test_hard_decides_from_the_view_alone():
    """Moving an enemy's hidden mine (invisible to the bot) leaves the view and the decision unchanged."""
    s = KnightHawks.new_initial_state({"scenario": "escort"}, 5)
    p = s.current_players()[0]
    assert p == 1  # the raiders move first; the UPF side cannot see their mines
    t = s.clone()
    t.mines = [(mid, o, k, (h[0], h[1] + 1), mv, f, lay) for mid, o, k, h, mv, f, lay in t.mines]
    assert s.view(0) == t.view(0) and s.to_json() != t.to_json()
    s.apply_action(p, s.legal_actions(p)[-1] if m.EndMovement() not in s.legal_actions(p) else m.EndMovement())
    t.apply_action(p, t.legal_actions(p)[-1] if m.EndMovement() not in t.legal_actions(p) else m.EndMovement())
    while s.current_players() != [0]:
        q = s.current_players()[0]
        a = ScriptedCaptain().act(decision(s))
        s.apply_action(q, a)
        t.apply_action(q, a)
    for bot in (Admiral, Cadet, ScriptedCaptain):
        assert bot().act(decision(s, 7)) == bot().act(decision(t, 7))


def test_hard_fires_at_the_target_with_the_best_odds():
    s = make_state([ship("a", 0, "frigate", (0, 0), facing=0),
                    ship("near", 1, "destroyer", (2, 0), facing=3),
                    ship("far", 1, "destroyer", (8, 0), facing=3)], first=0)
    to_offensive_fire(s)
    lb = idx(s, "a", "LB")
    legal = s.legal_actions(0)
    assert m.Assign("a", lb, "near") in legal and m.Assign("a", lb, "far") in legal
    bot = Admiral()
    world = s.clone()
    only_lb = [a for a in legal if not isinstance(a, m.Assign) or a.weapon == lb]
    assert bot._fire(world, 0, only_lb) == m.Assign("a", lb, "near")


def test_hard_finishes_the_crippled_ship():
    s = make_state([ship("a", 0, "frigate", (0, 0), facing=0),
                    ship("whole", 1, "destroyer", (3, 0), facing=3),
                    ship("wreck", 1, "destroyer", (3, -1), facing=3)], first=0)
    s.ship("wreck").dmg = 46
    to_offensive_fire(s)
    lb = idx(s, "a", "LB")
    legal = [a for a in s.legal_actions(0) if not isinstance(a, m.Assign) or a.weapon == lb]
    assert Admiral()._fire(s.clone(), 0, legal) == m.Assign("a", lb, "wreck")


def test_hard_keeps_torpedoes_for_decent_odds():
    s = make_state([ship("a", 0, "destroyer", (0, 0), facing=0),
                    ship("b", 1, "heavy_cruiser", (4, 0), facing=3)], first=0)
    to_offensive_fire(s)
    t = idx(s, "a", "T")
    legal = [a for a in s.legal_actions(0) if not isinstance(a, m.Assign) or a.weapon == t]
    # 4 d10 at -20 against a heavy cruiser with 8 ICMs in its hex: 50 - 3 x 10 = 20% at best: keep it
    assert fx.hit_chance(s, "T", s.ship("b"), 4, False, False)[0] < 0.35
    assert Admiral()._fire(s.clone(), 0, legal) == m.Fire()
    # the beginner fires it anyway
    assert Cadet()._fire(s.clone(), 0, legal) == m.Assign("a", t, "b")


@pytest.mark.parametrize("spec", ["admiral:rollouts=4", "admiral:candidates=4", "admiral:exact_icms=true",
                                  "admiral:reply=0.5", "admiral:objective_weight=1", "admiral:rerank=12"])
def test_the_retired_admiral_options_are_refused(spec):
    """Rollouts, the exact ICM rule and the best-reply threat were measured weaker and removed
    (docs/bots-knighthawks.md): asking for one is an error, not a silent no-op."""
    with pytest.raises(AgentSpecError, match="does not accept"):
        make_agent("knighthawks", spec)
    with pytest.raises(ValueError, match="captain or admiral"):
        Admiral(fleet_fire="weaker")


def test_offense_counts_the_forward_field_and_head_on_row():
    s = make_state([ship("a", 0, "destroyer", (0, 0), facing=0),
                    ship("b", 1, "destroyer", (5, 0), facing=3)], first=0)
    me = s.ship("a")
    facing_it = fx.offense(s, me, (0, 0), 0, 0)
    turned_away = fx.offense(s, me, (0, 0), 3, 0)
    assert facing_it > turned_away > 0  # the laser cannon (FF) bears only when facing the target


def test_exposure_of_a_path_through_the_enemy_guns():
    s = make_state([ship("a", 0, "frigate", (-10, 0), facing=0, speed=4),
                    ship("b", 1, "heavy_cruiser", (0, 0), facing=3)], first=0, radius=16)
    me = s.ship("a")
    close = fx.exposure(s, me, ((-4, 0), (-3, 0), (-2, 0)), 0)
    far = fx.exposure(s, me, ((-14, 0), (-13, 0)), 0)  # beyond every weapon's range
    assert close > far == 0.0


def test_momentum_penalty_keeps_fast_ships_from_flying_off_the_map():
    s = make_state([ship("a", 0, "heavy_cruiser", (9, 0), facing=0, speed=6),
                    ship("b", 1, "destroyer", (-5, 0), facing=0)], first=0, radius=12)
    me = s.ship("a")
    outward = start_plot((10, 0), 0)
    inward = start_plot((10, 0), 3)
    assert _momentum_penalty(s, me, outward, 6) > 0
    assert _momentum_penalty(s, me, inward, 6) == 0


def test_hard_plot_does_not_fly_into_the_planet_or_off_the_map():
    s = make_state([ship("a", 0, "destroyer", (-3, 0), facing=0, speed=3),
                    ship("b", 1, "destroyer", (8, -4), facing=3)], planets=[("P", (0, 0))], first=0)
    bot = Admiral()
    for _ in range(20):
        if s.stage != "move" or s.mover != 0:
            break
        d = decision(s)
        a = bot.act(d)
        assert a in d.legal_actions
        s.apply_action(0, a)
        if isinstance(a, m.EndMovement) or s.mover != 0:
            break
    assert s.ship("a").status == 0


def test_hard_fleet_plan_is_the_captains_plus_its_checks():
    """More than ``fleet_limit`` ships a side (the fleet battle): the admiral plays the captain's plan with the
    doom check and the break-up weight (and, with ``fleet_fire="admiral"``, the exact fire); with
    all of them switched off it is the captain from both seats, with them on it plays differently."""
    plain = {"focus_when": "never", "doom": 0.0, "fleet_breakup": 0.5, "fleet_fire": "captain"}
    opts = {"scenario": "fleet_battle", "turn_limit": 2}
    r3 = play_match(KnightHawks, opts, 5, [Admiral(**plain), ScriptedCaptain()])[0]
    r4 = play_match(KnightHawks, opts, 5, [ScriptedCaptain(), ScriptedCaptain()])[0]
    r5 = play_match(KnightHawks, opts, 5, [ScriptedCaptain(), Admiral(**plain)])[0]
    assert [st.action for st in r3.steps] == [st.action for st in r4.steps] == [st.action for st in r5.steps]
    longer = {"scenario": "fleet_battle", "turn_limit": 4}  # the checks first bite in turn 3 on this seed
    r6 = play_match(KnightHawks, longer, 5, [ScriptedCaptain(), Admiral()])[0]
    r7 = play_match(KnightHawks, longer, 5, [ScriptedCaptain(), ScriptedCaptain()])[0]
    assert [st.action for st in r6.steps] != [st.action for st in r7.steps]
