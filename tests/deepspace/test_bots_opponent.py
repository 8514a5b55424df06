"""The hard level's opponent model (scenario prior, movement and self-destruct model): exact against the scripted
bot it models, from the view only."""

from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.bots import ScriptedBot, lookahead, opponent
from deltav.games.deepspace.choices import velocity_actions

RAIDER = [4, 14, 10, 25, 31]


def _play_until(scenario, seed, stop, bots=None):
    s = DeepSpaceGame.new_initial_state({"scenario": scenario}, seed)
    bots = bots or [ScriptedBot() for _ in range(s.num_players)]
    while not s.is_terminal() and not stop(s):
        chosen = [(p, bots[p].act(Decision(DeepSpaceGame, p, s.view(p), s.legal_actions(p), Rng(p))))
                  for p in s.current_players()]
        for p, a in chosen:
            if not s.is_terminal():
                s.apply_action(p, a)
    return s


def test_the_prior_reads_the_public_fleet_of_the_scenario_and_only_the_enemys():
    s = DeepSpaceGame.new_initial_state({"scenario": "outpost"}, 1)
    prior = opponent.fleet_prior(s.view(0))
    assert prior == {"s1-0": [0, 5, 20, 35, 35, 35, 35, 35, 35], "s1-1": [5, 12, 8, 30, 40]}
    assert set(opponent.fleet_prior(s.view(1))) == {"s0-0", "s0-1", "s0-2"}
    d = DeepSpaceGame.new_initial_state({"scenario": "design-duel"}, 1)
    assert opponent.fleet_prior(d.view(0)) == {}  # designed during play: nothing public


def test_damaged_variants_place_exactly_the_hit_points_taken():
    for hp in (0, 1, 7, 55, 111, 200):
        variants = opponent.damaged_variants(2, RAIDER, hp, 8)
        assert len(variants) == 8
        default = list(RAIDER)
        partial = [0, 0, 0]
        for slot, step in dmg.default_plan(2, default, partial, hp):
            dmg.apply(2, default, partial, slot, step)
        assert variants[0] == default
        for lv in variants:
            assert all(0 <= x <= y for x, y in zip(lv, RAIDER))
            kept = lookahead.points(2, lv)
            left = max(0, lookahead.points(2, RAIDER) - hp)
            assert left <= kept <= left + 1  # a hit point short of a size-2 ship stat level is lost (ruling)
    keep_weapons = opponent.damaged_variants(2, RAIDER, 50, 4)[1]
    assert keep_weapons[3:] == [25, 31]


def test_the_movement_model_predicts_the_scripted_bot_exactly_when_the_fleet_is_public():
    s = _play_until("skirmish", 3, lambda st: st.phase == "plot")
    view = s.view(0)
    decision = Decision(DeepSpaceGame, 0, view, s.legal_actions(0), Rng(5))
    parts = opponent.particles(decision, 4)
    preds = opponent.predict_moves(view, 0, parts)
    truth = s.view(1)
    for ship in s.ships:
        if ship.owner == 1:
            legal = list(velocity_actions(ship.id, tuple(ship.vel), ship.lv[0]))
            a = ScriptedBot()._velocity(truth, 1, legal)
            pos = (ship.pos[0] + a.dq, ship.pos[1] + a.dr)
            assert preds[ship.id] == [(pos, (a.dq, a.dr))] * 4


def _ram_view():
    def ship(sid, owner, pos, lv=None):
        sv = {"id": sid, "owner": owner, "size": 2, "status": "active", "pos": list(pos), "vel": [0, 0],
              "hp_taken": 0, "seen": {"thrust": 0, "weapons": 0, "damage": []}}
        if lv:
            sv.update(thrust=lv[0], evasion=lv[1], endurance=lv[2], weapons=[lv[3:5]])
        return sv

    ships = [ship("me", 0, (0, 0), RAIDER), ship("a", 1, (6, 0)), ship("b", 1, (6, 0))]
    return {"players": [{}, {}], "options": {"two_fleet_victory": "annihilation", "self_destruct": True},
            "ships": ships}


def test_rams_a_stack_where_the_model_predicts_it_not_where_it_drifts():
    view = _ram_view()
    parts = {"a": [list(RAIDER)], "b": [list(RAIDER)]}
    # keeping their velocity the stack stays at (6, 0), out of reach (thrust 4); the model says (3, 0)
    pred = {"a": [((3, 0), (-3, 0))], "b": [((3, 0), (-3, 0))]}
    plan = lookahead.plan_round(view, 0, parts, pred)
    assert plan["me"][0] == (3, 0)
    side = lookahead.Side(view, 0, parts, pred)
    assert side.ram(side.mine[0], (3, 0)) > 0  # one raider's blast kills both (and they would not detonate)
    assert side.ram(side.mine[0], (6, 0)) == 0.0


def test_the_self_destruct_model_is_the_scripted_rule():
    victim = {"size": 2, "hp_taken": 0, "seen": {"thrust": 0, "weapons": 0, "damage": []}}
    assert not opponent.enemy_detonates(RAIDER, 2, [(victim, 112)], [(RAIDER, 2)])  # it would kill a friend
    assert opponent.enemy_detonates([0, 0, 0, 30, 30], 2, [(victim, 112)], [])  # a wreck with a big blast
