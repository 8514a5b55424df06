"""The difficulty ladder (``bots.PRESETS``) and the search bot (``planner``): legal whole games at every level
and scenario, determinism, decisions that depend on the view only, and the planner's behaviour on
constructed positions."""

from __future__ import annotations

import pytest

from deltav.agents import make_agent
from deltav.agents.gate import PhaseGate
from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining.bots import BOTS, PRESETS
from deltav.games.mining.bots.hard_policy import SEARCHED, _plan, policy, prior
from deltav.games.mining.bots.scripted import ScriptedAgent
from deltav.games.mining.messages import BidUp, Declare, Move, Pass, Prospect, Reveal, RevealIncident
from deltav.games.mining.phases import P_ATTEMPT, P_LOOKREV
from deltav.games.mining.scenarios import STATION
from tests.mining.helpers import new, place, play, put_rocket

FAST_HARD = {"iterations": 12, "max_depth": 6, "pool": 4, "max_seconds": None}


def level(name: str, **override):
    spec = name + (":" + ",".join(f"{k}={'none' if v is None else v}" for k, v in override.items()) if override else "")
    return make_agent("mining", spec)


def decision(st, p, seed=0):
    return Decision(MiningGame, p, st.view(p), st.legal_actions(p), Rng(seed), {})


def test_presets_follow_the_schema():
    assert set(PRESETS) == {"easy", "normal", "hard"}
    for entry in PRESETS.values():
        assert (entry["agent"] in BOTS or entry["agent"] == "ismcts") and entry["budget"]
        assert hasattr(level(next(k for k, v in PRESETS.items() if v is entry)), "act")
    assert isinstance(level("hard"), PhaseGate) and level("hard").phases == frozenset(SEARCHED)
    assert level("easy").forget > level("normal").forget > 0


@pytest.mark.parametrize("scenario,players", [("standard", 2), ("variant-b", 2), ("standard", 3),
                                              ("variant-b", 4)])
def test_every_level_plays_whole_games_with_legal_actions_only(scenario, players):
    # play_match raises AgentError on any action outside the legal list
    names = ["hard", "normal", "easy", "hard"][:players]
    agents = [level(n, **(FAST_HARD if n == "hard" else {})) for n in names]
    rec, st, _ = play_match(MiningGame, {"players": players, "scenario": scenario}, 5 + players, agents)
    assert st.is_terminal() and rec.result["winners"]
    assert agents[0].searched > 0  # the hard seat really searched


def test_levels_are_deterministic_given_their_seed():
    def run():
        agents = [level("hard", **FAST_HARD), level("easy")]
        rec, st, _ = play_match(MiningGame, {"players": 2}, 11, agents)
        return [s.action for s in rec.steps], rec.result

    assert run() == run()


def _hidden_swap_pair():
    """Two truths that differ only in tiles player 0 has not seen (the view of player 0 is identical)."""
    a = new(seed=3)
    place(a, {10: ("alphatite", 5)})
    put_rocket(a, 0, 10)
    play(a, 0, Prospect())
    play(a, 0, Pass())  # no incident to reveal
    b = a.clone()
    unknown = [s for s in range(49) if b.face_down(s) and not (b.looked[0] | b.public) >> s & 1]
    s1, s2 = unknown[0], unknown[-1]
    b.squares[s1], b.squares[s2] = b.squares[s2], b.squares[s1]
    b._legal = None
    assert a.to_json() != b.to_json() and a.view(0) == b.view(0)
    return a, b


def test_hard_decides_from_its_view_only():
    a, b = _hidden_swap_pair()
    assert a.phase == P_ATTEMPT
    picks = []
    for st in (a, b):
        bot = level("hard", iterations=40)
        picks.append(bot.act(decision(st, 0, seed=9)))
    assert picks[0] == picks[1]
    assert picks[0] in a.legal_actions(0)


def test_hard_declares_the_contract_its_memory_covers():
    a, _ = _hidden_swap_pair()
    bot = level("hard")
    choice = bot.act(decision(a, 0, seed=1))
    assert choice == Declare("C01")
    stats = bot.search.last.stats
    assert stats[Declare("C01")][0] == max(v[0] for v in stats.values())  # the most visited root action


def test_plan_takes_the_best_known_tiles_and_fills_with_omnidium():
    st = new()
    place(st, {10: ("alphatite", 2), 11: ("alphatite", 5), 12: ("omnidium", 4), 13: ("betamite", 1)})
    st.looked[0] |= sum(1 << s for s in (10, 11, 12, 13))
    pts, i, squares = _plan(st, 0)
    # C08 (Alphatite, Betamite, Gammatite) = 5 + 1 + Omnidium 4 beats C07 (Alphatite, Deltamite) = 5 + 4
    assert st.cfg.contracts[i].id == "C08" and pts == 10 and set(squares) == {11, 13, 12}
    assert _plan(st, 1) is None  # player 1 knows none of these tiles


def test_the_policy_plays_each_player_on_its_own_knowledge():
    st = new(mandatory_contract_attempt=False)
    place(st, {10: ("alphatite", 4)})
    st.looked[1] |= 1 << 10  # only the opponent knows square 10
    st.phase = P_ATTEMPT
    st._legal = None
    rng = Rng(0)
    assert policy(st, 0, st.legal_actions(0), rng) == Pass()
    st.current = 1
    st._legal = None
    assert policy(st, 1, st.legal_actions(1), rng) == Declare("C01")


