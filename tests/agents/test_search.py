"""The search algorithms on small test games: they find winning moves, respect hidden information, approach
equilibria of matrix games, only ever return legal actions and are deterministic given their seed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deltav.agents import DUCTAgent, ISMCTSAgent, MCTSAgent, SearchUnavailable
from deltav.agents.rollout import playout
from deltav.agents.search import Node, Search, reseed
from deltav.core.protocol import Game
from deltav.core.rng import Rng
from tests.agents.games import Gamble, GambleGame, Guess, MatrixGame, NimGame, Pick, Safe, Take
from tests.agents.helpers import decision, nim_winning

# --- perfect information: Nim --------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [MCTSAgent, ISMCTSAgent])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finds_the_only_winning_nim_move(cls, seed):
    # heaps 1,3,5 have nim-sum 7: the one winning move is to take 3 from the heap of 5
    state = NimGame.new_initial_state({"heaps": "1,3,5"}, 0)
    agent = cls(iterations=3000)
    action = agent.act(decision(NimGame, state, 0, seed))
    assert action == Take(2, 3)


def test_nim_root_statistics_rank_the_winning_move_first():
    state = NimGame.new_initial_state({"heaps": "1,3,5"}, 0)
    agent = MCTSAgent(iterations=3000)
    result = agent.analyse(decision(NimGame, state, 0, 7))
    assert result.iterations == 3000
    assert sum(v for v, _, _ in result.stats.values()) == 3000
    best = max(result.stats, key=lambda a: result.stats[a][0])
    assert best == Take(2, 3)
    assert result.stats[best][1] > 0.5  # it wins most playouts from there


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 3), min_size=2, max_size=3).filter(lambda hs: sum(hs) > 0))
def test_mcts_takes_a_winning_nim_move_whenever_one_exists(heaps):
    state = NimGame.new_initial_state({"heaps": ",".join(map(str, heaps))}, 0)
    legal = state.legal_actions(0)
    winning = [a for a in legal if nim_winning(heaps, a)]
    action = MCTSAgent(iterations=1500).act(decision(NimGame, state, 0, 3))
    assert action in legal
    if winning:
        assert action in winning


def test_three_player_nim_takes_the_immediate_win():
    state = NimGame.new_initial_state({"heaps": "2,3", "players": 3}, 0)
    state.apply_action(0, Take(1, 3))  # heaps 2,0: player 1 can take the last two
    action = MCTSAgent(iterations=300).act(decision(NimGame, state, 1, 4))
    assert action == Take(0, 2)


def test_a_fixed_world_caches_legal_actions_in_the_tree():
    state = NimGame.new_initial_state({"heaps": "2,2"}, 0)
    search = Search(0, state.legal_actions(0))
    root = Node(-1)
    rng = Rng(5)
    search.run(root, lambda i: reseed(state.clone(), rng), 200, rng, True)
    assert root.legal == state.legal_actions(0)
    some_child = next(iter(root.kids.values()))
    assert some_child.legal is not None


# --- hidden information -------------------------------------------------------------------------------------


def test_ismcts_plays_safe_where_a_guess_is_right_one_time_in_three():
    state = GambleGame.new_initial_state({}, 0)
    action = ISMCTSAgent(iterations=2000).act(decision(GambleGame, state, 0, 1))
    assert action == Safe()


def test_determinized_mcts_suffers_strategy_fusion_in_the_gamble():
    # every sampled world shows the card, so PIMC believes it can always guess right: the documented weakness
    state = GambleGame.new_initial_state({}, 0)
    agent = MCTSAgent(iterations=2000, worlds=8)
    action = agent.act(decision(GambleGame, state, 0, 1))
    assert action == Gamble()
    assert agent.last.stats[Gamble()][1] > 0.5


@pytest.mark.parametrize("cls", [MCTSAgent, ISMCTSAgent, DUCTAgent])
def test_the_determinizer_only_ever_gets_the_players_view(cls):
    GambleGame.determinize_calls.clear()
    state = GambleGame.new_initial_state({}, 0)
    state.apply_action(0, Gamble())
    cls(iterations=300).act(decision(GambleGame, state, 0, 2))
    assert GambleGame.determinize_calls
    for view, player in GambleGame.determinize_calls:
        assert player == 0
        assert view == state.view(0)
        assert "card" not in view


@pytest.mark.parametrize("cls", [MCTSAgent, ISMCTSAgent, DUCTAgent])
def test_the_hidden_card_does_not_change_the_choice(cls):
    # three true states that differ only in what player 0 cannot see: identical searches, identical guesses
    chosen = set()
    stats = []
    for card_seed in range(12):
        state = GambleGame.new_initial_state({}, card_seed)
        state.apply_action(0, Gamble())
        agent = cls(iterations=400)
        chosen.add(agent.act(decision(GambleGame, state, 0, 9)))
        stats.append(agent.last.stats)
    assert len({s.card for s in (GambleGame.new_initial_state({}, k) for k in range(12))}) == 3
    assert len(chosen) == 1
    assert all(s == stats[0] for s in stats)
    assert next(iter(chosen)) in [Guess(k) for k in range(3)]


def test_search_without_a_determinizer_is_refused():
    class Opaque(Game):
        id = "test-opaque"

    state = NimGame.new_initial_state({}, 0)
    d = decision(NimGame, state, 0)
    d.game = Opaque
    with pytest.raises(SearchUnavailable, match="no determinizer"):
        MCTSAgent(iterations=10).act(d)


# --- simultaneous moves -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scenario,player,equilibrium",
    [
        ("biased_rps", 0, (0.25, 0.5, 0.25)),
        ("biased_rps", 1, (0.25, 0.5, 0.25)),
        ("mixed2", 0, (3 / 7, 4 / 7)),
        ("mixed2", 1, (2 / 7, 5 / 7)),
    ],
)
def test_regret_matching_approaches_the_mixed_equilibrium(scenario, player, equilibrium):
    state = MatrixGame.new_initial_state({"scenario": scenario}, 0)
    agent = DUCTAgent(iterations=8000, sim="rm")
    result = agent.analyse(decision(MatrixGame, state, player, 3))
    assert result.simultaneous
    strategy = result.policy(use_strategy=True)
    for k, p in enumerate(equilibrium):
        assert strategy.get(Pick(k), 0.0) == pytest.approx(p, abs=0.06)


def test_decoupled_uct_visits_lean_toward_the_mixed_equilibrium():
    # DUCT is not guaranteed to converge to a mixed equilibrium, but on this game its visits come close
    state = MatrixGame.new_initial_state({"scenario": "mixed2"}, 0)
    for player, eq in ((0, 3 / 7), (1, 2 / 7)):
        result = DUCTAgent(iterations=8000).analyse(decision(MatrixGame, state, player, 3))
        assert result.policy()[Pick(0)] == pytest.approx(eq, abs=0.15)


@pytest.mark.parametrize("sim", ["ucb", "rm"])
def test_simultaneous_search_finds_the_saddle_point(sim):
    state = MatrixGame.new_initial_state({"scenario": "dominant"}, 0)
    for player in (0, 1):
        agent = DUCTAgent(iterations=3000, sim=sim, final="max")
        assert agent.act(decision(MatrixGame, state, player, 5)) == Pick(0)


def test_the_mixed_choice_follows_the_strategy():
    state = MatrixGame.new_initial_state({"scenario": "biased_rps"}, 0)
    agent = DUCTAgent(iterations=600, sim="rm")
    counts = {Pick(k): 0 for k in range(3)}
    for seed in range(40):
        counts[agent.act(decision(MatrixGame, state, 0, seed))] += 1
    assert all(c > 0 for c in counts.values())  # it mixes
    assert counts[Pick(1)] == max(counts.values())


def test_multi_round_simultaneous_search_plays_legally():
    state = MatrixGame.new_initial_state({"scenario": "biased_rps", "rounds": 3}, 0)
    agent = DUCTAgent(iterations=500)
    while not state.is_terminal():
        chosen = [(p, agent.act(decision(MatrixGame, state, p, state.round))) for p in state.current_players()]
        for p, a in chosen:
            assert a in state.legal_actions(p)
            state.apply_action(p, a)
    assert state.round == 3


# --- budget, playouts, evaluation ---------------------------------------------------------------------------


def test_the_time_cap_is_a_safety_net():
    state = NimGame.new_initial_state({"heaps": "3,4,5"}, 0)
    agent = ISMCTSAgent(iterations=100_000, max_seconds=0.05)
    action = agent.act(decision(NimGame, state, 0))
    assert action in state.legal_actions(0)
    assert 0 < agent.last.iterations < 100_000
    assert agent.last.seconds < 1.0


def test_the_depth_cap_calls_the_evaluation_for_every_player():
    calls = []

    def evaluate(state, player):
        calls.append(player)
        return 2.0 if player == 0 else -3.0  # clamped into [-1, 1]

    state = NimGame.new_initial_state({"heaps": "3,4,5", "players": 3}, 0)
    values = playout(state.clone(), Rng(1), 0, None, evaluate)
    assert values == [1.0, -1.0, -1.0]
    assert calls == [0, 1, 2]


def test_a_rollout_policy_and_evaluation_steer_the_search():
    # one iteration per root action, scored at depth 0 by an evaluation that wants heap 0 emptied
    def evaluate(state, player):
        return (1.0 if state.heaps[0] == 0 else -1.0) * (1 if player == 0 else -1)

    used = []

    def policy(state, player, legal, rng):
        used.append(player)
        return legal[-1]

    state = NimGame.new_initial_state({"heaps": "2,3,5"}, 0)
    n = len(state.legal_actions(0))
    agent = MCTSAgent(iterations=n, max_depth=0, evaluate=evaluate, policy=policy)
    assert agent.act(decision(NimGame, state, 0)) == Take(0, 2)
    assert agent.last.stats[Take(0, 2)] == (1, 1.0, 0.0)
    assert not used
    agent = MCTSAgent(iterations=50, max_depth=3, policy=policy)
    agent.act(decision(NimGame, state, 0))
    assert set(used) == {0, 1}  # the playouts used the supplied policy for both players


def test_a_single_legal_action_is_returned_without_search():
    state = NimGame.new_initial_state({"heaps": "1"}, 0)
    agent = MCTSAgent(iterations=100)
    assert agent.act(decision(NimGame, state, 0)) == Take(0, 1)
    assert agent.last is None


# --- determinism ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [MCTSAgent, ISMCTSAgent, DUCTAgent])
def test_seeded_agents_are_deterministic(cls):
    state = MatrixGame.new_initial_state({"scenario": "biased_rps"}, 0)
    a = cls(iterations=500, sim="rm")
    b = cls(iterations=500, sim="rm")
    da, db = decision(MatrixGame, state, 1, 11), decision(MatrixGame, state, 1, 11)
    assert [a.act(da) for _ in range(5)] == [b.act(db) for _ in range(5)]
    assert a.last.stats == b.last.stats


def test_a_policy_that_needs_no_legal_list_is_called_directly():
    calls = []

    def direct(state, player, legal, rng):
        calls.append(legal)
        if len(calls) % 3 == 0:
            return None  # let the playout draw from the legal list
        if len(calls) % 3 == 1:
            return Take(0, 99)  # illegal: replaced by a random legal action
        return Take(next(i for i, h in enumerate(state.heaps) if h), 1)

    direct.needs_legal = False
    state = NimGame.new_initial_state({"heaps": "3,4,5"}, 0)
    values = playout(state, Rng(2), None, direct)
    assert state.is_terminal() and sorted(values) == [-1.0, 1.0]
    assert calls and all(legal is None for legal in calls)


# --- PUCT priors --------------------------------------------------------------------------------------------


def _nim_prior(target, weight):
    calls = []

    def prior(state, player, legal):
        calls.append(player)
        return [weight if a == target else (1 - weight) / len(legal) for a in legal]

    return prior, calls


def test_a_good_prior_finds_the_winning_move_with_a_small_budget():
    state = NimGame.new_initial_state({"heaps": "1,3,5"}, 0)
    prior, calls = _nim_prior(Take(2, 3), 0.6)
    agent = MCTSAgent(iterations=150, prior=prior)
    assert agent.act(decision(NimGame, state, 0, 1)) == Take(2, 3)
    assert len(calls) <= 150  # once per node, at its first visit


def test_the_search_overrides_a_misleading_prior():
    state = NimGame.new_initial_state({"heaps": "1,3,5"}, 0)
    prior, _ = _nim_prior(Take(0, 1), 0.5)  # a losing move
    for cls in (MCTSAgent, ISMCTSAgent):
        agent = cls(iterations=3000, prior=prior)
        assert agent.act(decision(NimGame, state, 0, 2)) == Take(2, 3)


def test_a_bot_prior_weights_the_bots_choice():
    from deltav.agents.rollout import BotPrior
    from deltav.core.agent import Agent

    class Last(Agent):
        def act(self, decision):
            return decision.legal_actions[-1]

    prior = BotPrior(Last, weight=0.5)
    state = NimGame.new_initial_state({"heaps": "2,2"}, 0)
    legal = state.legal_actions(0)
    weights = prior(state, 0, legal)
    assert weights[-1] == pytest.approx(0.5 + 0.5 / len(legal))
    assert sum(weights) == pytest.approx(1.0)
    agent = ISMCTSAgent(iterations=100, prior=prior)
    assert agent.act(decision(NimGame, state, 0)) in legal


@pytest.mark.parametrize("cls", [MCTSAgent, ISMCTSAgent])
def test_a_search_that_learns_nothing_does_not_favour_the_first_action(cls):
    # playouts cut at depth 0 with no evaluation: every return is 0, so the choice must be a random one
    state = NimGame.new_initial_state({"heaps": "2,3,5"}, 0)
    legal = state.legal_actions(0)
    chosen = [cls(iterations=13, max_depth=0).act(decision(NimGame, state, 0, seed)) for seed in range(40)]
    assert len(set(chosen)) >= 6
    assert chosen.count(legal[0]) <= 12
