"""The difficulty ladder (easy = cadet, normal = scripted, hard = planner): legal whole games in every
scenario, replayable, deciding from the view only, and the planner's pieces on constructed positions."""

from itertools import product

import pytest

from deltav.core.errors import ScenarioError
from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame, flow
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.bots import BOTS, PRESETS, CadetBot, PlannerBot, ScriptedBot, lookahead
from deltav.games.deepspace.messages import Allocate, AutoAllocate, Done, Fire, SelfDestruct, SetVelocity
from deltav.games.deepspace.odds import TWO_D6, p_hit
from deltav.games.deepspace.scenarios import builtin_ids
from tests.deepspace.helpers import deploy_all, new_state

LEVELS = {"easy": CadetBot, "normal": ScriptedBot, "hard": PlannerBot}


def _agents(n, seed):
    order = [PlannerBot, ScriptedBot, CadetBot]
    return [order[(i + seed) % 3]() for i in range(n)]


@pytest.mark.parametrize("scenario", builtin_ids())
def test_every_level_plays_whole_games_legally(scenario):
    # play_match raises AgentError on any action outside the legal list
    n = DeepSpaceGame.num_players(DeepSpaceGame.resolve_options({"scenario": scenario}))
    for seed in range(2 if n == 2 else 1):
        _, state, stats = play_match(DeepSpaceGame, {"scenario": scenario}, seed, _agents(n, seed))
        assert state.is_terminal() and state.result() is not None
        assert all(d > 0 for d in stats.decisions)


def test_presets_name_the_bots_of_the_ladder():
    assert set(PRESETS) == {"easy", "normal", "hard"}
    for level, cls in LEVELS.items():
        entry = PRESETS[level]
        assert BOTS[entry["agent"]] is cls
        assert entry["budget"]
        cls(**entry["params"])


def test_the_planner_replays_exactly():
    def run():
        rec, state, _ = play_match(DeepSpaceGame, {"scenario": "duel"}, 3, [PlannerBot(), ScriptedBot()])
        return [(s.player, s.action) for s in rec.steps], state.result()

    assert run() == run()


def _to_plot(scenario, seed=1):
    s = DeepSpaceGame.new_initial_state({"scenario": scenario}, seed)
    bots = [ScriptedBot() for _ in range(s.num_players)]
    while s.phase != "plot":
        for p in s.current_players():
            s.apply_action(p, bots[p].act(Decision(DeepSpaceGame, p, s.view(p), s.legal_actions(p), Rng(p))))
    return s


def _decide(bot, state, p, seed=9):
    return bot.act(Decision(DeepSpaceGame, p, state.view(p), state.legal_actions(p), Rng(seed)))


@pytest.mark.parametrize("scenario", ["duel", "outpost"])
def test_hidden_enemy_stats_do_not_change_the_decisions(scenario):
    a = _to_plot(scenario)
    b = a.clone()
    for ship in b.ships:  # the true enemy designs differ; player 0's view does not
        if ship.owner == 1:
            ship.lv = [max(0, x - 3) for x in ship.lv]
    assert a.view(0) == b.view(0)
    bot_a, bot_b = PlannerBot(), PlannerBot()
    for _ in range(4):
        act_a, act_b = _decide(bot_a, a, 0), _decide(bot_b, b, 0)
        assert act_a == act_b
        a.apply_action(0, act_a)
        b.apply_action(0, act_b)


# --- exact odds ---------------------------------------------------------------------------------------------


def _brute_kill(shots, ev, en, need):
    """P(total hit points >= need) by enumerating every attack and damage roll (tiny cases only)."""
    outcomes = [(1.0, 0)]
    for t, d, r in shots:
        nxt = []
        for prob, total in outcomes:
            ph = p_hit(t, ev, r)
            nxt.append((prob * (1 - ph), total))
            for (a, wa), (e, we) in product(TWO_D6, TWO_D6):
                nxt.append((prob * ph * wa * we / 1296, total + max(0, a * d - e * en)))
        outcomes = nxt
    return sum(p for p, total in outcomes if total >= need)


@pytest.mark.parametrize("shots,ev,en,need", [
    (((30, 40, 18),), 12, 8, 120),
    (((25, 31, 12),), 14, 10, 120),
    (((30, 40, 18), (50, 50, 18)), 10, 10, 240),
    (((5, 9, 0), (6, 4, 3)), 4, 3, 30),
])
def test_kill_probability_is_exact_for_one_and_two_shots(shots, ev, en, need):
    assert lookahead.kill_prob(tuple(sorted(shots)), ev, en, need) == pytest.approx(_brute_kill(shots, ev, en, need))


def test_kill_probability_of_many_shots_is_close():
    shots = ((30, 40, 18), (30, 40, 18), (30, 44, 18))
    # three frigate shots against a dreadnought (480 points): exact 0.734 (Monte Carlo, 20,000 volleys)
    assert lookahead.kill_prob(shots, 8, 12, 480) == pytest.approx(0.734, abs=0.02)


