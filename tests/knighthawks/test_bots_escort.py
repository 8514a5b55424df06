"""The hard bot in escort scenarios (the escorted ship's run, the raiders' hunt, interceptor cover), its fleet
rule and the rollout bot (``tactician``): behaviour on hand-made positions, legal whole games, determinism."""

from __future__ import annotations

from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks, movement_phase
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.bots import escort as es
from deltav.games.knighthawks.bots.admiral import Admiral, _fleet_strength
from deltav.games.knighthawks.bots.plans import _EscortCaptain, _FocusCaptain
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain
from deltav.games.knighthawks.bots.tactician import Tactician
from deltav.games.knighthawks.movement import MapInfo
from tests.knighthawks.helpers import make_state, ship

EXIT_EAST = {"kind": "exit", "ship": "fr", "edge": "east"}


def decision(state, seed=1):
    p = state.current_players()[0]
    return Decision(KnightHawks, p, state.view(p), state.legal_actions(p), Rng(seed), state.options)


def plot_of(bot, state, sid):
    """The (course, turns) ``bot`` plots for ship ``sid`` (the state must be at that ship's plot)."""
    p = state.current_players()[0]
    world = state.clone()
    options = [a for a in state.legal_actions(p) if isinstance(a, m.Course) and a.ship == sid]
    a = bot._plot(world, p, world.ship(sid), options)
    return a, bot.plan[1]


def test_next_outcomes_sees_momentum_and_the_right_edge():
    mp = MapInfo.build(10, [])
    # a slow-turning ship (ADF 1, MR 1) at speed 6 heading west, 2 hexes from the west edge: carried off
    assert es.next_outcomes(mp, EXIT_EAST, (-8, 0), 3, 6, 1, 1) == {"lost"}
    # the same heading east near the east edge: it can leave on its edge (or stay by slowing and turning)
    got = es.next_outcomes(mp, EXIT_EAST, (8, 0), 0, 4, 1, 1)
    assert "escape" in got
    # stopped ships can always stay
    assert "stay" in es.next_outcomes(mp, EXIT_EAST, (0, 0), 0, 1, 1, 1)


def test_runner_does_not_steer_off_the_wrong_edge():
    """A freighter near the south-west edge heading south-west must turn away or it is driven off (a loss)."""
    s = make_state([ship("fr", 0, "freighter", (-3, 8), facing=4, speed=2),
                    ship("raider", 1, "destroyer", (8, -8), facing=3, speed=0)],
                   victory=EXIT_EAST, radius=10)
    a, turns = plot_of(Admiral(runner=True), s, "fr")
    w = s.clone()
    w.apply_action(0, a)
    for t in turns:
        if w.plotting is None:
            break
        w.apply_action(0, m.Step(t))
    if w.current_players() == [0] and m.EndMovement() in w.legal_actions(0):
        w.apply_action(0, m.EndMovement())
    assert w.ship("fr").status == 0  # still in the battle
    assert es.runner_score(s, s.ship("fr"), m.Course("fr", 2, 4), (0, 0), _plot(s, (-3, 8), 4, 2), 0) < -1000


def _plot(state, pos, facing, speed):
    from deltav.games.knighthawks.movement import advance, start_plot

    st = start_plot(pos, facing)
    for _ in range(speed):
        if st.end:
            break
        st = advance(state.map, st, 0, speed)
    return st


def test_runner_keeps_a_crippled_freighter_from_maneuvering():
    """Severely damaged (60 of 75): every point of speed change or turn is a 22% chance of breaking apart,
    which loses the game: it holds its speed and heading."""
    s = make_state([ship("fr", 0, "freighter", (-4, 0), facing=0, speed=3),
                    ship("raider", 1, "destroyer", (6, -6), facing=3, speed=0)],
                   victory=EXIT_EAST, radius=12)
    s.ship("fr").dmg = 60
    a, turns = plot_of(Admiral(runner=True), s, "fr")
    assert (a.speed, a.facing) == (3, 0) and not any(turns)


def test_escort_with_interceptors_covers_the_freighter():
    """With ``cover`` the frigate (4 ICMs) ends its move in the freighter's plotted end hex."""
    s = make_state([ship("fr", 0, "freighter", (-4, 0), facing=0, speed=2),
                    ship("zf", 0, "frigate", (-4, 1), facing=0, speed=2),
                    ship("raider", 1, "destroyer", (6, -3), facing=3, speed=3)],
                   victory=EXIT_EAST, radius=12)
    s.apply_action(0, m.Course("fr", 3, 0))
    for _ in range(3):
        s.apply_action(0, m.Step(0))
    end = movement_phase.plotted_path(s, s.ship("fr"))[-1]
    bot = _EscortCaptain(cover=30.0)
    a, turns = plot_of(bot, s, "zf")
    w = s.clone()
    w.apply_action(0, a)
    for t in turns:
        if w.plotting is None:
            break
        w.apply_action(0, m.Step(t))
    if w.current_players() == [0] and m.EndMovement() in w.legal_actions(0):
        w.apply_action(0, m.EndMovement())
    assert w.ship("fr").pos == end and w.ship("zf").pos == end  # both moved: the frigate sits on the freighter


