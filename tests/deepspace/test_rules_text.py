"""Rules that the text states plainly (Deep Space Combat, 1997), checked in play: each test quotes the text."""

from __future__ import annotations

from deltav.games.deepspace.messages import Blast, Destroyed, Detonated, SelfDestruct, SetVelocity
from tests.deepspace.helpers import declare_none, deploy_all, new_state
from tests.deepspace.test_state import plot_hold


def test_any_ship_may_self_destruct_in_the_destruction_phase(tmp_path):
    """"Ships have a final option during the destruction phase: that of self destruction." No enemy need share
    the hex: a crippled ship may scuttle itself (it then receives no more hit points, which counts under the
    campaign score)."""
    sides = [([("Lone", 2, 2, 0, 3, [(4, 1)]), ("Mate", 1, 1, 1, 1, [(1, 1)])], (0, 0, 0)),
             ([("Far", 2, 2, 5, 5, [(5, 5)])], (20, 0, 0))]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    plot_hold(s, 0)
    plot_hold(s, 1)
    assert s.phase == "destruct" and s.current_players() == [0, 1]
    assert s.legal_actions(0) == [SelfDestruct("s0-0", False), SelfDestruct("s0-0", True)]
    s.apply_action(0, SelfDestruct("s0-0", True))
    s.apply_action(0, SelfDestruct("s0-1", False))
    ev = s.apply_action(1, SelfDestruct("s1-0", False))
    assert Detonated("s0-0") in ev and Destroyed("s0-0", "self-destruct") in ev
    assert [e for e in ev if isinstance(e, Blast)] == [Blast("s0-0", "s0-1", e.hp) for e in ev if isinstance(e, Blast)]
    # the former ruling, as an option: only ships sharing a hex with an enemy declare
    s = new_state(tmp_path, sides, self_destruct_scope="with_enemy")
    deploy_all(s)
    plot_hold(s, 0)
    plot_hold(s, 1)
    assert s.phase == "plot" and s.round == 2


def test_simultaneous_explosions_hit_each_other(tmp_path):
    """An explosion does damage "to everything in the same hex as the explosion": another ship exploding in that
    hex is still there, so it takes the blast (it counts in the campaign score), as the docs say ("each other
    ship in the hex makes an Endurance roll")."""
    sides = [([("A", 2, 2, 0, 3, [(4, 1)])], (0, 0, 0)), ([("B", 2, 1, 1, 1, [(5, 5)])], (0, 0, 0)),
             ([("C", 3, 1, 1, 1, [(5, 5)])], (0, 0, 0))]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    for p in range(3):
        plot_hold(s, p, {f"s{p}-0": (0, 0)})
    assert s.phase == "destruct"
    s.apply_action(0, SelfDestruct("s0-0", True))
    s.apply_action(1, SelfDestruct("s1-0", True))
    ev = s.apply_action(2, SelfDestruct("s2-0", False))
    blasts = {(e.ship, e.victim) for e in ev if isinstance(e, Blast)}
    assert blasts == {("s0-0", "s1-0"), ("s0-0", "s2-0"), ("s1-0", "s0-0"), ("s1-0", "s2-0")}
    hp = {(e.ship, e.victim): e.hp for e in ev if isinstance(e, Blast)}
    assert s.received[0] == hp[("s1-0", "s0-0")] and s.ship("s0-0").hp_taken == hp[("s1-0", "s0-0")]
    assert s.inflicted[1] == hp[("s1-0", "s0-0")] + hp[("s1-0", "s2-0")]
    assert s.ship("s0-0").pending == 0 and s.ship("s1-0").pending == 0  # destroyed: nothing to allocate
    assert SetVelocity  # (imported for the helpers' plots)


def test_the_last_round_offers_self_destruct_only_where_an_enemy_shares_the_hex(tmp_path):
    """In the battle's last round (the round limit, or one side left) an explosion that reaches no enemy can
    change nothing but the owner's losses: no declarations then, except against an enemy in the hex."""
    sides = [([("Lone", 2, 2, 0, 3, [(4, 1)])], (0, 0, 0)), ([("Far", 2, 2, 5, 5, [(5, 5)])], (20, 0, 0))]
    s = new_state(tmp_path, sides, round_limit=1)
    deploy_all(s)
    plot_hold(s, 0)
    plot_hold(s, 1)
    assert s.is_terminal()


def test_a_draw_by_withdrawal_is_not_called_mutual_destruction(tmp_path):
    from deltav.games.deepspace.messages import Done, Withdraw

    sides = [([("A", 2, 2, 2, 2, [(5, 5)])], (0, 0, 0)), ([("B", 2, 2, 2, 2, [(5, 5)])], (40, 0, 0))]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    for p in (0, 1):
        s.apply_action(p, Withdraw(f"s{p}-0"))
        s.apply_action(p, Done())
    assert s.is_terminal() and s.result().winners == ()
    assert s.result().reason == "no fleet left on the field"


def test_a_ship_whose_thrust_is_shot_away_drifts_or_under_fixed_stops(tmp_path):
    """"Ships that have no thrust cannot move. They are fixed objects" (the design rule) against "The velocity
    possessed by a ship at the end of this phase becomes that ship's starting velocity" (the movement rule):
    ruling option ``thrustless``, default ``drift``."""
    import pytest

    from deltav.core.errors import IllegalAction
    from deltav.games.deepspace import DeepSpaceGame

    sides = [([("A", 2, 3, 2, 2, [(5, 5)])], (0, 0, 0)), ([("B", 2, 3, 2, 2, [(5, 5)])], (40, 0, 0))]
    for mode in ("drift", "fixed"):
        s = new_state(tmp_path, sides, thrustless=mode, initial_velocity="rest")
        deploy_all(s)
        plot_hold(s, 0, {"s0-0": (2, 0)})
        plot_hold(s, 1)
        declare_none(s)
        s.ships[0].lv[0] = 0  # as if the thrust had been shot away
        legal = [a for a in s.legal_actions(0) if isinstance(a, SetVelocity)]
        if mode == "drift":
            assert legal == [SetVelocity("s0-0", 2, 0)]
        else:
            assert legal == [SetVelocity("s0-0", 0, 0)]
            with pytest.raises(IllegalAction) as err:
                s.apply_action(0, SetVelocity("s0-0", 2, 0))
            assert err.value.rule == "deepspace.movement.fixed"
        pos = s.ship("s0-0").pos
        ev = plot_hold(s, 0, {"s0-0": legal[0].dq and (2, 0) or (0, 0)})
        ev += plot_hold(s, 1)
        moved = next(e for e in ev if getattr(e, "ship", None) == "s0-0" and e.TYPE == "moved")
        assert (moved.q - pos[0], moved.r - pos[1]) == ((2, 0) if mode == "drift" else (0, 0))
        assert moved.thrust == 0
        again = DeepSpaceGame.state_from_json(s.to_json())
        assert again.to_json() == s.to_json()
