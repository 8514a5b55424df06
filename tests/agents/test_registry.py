"""Agent specs, the bot registry, the presets, and whole matches played by every spec."""

from __future__ import annotations

import sys
import types

import pytest

from deltav.agents import (
    AgentSpecError,
    DUCTAgent,
    ISMCTSAgent,
    MCTSAgent,
    RandomAgent,
    available_specs,
    make_agent,
    parse_spec,
    resolve_preset,
)
from deltav.agents.presets import LEVELS, PRESETS, preset_for
from deltav.agents.rollout import BotPrior
from deltav.core.agent import Agent
from deltav.core.match import play_match
from deltav.core.protocol import Game
from tests.agents.games import GambleGame, MatrixGame, NimGame

# --- spec syntax -----------------------------------------------------------------------------------------------


def test_parse_spec():
    assert parse_spec("mcts") == ("mcts", {})
    assert parse_spec(" MCTS:iterations=500, c=0.7 ") == ("mcts", {"iterations": "500", "c": "0.7"})
    with pytest.raises(AgentSpecError, match="key=value"):
        parse_spec("mcts:iterations")
    with pytest.raises(AgentSpecError, match="twice"):
        parse_spec("mcts:c=1,c=2")
    with pytest.raises(AgentSpecError, match="empty"):
        parse_spec("  ")


def test_parameters_are_typed_and_checked():
    agent = make_agent(NimGame, "mcts:iterations=500,c=0.7,max_depth=none,worlds=3,sim=rm")
    assert isinstance(agent, MCTSAgent)
    assert agent.params["iterations"] == 500
    assert agent.params["c"] == 0.7
    assert agent.params["max_depth"] is None
    assert agent.params["sim"] == "rm"
    with pytest.raises(AgentSpecError, match="unknown parameter 'iters'"):
        make_agent(NimGame, "mcts:iters=5")
    with pytest.raises(AgentSpecError, match="not an integer"):
        make_agent(NimGame, "ismcts:iterations=lots")
    with pytest.raises(AgentSpecError, match="not one of"):
        make_agent(NimGame, "duct:sim=exp3")
    with pytest.raises(AgentSpecError, match="below the minimum"):
        make_agent(NimGame, "mcts:iterations=0")
    with pytest.raises(AgentSpecError, match="no parameters"):
        make_agent(NimGame, "random:x=1")


def test_generic_names_resolve():
    assert isinstance(make_agent(NimGame, "random"), RandomAgent)
    assert type(make_agent(NimGame, "mcts")) is MCTSAgent
    assert type(make_agent(NimGame, "ismcts")) is ISMCTSAgent
    assert type(make_agent(NimGame, "duct")) is DUCTAgent
    assert make_agent(NimGame, "duct").params["final"] == "mix"


def test_an_unknown_name_lists_the_available_specs():
    with pytest.raises(AgentSpecError) as info:
        make_agent(NimGame, "scripted")
    text = str(info.value)
    assert "bots.BOTS does not exist yet" in text
    for name in ("random", "mcts", "ismcts", "duct", "easy", "normal", "hard"):
        assert name in text


def test_search_specs_are_refused_for_a_game_without_determinizer():
    class Opaque(Game):
        id = "test-opaque"

    with pytest.raises(AgentSpecError, match="no determinizer"):
        make_agent(Opaque, "mcts")
    assert isinstance(make_agent(Opaque, "random"), RandomAgent)


# --- presets -----------------------------------------------------------------------------------------------------


def test_every_game_has_every_level_with_a_documented_budget():
    # this module's table (a game's own bots.PRESETS, where it has one, takes precedence: tested below)
    for gid in ("default", "tactical", "mining", "deepspace", "knighthawks"):
        for level in LEVELS:
            entry = PRESETS[gid][level]
            assert entry["budget"]
            for e in (entry, entry.get("fallback") or {}):
                if e.get("agent") in ("mcts", "ismcts", "duct"):
                    assert e["params"]["iterations"] >= 1
                    assert e["params"]["max_seconds"] <= 1.8  # hard stays under 2 s per decision
            if entry["agent"] not in ("mcts", "ismcts", "duct", "random"):
                assert entry["fallback"]["agent"] in ("mcts", "ismcts", "duct", "random")
    assert preset_for("no-such-game", "hard") == PRESETS["default"]["hard"]