def test_raiders_hunt_the_freighter():
    """The raiding destroyer closes on the freighter rather than on the escort nearer to it."""
    s = make_state([ship("fr", 0, "freighter", (-6, 4), facing=0, speed=2),
                    ship("zf", 0, "frigate", (2, -6), facing=3, speed=2),
                    ship("raider", 1, "destroyer", (4, -4), facing=3, speed=3)],
                   victory=EXIT_EAST, radius=12, first=1)
    a, turns = plot_of(Admiral(), s, "raider")
    w = s.clone()
    w.apply_action(1, a)
    for t in turns:
        if w.plotting is None:
            break
        w.apply_action(1, m.Step(t))
    from deltav.core import hexgrid

    end = movement_phase.plotted_path(w, w.ship("raider"))[-1]
    assert hexgrid.distance(end, (-6, 4)) < hexgrid.distance((4, -4), (-6, 4)) - 3


def test_hard_plays_legal_whole_escorts_from_both_seats():
    for seed, agents in ((1, [Admiral(), ScriptedCaptain()]), (2, [ScriptedCaptain(), Admiral()])):
        rec, state, _ = play_match(KnightHawks, {"scenario": "escort"}, seed, agents)
        assert state.is_terminal() and rec.result is not None


def test_weaker_fleet_concentrates_on_one_target():
    """The UPF fleet starts weaker (295 points against 319): with ``focus_when="weaker"`` (not the default)
    the admiral plays the focused plan, every ship closing on the same enemy; its first plots differ from the
    captain's and close on the focus."""
    from deltav.core import hexgrid

    s = KnightHawks.new_initial_state({"scenario": "fleet_battle"}, 5)
    assert _fleet_strength(s.view(0), 0) < 0 < _fleet_strength(s.view(1), 1)
    # the Sathar move first; play their side turn with the captain
    cap = ScriptedCaptain()
    while s.current_players() == [1] or s.mover == 1:
        s.apply_action(s.current_players()[0], cap.act(decision(s)))
    bot = Admiral(focus_when="weaker")
    before = {sh.id: sh.pos for sh in s.ships if sh.owner == 0}
    focus = bot._focused.focus_target(s.clone(), 0)
    assert focus is not None and focus.owner == 1
    t = s.clone()
    while t.mover == 0 and t.stage == "move":
        t.apply_action(0, bot.act(decision(t)))
    closer = sum(1 for sid, h in before.items() if t.ship(sid).status == 0
                 and hexgrid.distance(t.ship(sid).pos, focus.pos) < hexgrid.distance(h, focus.pos))
    assert closer >= 4
    opts = {"scenario": "fleet_battle", "turn_limit": 3}
    r1 = play_match(KnightHawks, opts, 5, [Admiral(focus_when="weaker"), ScriptedCaptain()])[0]
    r2 = play_match(KnightHawks, opts, 5, [ScriptedCaptain(), ScriptedCaptain()])[0]
    assert [st.action for st in r1.steps] != [st.action for st in r2.steps]


def test_focused_fire_prefers_the_focus():
    from tests.knighthawks.test_bots_levels import idx, to_offensive_fire

    s = make_state([ship("a", 0, "frigate", (0, 0), facing=0),
                    ship("b", 1, "destroyer", (3, 0), facing=3),
                    ship("c", 1, "destroyer", (3, -1), facing=3)], first=0)
    to_offensive_fire(s)
    lb = idx(s, "a", "LB")
    legal = [a for a in s.legal_actions(0) if not isinstance(a, m.Assign) or a.weapon == lb]
    bot = _FocusCaptain(focus=0.5, focus_fire=1.5)
    bot._focus = (s.turn, s.half, "c")
    assert bot._fire(s.clone(), 0, legal) == m.Assign("a", lb, "c")
    bot._focus = (s.turn, s.half, "b")
    assert bot._fire(s.clone(), 0, legal) == m.Assign("a", lb, "b")


def test_tactician_plays_legal_deterministic_games_from_its_view():
    opts = {"scenario": "escort", "turn_limit": 2}
    runs = []
    for _ in range(2):
        bot = Tactician(plans="captain+hunter", rollouts=2, horizon=1)
        rec, state, _ = play_match(KnightHawks, opts, 4, [ScriptedCaptain(), bot])
        assert state.is_terminal()
        assert bot.last_choice in ("captain", "hunter")
        runs.append([st.action for st in rec.steps])
    assert runs[0] == runs[1]


def test_safe_freighter_slows_down_before_its_momentum_carries_it_off_the_wrong_edge():
    """Steering lost (MR 0), heading south-east at speed 3 toward the edge: the hard bot's escorted ship
    slows down (next turn it can still stay on the map), it does not keep the speed that dooms it."""
    s = make_state([ship("fr", 0, "freighter", (0, 4), facing=5, speed=3),
                    ship("raider", 1, "destroyer", (0, -1), facing=5, speed=4)],
                   victory=EXIT_EAST, radius=10)
    s.ship("fr").mr = 0
    a, _turns = plot_of(Admiral(), s, "fr")
    assert a.speed <= 3
    assert "stay" in es.next_outcomes(s.map, EXIT_EAST, (0, 4 + a.speed), 5, a.speed, 1, 0, 2)
    # speeding up to 4 ends at (0, 8): the next move (3 to 5 hexes, no turn) leaves the map
    assert "stay" not in es.next_outcomes(s.map, EXIT_EAST, (0, 8), 5, 4, 1, 0, 2)