# --- allocation ---------------------------------------------------------------------------------------------


def _allocate_all(size, lv, hp, valuer):
    lv = list(lv)
    partial = [0, 0, 0]
    left = hp
    while left > 0:
        step = lookahead.allocation_step(size, lv, partial, left, "lost", valuer)
        if step is None:
            break
        assert dmg.is_legal(size, lv, partial, left, step[0], step[1])
        dmg.apply(size, lv, partial, step[0], step[1])
        left -= step[1]
    return lv


def test_light_damage_spares_the_weapon():
    valuer = lookahead.Valuer([((14, 10), 1)], [((25, 31), 1)], 12)
    lv = _allocate_all(2, [4, 14, 10, 25, 31], 30, valuer)
    assert lv[3:] == [25, 31]
    default = [4, 14, 10, 25, 31]
    for slot, hp in dmg.default_plan(2, default, [0, 0, 0], 30):
        dmg.apply(2, default, [0, 0, 0], slot, hp)
    assert valuer.value(2, lv) > valuer.value(2, default)


def test_a_ship_keeps_one_whole_weapon_rather_than_two_halves():
    valuer = lookahead.Valuer([((10, 10), 1)], [((30, 40), 1)], 10)
    lv = _allocate_all(1, [0, 0, 0, 30, 30, 30, 30], 60, valuer)
    assert sorted([(lv[3], lv[4]), (lv[5], lv[6])]) == [(0, 0), (30, 30)]


def test_the_planner_allocates_with_legal_steps_in_a_game(tmp_path):
    s = new_state(tmp_path, [([("A", 2, 4, 14, 10, [(25, 31)])], (0, 0, 0)),
                             ([("B", 2, 4, 14, 10, [(25, 31)])], (30, 0, 0))])
    deploy_all(s)
    for p in (0, 1):
        while s.phase == "plot" and s.waiting[p]:
            s.apply_action(p, s.legal_actions(p)[0])
    s.ships[0].pending = 30
    s.ships[0].incoming = 30
    flow.start_allocation(s, "fire")
    bot = PlannerBot()
    while s.phase == "allocate" and 0 in s.current_players():
        a = _decide(bot, s, 0)
        assert isinstance(a, Allocate) and a in s.legal_actions(0)
        s.apply_action(0, a)
    default = [4, 14, 10, 25, 31]
    for slot, hp in dmg.default_plan(2, default, [0, 0, 0], 30):
        dmg.apply(2, default, [0, 0, 0], slot, hp)
    assert sum(s.ships[0].lv[3:]) > sum(default[3:])  # the weapon keeps more than the default leaves it


# --- targeting and movement on constructed positions -----------------------------------------------------------


def _view(mine, enemies, options=None, players=2):
    """A minimal plotting view for lookahead.Side: ``mine`` = (id, size, pos, vel, lv); ``enemies`` = (id, size,
    pos, vel)."""
    ships = []
    for sid, size, pos, vel, lv in mine:
        ships.append({"id": sid, "owner": 0, "size": size, "status": "active", "pos": list(pos), "vel": list(vel),
                      "thrust": lv[0], "evasion": lv[1], "endurance": lv[2],
                      "weapons": [[lv[k], lv[k + 1]] for k in range(3, len(lv), 2)]})
    for sid, size, pos, vel in enemies:
        ships.append({"id": sid, "owner": 1, "size": size, "status": "active", "pos": list(pos), "vel": list(vel)})
    opts = {"two_fleet_victory": "annihilation", "self_destruct": True, **(options or {})}
    return {"players": [{}] * players, "options": opts, "ships": ships}


def test_fires_at_the_target_with_the_best_odds():
    view = _view([("m", 2, (0, 0), (0, 0), [4, 10, 10, 20, 40])], [("hard", 2, (5, 0), (0, 0)),
                                                                    ("easy", 2, (5, 0), (0, 0))])
    same = [4, 5, 5, 30, 30]
    parts = {"hard": [[4, 30, 5, 30, 30]], "easy": [same]}  # identical but for evasion 30 against 5
    plan = lookahead.plan_round(view, 0, parts)
    assert plan["m"][1] == {0: "easy"}


def test_focus_fire_finishes_the_ship_it_can_kill():
    # two 20/40 weapons; a wrecked enemy (few points left) and an intact one: one shot on each is worth more
    # than both at the intact ship when the wreck dies to one hit
    view = _view([("m", 4, (0, 0), (0, 0), [4, 10, 10, 20, 40, 20, 40])],
                 [("wreck", 2, (4, 0), (0, 0)), ("fresh", 2, (4, 0), (0, 0))])
    parts = {"wreck": [[0, 0, 0, 10, 10]], "fresh": [[4, 8, 8, 30, 30]]}
    plan = lookahead.plan_round(view, 0, parts)
    assert sorted(plan["m"][1].values()) == ["fresh", "wreck"]