def test_a_games_own_presets_take_precedence(fake_game, monkeypatch):
    game, _ = fake_game
    bots = sys.modules["deltav.games.fakegame.bots"]
    monkeypatch.setattr(bots, "PRESETS", {"hard": {"agent": "last", "params": {"reverse": True}, "budget": "0 ms"}},
                        raising=False)
    assert preset_for("fakegame", "hard")["agent"] == "last"
    assert preset_for("fakegame", "normal") == PRESETS["default"]["normal"]  # levels it does not define
    hard = make_agent(game, "hard")
    assert isinstance(hard, FirstLegal) and hard.reverse and hard.name == "hard"


def _strength(entry):
    """(search?, iterations of a search level, minus the share of random moves, minus the forgetting rate)."""
    search = entry["agent"] in ("mcts", "ismcts", "duct")
    params = entry.get("params", {})
    return (search, params.get("iterations", 0) if search else 0, -entry.get("epsilon", 0.0),
            -params.get("forget", 0.0))


def test_the_levels_grow_in_strength():
    for gid in ("default", "tactical", "mining", "deepspace", "knighthawks"):
        easy, normal, hard = (PRESETS[gid][level] for level in LEVELS)
        if gid == "default":
            easy = easy["fallback"]  # the generic table: compare the search fallback of easy
        assert _strength(easy) < _strength(normal) < _strength(hard), gid


def test_presets_fall_back_while_the_game_lacks_bots_and_heuristics():
    entry = resolve_preset("test-nim", "easy")
    assert entry["fallback_used"] and entry["agent"] == "ismcts"
    assert resolve_preset("test-nim", "hard")["heuristics_found"] == {"rollout": False, "evaluation": False}
    easy = make_agent(NimGame, "easy")
    assert isinstance(easy, ISMCTSAgent) and easy.name == "easy"
    hard = make_agent(NimGame, "hard:iterations=40")
    assert hard.params["iterations"] == 40 and hard.params["max_seconds"] == 1.8
    assert hard.evaluate is None and hard.policy is None


class FirstLegal(Agent):
    name = "first"

    def __init__(self, reverse: bool = False):
        assert isinstance(reverse, bool)
        self.reverse = reverse

    def act(self, decision):
        return decision.legal_actions[-1 if self.reverse else 0]


@pytest.fixture
def fake_game(monkeypatch):
    """A game package ``deltav.games.fakegame`` with its AI package ``bots`` and ``bots.heuristics`` (NimGame's rules)."""

    class FakeGame(NimGame):
        id = "fakegame"

    bots = types.ModuleType("deltav.games.fakegame.bots")
    bots.BOTS = {"scripted": FirstLegal, "last": FirstLegal}
    heur = types.ModuleType("deltav.games.fakegame.bots.heuristics")
    heur.evaluate = lambda state, player: 0.0
    heur.rollout_policy = lambda state, player, legal, rng: legal[0]
    monkeypatch.setitem(sys.modules, "deltav.games.fakegame", types.ModuleType("deltav.games.fakegame"))
    monkeypatch.setitem(sys.modules, "deltav.games.fakegame.bots", bots)
    monkeypatch.setitem(sys.modules, "deltav.games.fakegame.bots.heuristics", heur)
    return FakeGame, heur


def test_game_bots_and_heuristics_are_found(fake_game):
    game, heur = fake_game
    assert "scripted" in available_specs(game) and "last" in available_specs(game)
    easy = make_agent(game, "easy")
    assert isinstance(easy, FirstLegal) and easy.name == "easy"
    assert make_agent(game, "last:reverse=true").reverse
    noisy = make_agent(game, "last:reverse=true,epsilon=0.25")
    assert noisy.epsilon == 0.25 and noisy.base.reverse
    with pytest.raises(AgentSpecError, match="epsilon"):
        make_agent(game, "scripted:epsilon=2")
    with pytest.raises(AgentSpecError, match="does not accept"):
        make_agent(game, "scripted:depth=3")
    hard = make_agent(game, "hard")
    assert hard.evaluate is heur.evaluate and hard.policy is heur.rollout_policy
    assert resolve_preset("fakegame", "hard")["heuristics_found"] == {"rollout": True, "evaluation": True}


