"""The speed-ups of the rules engine change nothing: the shortcut line-of-fire test agrees with the whole line
analysis, caches shared between states agree with fresh computations, and exploring clones leaves a state's
legal actions alone. (Behaviour identity over whole games is checked by benchmarks/check_identical.py.)"""

from __future__ import annotations

import json

from deltav.core import hexgrid
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks import combat as cb
from deltav.games.knighthawks import movement as mv
from deltav.games.knighthawks import movement_phase as mvp
from tests.view_check import scribble

from .helpers import ship


def _hexes(radius):
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if hexgrid.length((q, r)) <= radius]


def test_step_hexes_lie_at_their_step_distance():
    # the property fire_blocked relies on: every hex of step i is i hexes from the start and n - i from the end
    for dq in range(-14, 15):
        for dr in range(-14, 15):
            n = hexgrid.length((dq, dr))
            for i, step in enumerate(hexgrid.analyze_offset(dq, dr).steps):
                assert len(step) <= 2
                for h in step:
                    assert hexgrid.length(h) == i and hexgrid.length((dq - h[0], dr - h[1])) == n - i


def test_fire_blocked_agrees_with_the_whole_line_analysis():
    hexes = _hexes(6)
    for planets in (frozenset({(0, 0)}), frozenset({(0, 0), (1, 0)}), frozenset({(0, 2), (0, 3), (-1, 3)}),
                    frozenset({(2, -1), (-3, 1)})):
        blocked = 0
        for a in hexes:
            for b in hexes:
                if a == b:
                    assert not cb.fire_blocked(a, b, planets)
                    continue
                got = cb.fire_blocked(a, b, planets)
                assert got == cb._fire_blocked_full(a, b, planets), (a, b, planets)
                blocked += got
        assert blocked > 0  # the configurations do block some shots


def test_fire_blocked_is_the_same_both_ways():
    # MapInfo.blocked stores a new pair in both directions
    hexes = _hexes(7)
    for planets in (frozenset({(0, 0)}), frozenset({(0, 0), (1, 0)}), frozenset({(0, 2), (0, 3), (-1, 3)}),
                    frozenset({(1, 0), (1, -1)}), frozenset({(2, -1), (-3, 1), (3, 3)})):
        for a in hexes:
            for b in hexes:
                assert cb.fire_blocked(a, b, planets) == cb.fire_blocked(b, a, planets), (a, b, planets)
    far = frozenset({(0, 0), (1, -1)})
    for a, b in (((-40, 0), (40, 0)), ((-36, -1), (37, 0)), ((-39, 1), (38, -2))):  # lines past _EXACT_MAX
        assert cb.fire_blocked(a, b, far) == cb.fire_blocked(b, a, far)


def test_grazing_two_planets_blocks_but_one_does_not():
    # the line (0,0) -> (2,-1) grazes the hexside between (1,0) and (1,-1)
    assert hexgrid.analyze_offset(2, -1).ambiguous
    assert cb.fire_blocked((0, 0), (2, -1), frozenset({(1, 0), (1, -1)}))
    assert not cb.fire_blocked((0, 0), (2, -1), frozenset({(1, 0)}))


def test_shared_completable_cache_matches_a_fresh_search():
    m = mv.MapInfo.build(8, [("P", (0, 0))])
    for pos in _hexes(4):
        for facing in range(6):
            for total in (1, 2, 3, 4):
                for mr in (0, 1, 2):
                    want = mv.completable(m, mv.start_plot(pos, facing), total, mr, 0, False)
                    assert mv.completable_from(m, pos, facing, total, mr, 0, False) == want


def _step_options_by_search(state):
    """The turns step_options must offer, by the whole search (no shortcut, no cache)."""
    sid, speed, facing, turns = state.plotting
    sh = state.ship(sid)
    st = mvp._replay_plot_uncached(state, sh, speed, facing, turns)
    navdir = sh.navdir if sh.nav else 0
    ev = sh.evading and sh.mr > 0
    out = [t for t in mv.turn_choices(st, sh.mr, navdir, ev)
           if (nxt := mv.advance(state.map, st, t, speed)) is not None
           and mv.completable(state.map, nxt, speed, sh.mr, navdir, ev)]
    return tuple(out) or (0,)


def test_step_options_far_from_planets_match_the_whole_search():
    seen = 0
    for scenario, seed in (("skirmish", 5), ("fleet_battle", 2), ("escort", 9)):
        state = KnightHawks.new_initial_state({"scenario": scenario}, seed)
        rng = Rng(seed)
        steps = 0
        while not state.is_terminal() and steps < 1500:
            if state.stage == "move" and state.plotting is not None:
                assert mvp.step_options(state) == _step_options_by_search(state)
                seen += 1
            p = state.current_players()[0]
            legal = state.legal_actions(p)
            state.apply_action(p, legal[rng.below(len(legal))])
            steps += 1
    assert seen > 100


