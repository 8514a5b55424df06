"""The colonist scenarios' bot skills (session 2, round 2; Lunar Evacuation and Convoy): the one-move landing
look-ahead, the planetary-defense odds, spreading colonists over several hulls (and the rescue from a disabled
carrier), escorts that do not land on the target without colonists, hard's landing on the second turn, and the
hold doctrine of an outgunned last ship."""

from __future__ import annotations

from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.tactical.bots.heuristics import (
    PD_COST,
    defense_shots,
    defense_survival,
    goal_hexes,
    landing_next,
    score_course,
)
from deltav.games.tactical.bots.level_bot import SPREAD, LevelBot
from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.messages import EndLogistics, Order, Transfer
from deltav.games.tactical.preview import preview_course

from .helpers import GAME, new_state, place

M = default_map()
TERRA = frozenset(M.bases_of["Terra"])


def decision(state, player: int, seed: int = 0) -> Decision:
    return Decision(GAME, player, state.view(player), state.legal_actions(player), Rng(seed))


def _to_logistics(state, orders):
    """Give player 0's orders (ship id -> Order), end astrogation and every phase before logistics."""
    from deltav.games.tactical.messages import EndAstrogation, EndCombat, EndOrdnance

    for o in orders:
        state.apply_action(0, o)
    state.apply_action(0, EndAstrogation())
    while state.phase in ("ordnance", "combat"):
        state.apply_action(0, EndOrdnance() if state.phase == "ordnance" else EndCombat())
    assert state.phase == "logistics" and state.active_player == 0


# --- the landing look-ahead and planetary defense --------------------------------------------------------------

def test_landing_next_needs_the_weak_gravity_ignored_on_the_first_move():
    # Lunar Evacuation's first move: burn 0 to (8,-7) at (-1,1). Ignoring Luna's weak hex leaves nothing pending,
    # and a burn then lands on Terra's base; with Luna's gravity pending it cannot.
    assert landing_next(M, (8, -7), (-1, 1), (), 9, TERRA)
    assert not landing_next(M, (8, -7), (-1, 1), (0,), 9, TERRA)
    # out of fuel nothing but a coast is possible, and the coast does not land
    assert not landing_next(M, (8, -7), (-1, 1), (), 0, TERRA)


def test_planetary_defense_shots_and_their_real_odds():
    st = new_state("evacuation")
    # (7,-6) in Terra's gravity lies beside the bases (7,-7) and (7,-5): two 2:1 shots, each missing on 1-2
    assert defense_shots(st, 0, (7, -6)) == 2
    assert abs(defense_survival(st, 0, (7, -6)) - 1 / 9) < 1e-12
    # Luna's bases are player 0's: no enemy defense there; Terra's bases do not shoot their own side
    assert defense_shots(st, 0, (8, -7)) == 0
    assert defense_shots(st, 1, (7, -6)) == 0
    assert defense_survival(st, 0, (8, -7)) == 1.0


def test_course_score_charges_the_defense_by_its_odds():
    st = new_state("evacuation")
    sh = place(st, "p0s2", (8, -6), (0, 0), (), 20)
    goals, why = goal_hexes(st, sh)
    into = preview_course(st, "p0s2", Order("p0s2", 3))  # west, into Terra's defense zone
    shots = defense_shots(st, 0, into.destination)
    assert shots >= 1 and not into.lands and not into.crashes
    with_defense = score_course(st, sh, into, goals, why)
    st.players[1].bases = ()  # the same course with no enemy base left to shoot
    without = score_course(st, sh, into, goals, why)
    assert abs((without - with_defense) - PD_COST * (1.0 - (1 / 3) ** shots)) < 1e-9


# --- spreading the colonists ------------------------------------------------------------------------------------

def _evacuation_logistics():
    st = new_state("evacuation", seed=3)
    _to_logistics(st, [Order("p0s0", 0, None, False, ("8,-7",)), Order("p0s1", 0, None, False, ("8,-7",)),
                       Order("p0s2", None)])
    return st


def test_normal_and_hard_share_colonists_with_the_escort_easy_does_not():
    st = _evacuation_logistics()
    for level in ("normal", "hard"):
        a = LevelBot(level, strict=True).act(decision(st, 0))
        assert a == Transfer("p0s0", "p0s1", "passengers", SPREAD), level
    assert isinstance(LevelBot("easy", strict=True).act(decision(st, 0)), EndLogistics)
    # once the escort carries colonists nothing more moves (no shuttling back and forth)
    st.apply_action(0, Transfer("p0s0", "p0s1", "passengers", SPREAD))
    assert isinstance(LevelBot("normal", strict=True).act(decision(st, 0)), EndLogistics)


def test_a_disabled_carrier_hands_its_colonists_to_an_undamaged_ship():
    st = _evacuation_logistics()
    st.apply_action(0, Transfer("p0s0", "p0s1", "passengers", 2))
    st.ship("p0s1").disabled = 2  # now the escort carries 2 and is disabled; the transport is sound
    st._opts = {}
    a = LevelBot("normal", strict=True).act(decision(st, 0))
    # the rescue comes first: the disabled ship's colonists go to the undamaged transport
    assert a == Transfer("p0s1", "p0s0", "passengers", 2)