# --- whole matches ---------------------------------------------------------------------------------------------

SPECS = ["random", "mcts:iterations=60", "ismcts:iterations=60", "duct:iterations=60", "duct:iterations=60,sim=rm",
         "easy", "normal:iterations=40", "hard:iterations=60", "ismcts:iterations=60,pool=4,max_depth=2"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(
    "game,options",
    [(NimGame, {"heaps": "2,3,4"}), (NimGame, {"heaps": "2,2,3", "players": 3}), (GambleGame, {}),
     (MatrixGame, {"scenario": "biased_rps", "rounds": 3})],
    ids=["nim", "nim3", "gamble", "matrix"],
)
def test_every_spec_plays_whole_matches_legally_and_replays(game, options, spec):
    n = game.num_players(game.resolve_options(options))
    records = []
    for _ in range(2):
        agents = [make_agent(game, spec) for _ in range(n)]
        record, state, stats = play_match(game, options, 17, agents)  # raises AgentError on an illegal action
        assert state.is_terminal()
        records.append(record.to_json())
    assert records[0] == records[1]


@pytest.mark.parametrize("spec", ["mcts:iterations=40", "ismcts:iterations=40", "duct:iterations=40,sim=rm"])
def test_agents_play_the_core_toy_game(spec):
    # the core's toy game has a simultaneous bid, a die and private cards
    from tests.toygame import ToyGame

    for seed in range(3):
        agents = [make_agent(ToyGame, spec), make_agent(ToyGame, "random")]
        record, state, _ = play_match(ToyGame, {}, seed, agents)
        assert state.is_terminal()


def test_mcts_beats_random_at_nim():
    wins = 0
    for seed in range(6):
        seats = [make_agent(NimGame, "mcts:iterations=300"), RandomAgent()]
        if seed % 2:
            seats.reverse()
        record, state, _ = play_match(NimGame, {"heaps": "3,4,5"}, seed, seats)
        mcts_seat = 0 if seed % 2 == 0 else 1
        wins += state.result().winners == (mcts_seat,)
    assert wins >= 5


# --- wrappers and bot-driven playouts ----------------------------------------------------------------------


def test_epsilon_agent_mixes_random_moves_into_a_bot():
    from deltav.agents.noisy import EpsilonAgent
    from tests.agents.helpers import decision

    state = NimGame.new_initial_state({"heaps": "3,4,5"}, 0)
    legal = state.legal_actions(0)
    always = EpsilonAgent(FirstLegal(), 0.0)
    never = EpsilonAgent(FirstLegal(), 1.0)
    half = EpsilonAgent(FirstLegal(), 0.5)
    assert all(always.act(decision(NimGame, state, 0, s)) == legal[0] for s in range(20))
    picks = [half.act(decision(NimGame, state, 0, s)) for s in range(200)]
    assert all(a in legal for a in picks)
    assert 60 < sum(a == legal[0] for a in picks) < 160  # about half of them, plus random hits on legal[0]
    assert len({never.act(decision(NimGame, state, 0, s)) for s in range(50)}) > 3
    with pytest.raises(ValueError):
        EpsilonAgent(FirstLegal(), 1.5)


def test_presets_can_weaken_a_bot_and_drive_playouts_with_it(fake_game, monkeypatch):
    from deltav.agents import presets
    from deltav.agents.noisy import EpsilonAgent
    from deltav.agents.rollout import BotPolicy

    game, _ = fake_game
    table = {
        "easy": {"agent": "scripted", "epsilon": 0.4, "budget": "instant"},
        "normal": {"agent": "scripted", "budget": "instant"},
        "hard": {"agent": "ismcts", "params": {"iterations": 30}, "rollout": "bot:scripted", "budget": "x"},
    }
    monkeypatch.setitem(presets.PRESETS, "fakegame", table)
    easy = make_agent(game, "easy")
    assert isinstance(easy, EpsilonAgent) and easy.epsilon == 0.4 and isinstance(easy.base, FirstLegal)
    assert make_agent(game, "easy:epsilon=0").__class__ is FirstLegal
    hard = make_agent(game, "hard")
    assert isinstance(hard.policy, BotPolicy)
    assert resolve_preset("fakegame", "hard")["heuristics_found"] == {"rollout": True}
    record, state, _ = play_match(game, {"heaps": "2,3"}, 5, [hard, easy])
    assert state.is_terminal()
    assert hard.policy.bots and hard.policy.failures == 0


def test_a_bot_policy_survives_a_broken_bot():
    from deltav.agents.rollout import BotPolicy, playout
    from deltav.core.rng import Rng

    class Broken(Agent):
        def __init__(self):
            self.calls = 0

        def act(self, decision):
            self.calls += 1
            if self.calls % 2:
                raise RuntimeError("bug")
            return "not an action"

    policy = BotPolicy(Broken)
    state = NimGame.new_initial_state({"heaps": "3,4"}, 0)
    values = playout(state, Rng(3), None, policy)
    assert state.is_terminal() and sorted(values) == [-1.0, 1.0]
    assert policy.failures > 0


def test_bench_versus_and_wilson_interval():
    from deltav.agents.bench import _split_specs, versus, wilson

    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.404, abs=0.002) and hi == pytest.approx(0.596, abs=0.002)
    assert wilson(1.0, 10)[1] == 1.0
    assert _split_specs("mcts:iterations=5,c=1,hard") == ["mcts:iterations=5,c=1", "hard"]
    assert _split_specs("a;b:x=1,y=2") == ["a", "b:x=1,y=2"]
    f = versus(NimGame, {"heaps": "3,4,5"}, "mcts:iterations=200", "random", 4, 1)
    assert f["a_wins"] + f["b_wins"] + f["other"] == 4
    assert f["a_wins"] >= 3