def test_a_mandatory_attempt_makes_the_policy_gamble_on_the_closest_contract():
    st = new()  # mandatory by default
    place(st, {10: ("gammatite", 2)})
    st.looked[0] |= 1 << 10
    for i in range(4):  # C01..C04 are taken: nothing known completes an open contract
        st.contract_owners[i] = 1
    st.phase = P_ATTEMPT
    st._legal = None
    assert Pass() not in st.legal_actions(0) and _plan(st, 0) is None
    # C06 (Gammatite, Deltamite) misses one tile; every other open contract misses two or more
    assert policy(st, 0, st.legal_actions(0), Rng(0)) == Declare("C06")
    st2 = new()
    st2.phase = P_ATTEMPT
    st2._legal = None
    # nothing known: the smallest open contract, never a random discard
    assert policy(st2, 0, st2.legal_actions(0), Rng(0)) == Declare("C01")


def test_the_policy_prospects_under_an_unknown_rocket_and_spreads_to_fresh_squares():
    st = new()
    put_rocket(st, 0, 10)
    legal = st.legal_actions(0)
    assert policy(st, 0, legal, Rng(0)) == Prospect()
    st.looked[0] |= 1 << 10
    st.looked[1] |= 1 << 11
    a = policy(st, 0, st.legal_actions(0), Rng(0))
    assert isinstance(a, Move) and a.frm in (STATION, 10)
    if a.frm == STATION:
        assert a.to not in (10, 11)  # not onto its own square, and not where the opponent looked first


def test_the_policy_reveals_the_planned_tile_first():
    st = new()
    place(st, {10: ("alphatite", 1), 11: ("omnidium", 5)})
    st.looked[0] |= (1 << 10) | (1 << 11)
    st.phase = P_ATTEMPT
    st._legal = None
    play(st, 0, Declare("C01"))
    assert policy(st, 0, st.legal_actions(0), Rng(0)) == Reveal(10)  # the standard tile, keeping Omnidium


def test_the_policy_ends_the_game_with_the_fifth_alien_only_when_leading():
    def position(lead: bool):
        st = new()
        place(st, {10: ("alien_encounter",), 30: ("betamite", 3)})
        if lead:
            t = st.squares[30]
            st._remove_tile(30)
            st.collected[0].append((t, 1))
        put_rocket(st, 0, 10)
        st.aliens = 4
        play(st, 0, Prospect())
        assert st.phase == P_LOOKREV and RevealIncident(10) in st.legal_actions(0)
        return st

    level_st = position(lead=False)
    assert policy(level_st, 0, level_st.legal_actions(0), Rng(0)) == Pass()  # level scores: play on
    ahead = position(lead=True)
    assert ahead.scores()[0] > ahead.scores()[1]
    assert policy(ahead, 0, ahead.legal_actions(0), Rng(0)) == RevealIncident(10)  # leading: end it now


def test_the_prior_weights_the_policy_choice():
    st = new()
    put_rocket(st, 0, 10)
    legal = st.legal_actions(0)
    w = prior(st, 0, legal)
    assert len(w) == len(legal) and abs(sum(w) - 1.0) < 1e-9
    assert max(range(len(legal)), key=w.__getitem__) == legal.index(Prospect())


def test_hard_searches_bid_up_windows_and_never_bids_into_a_sure_answer():
    st = new()
    place(st, {10: ("alphatite", 5)})
    play(st, 0, Prospect())
    play(st, 0, Declare("C01"))
    play(st, 0, Reveal(10))
    d = decision(st, 1)
    assert d.view["phase"] in SEARCHED and BidUp("b1-alphatite") in d.legal_actions
    assert level("hard").act(d) == Pass()  # player 0 still holds its Alphatite counter to answer


def test_the_search_bot_follows_the_scripted_plan_outside_searched_phases():
    st = new()
    put_rocket(st, 0, 10)
    d = decision(st, 0)
    assert d.view["phase"] == "action" and "action" not in SEARCHED
    bot = level("hard")
    assert bot.act(d) == ScriptedAgent().act(decision(st, 0)) == Prospect()
    assert bot.searched == 0


def test_the_plan_policy_and_prior_are_named_for_generic_search_specs():
    from deltav.agents.presets import heuristic

    st = new()
    put_rocket(st, 0, 10)
    legal = st.legal_actions(0)
    assert heuristic("mining", "hard_policy.policy") is policy and heuristic("mining", "hard_policy.prior") is prior
    assert policy(st, 0, legal, Rng(0)) == Prospect()
    bot = make_agent("mining", "ismcts:iterations=8,pool=2,rollout=hard_policy.policy,prior=hard_policy.prior")
    assert bot.policy is policy and bot.prior is prior


def test_the_registry_builds_the_levels_from_these_presets():
    from deltav.agents import make_agent

    hard = make_agent("mining", "hard")
    assert isinstance(hard, PhaseGate) and isinstance(hard.otherwise, ScriptedAgent) and hard.otherwise.forget == 0
    assert {k: hard.search.params[k] for k in PRESETS["hard"]["params"]} == PRESETS["hard"]["params"]
    assert make_agent("mining", "normal").forget == PRESETS["normal"]["params"]["forget"]
    assert make_agent("mining", "easy").forget == PRESETS["easy"]["params"]["forget"]