def test_rams_a_station_it_can_reach_when_the_explosion_pays():
    # a size-1 kamikaze (thrust 4, weapon 5/55: explosion damage level 64) next to a fixed station holding
    # far more: ending in the station's hex and detonating is worth more than the drone
    view = _view([("drone", 1, (0, 0), (0, 0), [4, 0, 0, 1, 55])], [("station", 6, (3, 0), (0, 0))])
    parts = {"station": [[0, 5, 10, 35, 35, 35, 35, 35, 35]]}
    plan = lookahead.plan_round(view, 0, parts)
    assert plan["drone"][0] == (3, 0)


def test_does_not_end_in_the_hex_of_a_ship_whose_explosion_would_wreck_it():
    view = _view([("frigate", 4, (0, 0), (0, 0), [4, 10, 10, 30, 40, 30, 44])], [("bomb", 1, (2, 0), (0, 0))])
    parts = {"bomb": [[0, 0, 0, 30, 30]]}
    plan = lookahead.plan_round(view, 0, parts)
    assert plan["frigate"][0] != (2, 0)


def test_detonates_against_a_big_ship_and_not_against_a_small_one(tmp_path):
    from tests.deepspace.test_bots import _to_destruct

    s = _to_destruct(tmp_path, ("Drone", 1, 0, 0, 0, [(30, 30)]), ("Dreadnought", 6, 1, 8, 8, [(60, 60)]))
    assert _decide(PlannerBot(), s, 0) == SelfDestruct("s0-0", True)
    assert _decide(PlannerBot(), s, 1) == SelfDestruct("s1-0", False)


# --- design and the cadet --------------------------------------------------------------------------------------


def test_the_planner_designs_the_armoured_swarm():
    record, state, _ = play_match(DeepSpaceGame, {"scenario": "design-duel"}, 2, [PlannerBot(), ScriptedBot()])
    mine = [s for s in state.ships if s.owner == 0]
    assert len(mine) == 4 and all(s.size == 1 and s.name.startswith("Design") for s in mine)
    assert state.designs[0][0].endurance == 12 and state.designs[0][0].weapons == ((18, 30),)


def test_under_a_stat_cap_the_planner_designs_like_the_scripted_bot():
    opts = {"scenario": "design-duel", "stat_cap": 15}
    _, state, _ = play_match(DeepSpaceGame, opts, 5, [PlannerBot(), ScriptedBot()])
    _, ref, _ = play_match(DeepSpaceGame, opts, 5, [ScriptedBot(), ScriptedBot()])
    assert state.designs[0] == ref.designs[0]
    assert all(max(s.lv) <= 15 for s in state.ships)


def test_archetype_files_are_validated(tmp_path):
    ids = [a.id for a in lookahead.archetypes()]
    assert "armoured-swarm" in ids
    bad = tmp_path / "bad.toml"
    bad.write_text('[[archetypes]]\nid = "x"\ntitle = "X"\n[archetypes.ship]\nname = "S"\nsize = 1\nthrust = 70\n')
    with pytest.raises(ScenarioError) as exc:
        lookahead.archetypes(str(bad))
    assert "archetypes[0].ship" in str(exc.value)


def test_the_cadet_charges_fires_at_the_nearest_and_never_detonates(tmp_path):
    from tests.deepspace.test_bots import _to_destruct

    s = _to_plot("duel")
    bot = CadetBot()
    a = _decide(bot, s, 0)
    assert isinstance(a, SetVelocity)
    ship = s.ship(a.ship)
    near = min(distance_to(ship.pos, t.pos) for t in s.ships if t.owner == 1)
    assert distance_to((ship.pos[0] + a.dq, ship.pos[1] + a.dr), s.ships[3].pos) < near
    s.apply_action(0, a)
    f = _decide(bot, s, 0)
    assert isinstance(f, Fire) and f.target is not None
    d = _to_destruct(tmp_path, ("Drone", 1, 0, 0, 0, [(30, 30)]), ("Dreadnought", 6, 1, 8, 8, [(60, 60)]))
    assert _decide(CadetBot(), d, 0) == SelfDestruct("s0-0", False)


def distance_to(a, b):
    from deltav.core.hexgrid import distance

    return distance(a, b)


def test_the_cadet_lets_the_default_allocation_place_damage(tmp_path):
    s = new_state(tmp_path, [([("A", 2, 4, 14, 10, [(25, 31)])], (0, 0, 0)),
                             ([("B", 2, 4, 14, 10, [(25, 31)])], (30, 0, 0))])
    deploy_all(s)
    for p in (0, 1):
        while s.phase == "plot" and s.waiting[p]:
            s.apply_action(p, Done() if s.legal_actions(p) == [Done()] else s.legal_actions(p)[0])
    s.ships[0].pending = 30
    s.ships[0].incoming = 30
    flow.start_allocation(s, "fire")
    assert _decide(CadetBot(), s, 0) == AutoAllocate("s0-0")