def test_bench_gate_and_decision_sampling(capsys):
    from deltav.agents.bench import gate, sample_decisions

    assert gate({"test-nim": NimGame}, ["test-nim"], ["random", "mcts:iterations=20"], 1, matches=2) == 0
    out = capsys.readouterr().out
    assert out.count("ok ") == 2 and "FAIL" not in out

    class Liar(Agent):
        def act(self, decision):
            return "nonsense"

    class BadNim(NimGame):
        id = "test-badnim"

    bots = types.ModuleType("deltav.games.test-badnim.bots")
    bots.BOTS = {"liar": Liar}
    sys.modules["deltav.games.test-badnim.bots"] = bots
    try:
        assert gate({"test-badnim": BadNim}, ["test-badnim"], ["liar", "random"], 1) == 1
        assert "FAIL" in capsys.readouterr().out
    finally:
        del sys.modules["deltav.games.test-badnim.bots"]
    f = sample_decisions(NimGame, {"heaps": "3,4,5"}, "mcts:iterations=20", 5, 1, every=1)
    assert f["decisions"] == 5 and f["illegal"] == 0 and f["iterations_per_second"] > 0


def test_search_specs_name_game_knowledge(fake_game):
    game, heur = fake_game
    agent = make_agent(game, "ismcts:iterations=20,rollout=rollout_policy,evaluation=evaluate,prior=bot:scripted")
    assert agent.policy is heur.rollout_policy and agent.evaluate is heur.evaluate
    assert isinstance(agent.prior, BotPrior)
    assert make_agent(game, "mcts:rollout=bot:last").policy.factory is FirstLegal
    with pytest.raises(AgentSpecError, match="has no 'nothing'"):
        make_agent(game, "mcts:evaluation=nothing")
    record, state, _ = play_match(game, {"heaps": "2,3"}, 3, [agent, make_agent(game, "random")])
    assert state.is_terminal()


def test_a_scripted_bot_refusing_a_parameter_value_is_a_spec_error():
    """A value the bot's constructor refuses is the spec's error, naming the value (it was a raw ValueError)."""
    import deltav.games  # noqa: F401  (registers the games)

    deltav.games.load_all()
    with pytest.raises(AgentSpecError, match="sideways"):
        make_agent("knighthawks", "bot:admiral:move=sideways")
