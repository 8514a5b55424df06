"""The scripted bot: legal in every phase of every scenario, and better than random play."""

import pytest

from deltav.core.agent import RandomAgent
from deltav.core.match import play_match
from deltav.games.deepspace import DeepSpaceGame, flow
from deltav.games.deepspace.bots import BOTS, ScriptedBot
from deltav.games.deepspace.scenarios import builtin_ids


@pytest.mark.parametrize("scenario", builtin_ids())
def test_scripted_bots_finish_every_scenario(scenario):
    n = DeepSpaceGame.num_players(DeepSpaceGame.resolve_options({"scenario": scenario}))
    for seed in range(2):
        _, state, stats = play_match(DeepSpaceGame, {"scenario": scenario}, seed, [ScriptedBot() for _ in range(n)])
        assert state.is_terminal() and state.result() is not None
        assert all(d > 0 for d in stats.decisions)


def test_scripted_beats_random_in_the_duel():
    wins = 0
    games = 12
    for seed in range(games):
        k = seed % 2
        agents = [ScriptedBot(), RandomAgent()] if k == 0 else [RandomAgent(), ScriptedBot()]
        _, state, _ = play_match(DeepSpaceGame, {"scenario": "duel"}, seed, agents)
        wins += state.result().winners == (k,)
    assert wins >= 9, wins


def test_registry_of_bots():
    from deltav.games.deepspace.bots import CadetBot, PlannerBot

    assert {"scripted": ScriptedBot, "cadet": CadetBot, "planner": PlannerBot} == BOTS


def _decision(state, p):
    from deltav.core.protocol import Decision
    from deltav.core.rng import Rng

    return Decision(DeepSpaceGame, p, state.view(p), state.legal_actions(p), Rng(1))


def _to_destruct(tmp_path, mine, theirs):
    from deltav.games.deepspace.messages import Done, Fire, SetVelocity
    from tests.deepspace.helpers import deploy_all, new_state

    s = new_state(tmp_path, [([mine], (0, 0, 0)), ([theirs], (0, 0, 0))])
    deploy_all(s)
    for p in (0, 1):
        s.apply_action(p, SetVelocity(f"s{p}-0", 0, 0))
        s.apply_action(p, Fire(f"s{p}-0", 0, None))
        s.apply_action(p, Done())
    assert s.phase == "destruct"
    return s


def test_a_kamikaze_drone_detonates_against_a_big_ship(tmp_path):
    from deltav.games.deepspace.messages import SelfDestruct

    s = _to_destruct(tmp_path, ("Drone", 1, 0, 0, 0, [(30, 30)]), ("Dreadnought", 6, 1, 8, 8, [(60, 60)]))
    assert ScriptedBot().act(_decision(s, 0)) == SelfDestruct("s0-0", True)
    assert ScriptedBot().act(_decision(s, 1)) == SelfDestruct("s1-0", False)


def test_the_bot_strips_useless_weapon_stats_first(tmp_path):
    from tests.deepspace.helpers import deploy_all, new_state

    s = new_state(tmp_path, [([("A", 2, 3, 3, 3, [(0, 9), (5, 5)])], (0, 0, 0)),
                             ([("B", 2, 3, 3, 3, [(5, 5)])], (30, 0, 0))])
    deploy_all(s)
    for p in (0, 1):
        while s.phase == "plot" and s.waiting[p]:
            s.apply_action(p, s.legal_actions(p)[0])
    s.ships[0].pending = 5
    flow.start_allocation(s, "fire")
    a = ScriptedBot().act(_decision(s, 0))
    assert (a.stat, a.weapon, a.hp) == ("damage", 0, 5)


def test_scripted_bots_design_their_own_ships_when_no_fleet_fits(tmp_path):
    from tests.deepspace.helpers import write_scenario

    path = write_scenario(tmp_path, [("design", 3, (-6, 0, 1)), ("design", 3, (6, 0, 1))], round_limit=10)
    record, state, _ = play_match(DeepSpaceGame, {"scenario": path}, 4, [ScriptedBot(), ScriptedBot()])
    assert state.is_terminal()
    designed = [s for s in record.steps if s.action["type"] == "new_ship"]
    assert designed and not [s for s in record.steps if s.action["type"] == "use_fleet"]
    for ship in state.ships:
        assert ship.size <= 3


def test_scripted_bot_handles_two_step_velocities(tmp_path):
    from tests.deepspace.helpers import write_scenario

    sides = [([("Racer", 1, 12, 10, 10, [(14, 14)])], (-6, 0, 1)), ([("Brick", 2, 2, 10, 10, [(30, 40)])], (6, 0, 1))]
    path = write_scenario(tmp_path, sides, round_limit=8)
    record, state, _ = play_match(DeepSpaceGame, {"scenario": path}, 2, [ScriptedBot(), ScriptedBot()])
    assert state.is_terminal()
    assert any(s.action["type"] == "velocity_column" for s in record.steps)