def test_a_screen_set_on_one_clone_leaves_the_others_legal_actions_alone():
    # the per-phase lookups are shared by clones: setting a screen on one (before any legal list was asked
    # for) must not change the screen actions another clone is offered
    from deltav.games.knighthawks import messages as msg

    checked = 0
    for scenario in ("skirmish", "escort", "station_assault", "fleet_battle"):
        a = KnightHawks.new_initial_state({"scenario": scenario}, 0)
        p = a.current_players()[0]
        b = a.clone()
        sh = next(s for s in a.ships if s.owner == p and mvp._screen_options(a, s))
        a.apply_action(p, msg.Screen(sh.id, mvp._screen_options(a, sh)[0]))
        a.legal_actions(p)
        fresh = KnightHawks.state_from_json(b.to_json())
        assert [x.to_json() for x in b.legal_actions(p)] == [x.to_json() for x in fresh.legal_actions(p)]
        checked += 1
    assert checked == 4


def test_equal_maps_share_a_key_and_different_ones_do_not():
    a = mv.MapInfo.build(10, [("P", (0, 0))])
    b = mv.MapInfo.build(10, [("Q", (0, 0))])
    c = mv.MapInfo.build(11, [("P", (0, 0))])
    d = mv.MapInfo.build(10, [("P", (1, 0))])
    assert a.key() == b.key()
    assert len({a.key(), c.key(), d.key()}) == 3


def _legal_json(state):
    return {p: [a.to_json() for a in state.legal_actions(p)] for p in state.current_players()}


def test_clones_and_json_copies_give_the_same_legal_actions_along_random_games():
    for scenario in ("skirmish", "station_assault"):
        state = KnightHawks.new_initial_state({"scenario": scenario}, 3)
        rng = Rng(11)
        steps = 0
        while not state.is_terminal() and steps < 250:
            want = _legal_json(state)
            assert _legal_json(KnightHawks.state_from_json(state.to_json())) == want
            branch = state.clone()
            for _ in range(4):  # explore a clone: shared per-phase caches must not leak back
                if branch.is_terminal():
                    break
                q = branch.current_players()[0]
                la = branch.legal_actions(q)
                branch.apply_action(q, la[rng.below(len(la))])
            assert _legal_json(state) == want
            p = state.current_players()[0]
            legal = state.legal_actions(p)
            state.apply_action(p, legal[rng.below(len(legal))])
            steps += 1


def test_fire_options_see_past_a_planet_only_when_the_line_is_clear():
    from .helpers import make_state

    s = make_state([ship("a", 0, "frigate", (-3, 0)), ship("b", 1, "frigate", (3, 0), facing=3),
                    ship("c", 1, "frigate", (2, -3), facing=3)], planets=[("P", (0, 0))])
    assert s.map.blocked((-3, 0), (3, 0))
    assert not s.map.blocked((-3, 0), (2, -3))


def _reference_view(state, player):
    """A view as it was built before the cached ship records: from ``to_json`` and each ship's own JSON."""
    from deltav.games.knighthawks.visibility import view

    out = state.to_json()
    del out["rng"]
    out["ships"] = [sh.to_json() if player is not None and sh.owner == player else sh.public_json()
                    for sh in state.ships]
    fast = view(state, player)
    for k in ("mines", "hidden_mines", "plotting", "declared", "allocations", "laid", "dropped", "viewer"):
        out[k] = fast[k]  # the hidden-information filters are test_secrets.py's subject
    return out


def _dump(v) -> str:
    return json.dumps(v)  # key order included: clients see the same text


def test_cached_ship_records_give_the_ships_own_json_along_random_games_and_clones():
    for scen in ("skirmish", "fleet_battle", "escort"):
        s = KnightHawks.new_initial_state({"scenario": scen}, 3)
        rng = Rng(8)
        twins = []
        while not s.is_terminal():
            p = s.current_players()[0]
            legal = s.legal_actions(p)
            s.apply_action(p, legal[rng.below(len(legal))])
            if rng.below(5) == 0:
                twins.append(s.clone())  # shares the ships' view templates, then lives on its own
            for q in (0, 1, None):
                v = s.view(q)
                assert _dump(v) == _dump(_reference_view(s, q))
                scribble(v)  # a careless reader changes nothing for the next view
                assert _dump(s.view(q)) == _dump(_reference_view(s, q))
        for t in twins[-6:]:
            for q in (0, 1, None):
                assert _dump(t.view(q)) == _dump(_reference_view(t, q))
            if not t.is_terminal():
                p = t.current_players()[0]
                t.apply_action(p, t.legal_actions(p)[0])
                assert _dump(t.view(p)) == _dump(_reference_view(t, p))
