"""Victory conditions (design/tactical.md 1.13) and detection (1.11), on constructed states."""

from __future__ import annotations

from deltav.core.rng import Rng
from deltav.games.tactical import victory
from deltav.games.tactical.flow import check_victory
from deltav.games.tactical.messages import EndAstrogation, Order

from .helpers import GAME, end_turn, new_state, place


def test_mutual_destruction_goes_to_the_player_who_did_not_move():
    s = new_state("duel")
    s.active = 0
    for sid in ("p0s0", "p1s0"):
        s.ship(sid).destroyed = True
    r = victory.check(s)
    assert r.winners == (1,) and "Mutual destruction" in r.reason


def test_target_landing_needs_colonists_when_the_scenario_says_so():
    s = new_state("evacuation")
    # the corvette (no passengers) lands on a Terra base: not a win
    place(s, "p0s1", (7, -7), landed=True)
    assert victory.check(s) is None
    place(s, "p0s0", (3, -3), landed=True)  # the transport with 40 colonists
    r = victory.check(s)
    assert r.winners == (0,) and "colonists" in r.reason


def test_passenger_objective_failure():
    s = new_state("convoy")
    s.ship("p0s0").destroyed = True  # the liner and its 120 colonists
    r = victory.check(s)
    assert r.winners == (1,) and "Passenger objective failed" in r.reason


def test_escape_fugitive_destroyed_and_the_moral_victory():
    s = new_state("escape", seed=2)
    fug = next(sh for sh in s.ships if sh.fugitive)
    fug.destroyed = True
    assert victory.check(s).winners == (1,)
    s = new_state("escape", seed=2)
    fug = next(sh for sh in s.ships if sh.fugitive)
    s.ship("p1s1").disabled = 2  # an enforcer badly hurt: the moral flag is set at this check
    assert victory.check(s) is None and s.moral
    s.ship("p1s1").disabled = 0
    fug.destroyed = True
    r = victory.check(s)
    assert r.winners == (0,) and "moral" in r.reason


def test_captured_fugitive_brought_to_an_enforcer_base():
    s = new_state("escape", seed=2)
    fug = next(sh for sh in s.ships if sh.fugitive)
    fug.owner = 1
    fug.control = "captured"
    place(s, fug.id, (-5, 7), landed=True)  # a Venus base the enforcers control
    r = victory.check(s)
    assert r.winners == (1,) and "captured" in r.reason


def test_grand_tour_needs_every_checkpoint_then_home():
    s = new_state("grand_tour", seed=0)
    p = s.active
    sid = f"p{p}s0"
    home_base = s.gmap.bases_of[s.players[p].home][0]
    place(s, sid, home_base, landed=True)
    s.players[p].visited = tuple(s.rules.checkpoints[:-1])
    assert victory.check(s) is None
    s.players[p].visited = tuple(s.rules.checkpoints)
    assert victory.check(s).winners == (p,)


def test_home_is_not_a_checkpoint_before_the_first_visit():
    s = new_state("grand_tour", seed=0, grand_tour_luna=True)
    p = next(q for q in (0, 1) if s.players[q].home == "Luna")
    s.active = p
    sid = f"p{p}s0"
    place(s, sid, (10, -7), landed=True)
    s.apply_action(p, Order(sid, 1))  # take off NE from Luna's base (10,-7), a Luna gravity hex, to (11,-8)
    s.apply_action(p, EndAstrogation())
    assert "Luna" not in s.players[p].visited


def test_turn_limit_tiebreak_in_grand_tour():
    s = new_state("grand_tour", seed=0, turn_limit=1)
    s.players[0].visited = ("Sol", "Venus")
    s.players[1].visited = ("Sol",)
    r = victory.turn_limit_result(s)
    assert r.winners == (0,) and r.scores == (2.0, 1.0)


def test_detection_rules():
    s = new_state("biplanetary")
    assert not s.ship("p0s0").detected and not s.ship("p1s0").detected
    # within 5 of an enemy base: detected after a movement phase
    place(s, "p0s0", (-3, 3), (0, 0))
    end_turn(s, 0)
    assert s.ship("p0s0").detected
    # detected stays detected while flying away
    place(s, "p0s0", (10, -15), (0, 0))
    s.active = 0
    s.phase = "astrogation"
    s._opts = {}
    end_turn(s, 0)
    assert s.ship("p0s0").detected
    # landing at an own base hides it again
    place(s, "p0s0", (-8, -6), landed=True)
    s.active = 0
    s._opts = {}
    end_turn(s, 0)
    assert not s.ship("p0s0").detected


def test_fog_of_war_events_are_private_for_hidden_ships():
    s = new_state("biplanetary")
    place(s, "p0s0", (0, -5), (1, 0))
    events = end_turn(s, 0)
    moved = next(e for e in events if e.TYPE == "ship_moved")
    assert moved.to == (0,) and not moved.visible_to(1)


def test_random_games_keep_their_invariants():
    for seed in range(6):
        s = GAME.new_initial_state({"scenario": ("convoy", "fleet_action", "escape")[seed % 3]}, seed)
        r = Rng(seed)
        while not s.is_terminal():
            p = s.current_players()[0]
            s.apply_action(p, r.choice(s.legal_actions(p)))
            for sh in s.ships:
                assert sh.disabled < 6 or sh.destroyed
                assert sh.passengers >= 0 and sh.cargo_used >= 0
                if sh.type.cargo is not None:
                    assert sh.cargo_used + sh.passengers <= sh.type.cargo or sh.type.name == "liner"
                assert not (sh.landed and sh.destroyed)


def test_evaluation_is_bounded_antisymmetric_and_terminal_exact():
    from deltav.games.tactical.bots.heuristics import evaluate

    for sc in ("biplanetary", "duel", "escape", "convoy", "grand_tour"):
        s = new_state(sc)
        a, b = evaluate(s, 0), evaluate(s, 1)
        assert -1.0 <= a <= 1.0 and abs(a + b) < 1e-9
    s = new_state("duel")
    s.ship("p1s0").destroyed = True
    s.active = 0
    check_victory(s)
    assert evaluate(s, 0) == 1.0 and evaluate(s, 1) == -1.0


def test_rollout_policy_plays_legal_non_suicidal_games():
    from deltav.games.tactical.bots.heuristics import rollout_policy

    for seed in range(4):
        s = GAME.new_initial_state({"scenario": ("duel", "convoy", "fleet_action", "grand_tour")[seed]}, seed)
        r = Rng(seed)
        steps = 0
        while not s.is_terminal() and steps < 3000:
            p = s.current_players()[0]
            legal = s.legal_actions(p)
            a = rollout_policy(s, p, legal, r)
            assert a in legal and a.TYPE != "surrender"
            s.apply_action(p, a)
            steps += 1
        assert s.is_terminal()