# --- escorts, landings, hold ------------------------------------------------------------------------------------

def test_an_escort_without_colonists_does_not_land_on_the_target():
    st = new_state("evacuation")
    # the corvette alone in the pre-landing state of the first move; its landing on Terra would win nothing
    place(st, "p0s1", (8, -7), (-1, 1), (), 19)
    place(st, "p0s0", (10, -8), (0, 0), (), 10, landed=True)
    st.ship("p0s0").passengers = 40
    st._opts = {}
    d = decision(st, 0)
    lands = [o for o in d.legal_actions if isinstance(o, Order) and o.ship == "p0s1"
             and preview_course(st, "p0s1", o).lands and preview_course(st, "p0s1", o).body == "Terra"]
    assert lands, "the set-up must offer a landing on Terra"
    # the transport is ordered first; answer it, then ask for the corvette's order
    st.apply_action(0, Order("p0s0", None))
    for level in ("normal", "hard"):
        o = LevelBot(level, strict=True).act(decision(st, 0))
        assert o.ship == "p0s1"
        pv = preview_course(st, "p0s1", o)
        assert not (pv.lands and pv.body == "Terra"), level
    o = LevelBot("easy", strict=True).act(decision(st, 0))
    pv = preview_course(st, "p0s1", o)
    assert pv.lands and pv.body == "Terra"  # easy's short sight: a landing on the target looks like a win


def test_hard_takes_the_two_turn_landing_in_lunar_evacuation():
    st = new_state("evacuation", seed=5)
    o = LevelBot("hard", strict=True).act(decision(st, 0))
    assert (o.ship, o.burn, o.overload, tuple(o.weak)) == ("p0s0", 0, None, ("8,-7",))
    pv = preview_course(st, "p0s0", o)
    assert landing_next(M, pv.destination, pv.velocity, (), pv.fuel_after, TERRA)


def _evacuation_after_p0(weak: tuple):
    st = new_state("evacuation", seed=2)
    for sid in ("p0s0", "p0s1"):
        st.apply_action(0, Order(sid, 0, None, False, weak))
    st.apply_action(0, Order("p0s2", None))
    from deltav.games.tactical.messages import EndAstrogation

    st.apply_action(0, EndAstrogation())
    from .helpers import end_turn

    end_turn(st, 0)
    assert st.active_player == 1 and st.phase == "astrogation"
    return st


def test_hold_an_outgunned_last_ship_waits_at_home_unless_a_carrier_can_land_next():
    # the carriers kept Luna's gravity pending: they cannot land next move, so the corsair (4) facing a frigate
    # and a corvette (10) holds at Terra's bases
    st = _evacuation_after_p0(())
    bot = LevelBot("hard", strict=True)
    d = decision(st, 1)
    bot._remember(d.view, 1)
    world = d.sample_world()
    held = bot._hold(world, world.ship("p1s0"))
    assert set(held) == set(M.bases_of["Terra"])
    # the carriers ignored the weak hex: they can land next move, so it goes out and fires now
    st2 = _evacuation_after_p0(("8,-7",))
    d2 = decision(st2, 1)
    bot2 = LevelBot("hard", strict=True)
    bot2._remember(d2.view, 1)
    w2 = d2.sample_world()
    assert bot2._hold(w2, w2.ship("p1s0")) == ()
    # normal has no hold doctrine
    assert not LevelBot("normal").knobs.hold


def test_hard_corsair_decides_from_its_view_only():
    # the frigate sits landed at a Luna base, undetected: its true fuel and damage must not change the corsair's
    # order (the corsair only knows what it saw before)
    orders = []
    for fuel, disabled in ((20, 0), (3, 2)):
        st = _evacuation_after_p0(())
        fr = st.ship("p0s2")
        place(st, "p0s2", (10, -8), (0, 0), (), fuel, landed=True, disabled=disabled, detected=False)
        assert "p0s2" not in {s["id"] for s in st.view(1)["ships"]}
        assert fr.fuel == fuel
        orders.append(LevelBot("hard", strict=True).act(decision(st, 1, seed=4)))
    assert orders[0] == orders[1]


def test_the_edge_is_a_goal_only_where_an_escape_can_win():
    """Escape's pilgrims run beyond the northern edge only under ruling 1 (``escape_is_winnable``); without it a
    ship off the map is lost, so they hold the row inside the edge and play for the moral victory. Before, hard's
    pilgrims flew off the edge and were eliminated in 61 of 80 games on the reference's engine, which has no
    winnable escape; holding the row inside it, they won 55 of 80 there."""
    lo_r = new_state("escape").gmap.bounds[2]
    for winnable, expect, row in ((True, "escape", lo_r - 1), (False, "edge", lo_r + 1)):
        st = new_state("escape", escape_is_winnable=winnable)
        runner = next(p for p, pl in enumerate(st.players) if pl.escape_wins)
        sh = next(s for s in st.ships if s.owner == runner and not s.destroyed)
        goals, why = goal_hexes(st, sh)
        assert why == expect, (winnable, why)
        assert goals and {r for _q, r in goals} == {row}, goals  # beyond the edge, or the row inside it
