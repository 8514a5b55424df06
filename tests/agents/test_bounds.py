"""Every bot parameter is bounded (issue 32, item 1): each bot and preset of every game declares its parameters
with types and bounds, bad values (2000000000 iterations, nan, inf, negative, wrong type, absurd text) are
refused with the parameter's name wherever a spec is read (the registry; the CLI and the server build agents
through it), and a decision run under a budget (the server's bot workers) stops at it with a legal action."""

from __future__ import annotations

import inspect
import subprocess
import sys
import time

import pytest

from deltav.agents import AgentSpecError, ISMCTSAgent, MCTSAgent, make_agent
from deltav.agents.budget import Budget, limited
from deltav.agents.mcts import MAX_ITERATIONS
from deltav.agents.registry import SEARCH_AGENTS, bot_params, game_bots
from deltav.core.agent import Param
from deltav.games import load_all
from tests.agents.games import NimGame
from tests.agents.helpers import decision
from tests.server.helpers import ROOT

GAMES = sorted(gid for gid, g in load_all().items() if g.__module__.startswith("deltav.games."))
BOTS = [(gid, name, cls) for gid in GAMES for name, cls in sorted(game_bots(gid).items())]


def _numeric(params: dict[str, Param]) -> list[tuple[str, Param]]:
    return [(n, p) for n, p in params.items() if p.kind in (int, float)]


@pytest.mark.parametrize("gid,name,cls", BOTS, ids=[f"{g}-{n}" for g, n, _ in BOTS])
def test_every_game_bot_declares_every_parameter_with_bounds(gid, name, cls):
    declared = next((vars(k)["PARAMS"] for k in cls.__mro__ if "PARAMS" in vars(k)), None)
    assert declared is not None, f"{cls.__name__} declares no PARAMS"
    taken = {n for n, p in inspect.signature(cls.__init__).parameters.items()
             if n != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    assert set(bot_params(cls)) == taken, f"{cls.__name__}: PARAMS {sorted(bot_params(cls))} != constructor {sorted(taken)}"
    sig = inspect.signature(cls.__init__).parameters
    for n, p in bot_params(cls).items():
        assert p.doc, f"{cls.__name__}.{n} has no description"
        assert p.default == sig[n].default, f"{cls.__name__}.{n}: default {p.default!r} != {sig[n].default!r}"
        if p.kind in (int, float):
            assert p.minimum is not None and p.maximum is not None, f"{cls.__name__}.{n} is unbounded"
            assert p.default is None or p.minimum <= p.default <= p.maximum


def test_every_search_parameter_is_bounded_and_iterations_are_capped():
    for cls in SEARCH_AGENTS.values():
        for n, p in _numeric(cls.PARAMS):
            assert p.minimum is not None and p.maximum is not None, f"{cls.__name__}.{n} is unbounded"
    assert MCTSAgent.PARAMS["iterations"].maximum == MAX_ITERATIONS


BAD = ["2000000000", "nan", "inf", "-inf", "-1e9", "lots", "9" * 90, "1e999", "1_000_000"]


def _specs_with_numbers() -> list[tuple[str, str, str]]:
    """(game, agent name, parameter) for every numeric parameter a spec can set in every game."""
    out = []
    for gid in GAMES:
        for name in SEARCH_AGENTS:
            out += [(gid, name, n) for n, _ in _numeric(SEARCH_AGENTS[name].PARAMS)]
        out += [(gid, "hard", "epsilon")]
        for name, cls in sorted(game_bots(gid).items()):
            out += [(gid, name, n) for n, _ in _numeric(bot_params(cls))] + [(gid, name, "epsilon")]
    return out


CASES = _specs_with_numbers()


@pytest.mark.parametrize("gid,name,param", CASES, ids=[f"{g}-{n}-{p}" for g, n, p in CASES])
def test_bad_values_are_refused_with_the_parameters_name(gid, name, param):
    for bad in BAD:
        if param in ("max_depth", "capacity", "max_seconds") and bad == "none":
            continue
        with pytest.raises(AgentSpecError, match=f"parameter '{param}'"):
            make_agent(gid, f"{name}:{param}={bad}")


def test_wrong_types_and_absurd_text_are_refused_too():
    for spec, word in [("mcts:sim=exp3", "'sim'"), ("level:level=" + "x" * 150, "'level'"),
                       ("admiral:move=sideways", "'move'"), ("planner:search=maybe", "'search'"),
                       ("mcts:" + "c=1," * 200, "characters"), ("scripted:forget=[1]", "'forget'")]:
        gid = {"level": "tactical", "admiral": "knighthawks", "planner": "deepspace"}.get(spec.split(":")[0], "mining")
        with pytest.raises(AgentSpecError, match=word):
            make_agent(gid, spec)
    with pytest.raises(AgentSpecError, match="does not accept"):
        make_agent("knighthawks", "tactician:depth=3")


def test_the_cli_refuses_an_unbounded_bot_naming_the_parameter():
    out = subprocess.run([sys.executable, "-m", "deltav.cli", "play", "mining", "--seat", "0=bot:mcts:iterations=2000000000"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120, env={"PYTHONPATH": str(ROOT / "src")})
    assert out.returncode != 0 and "parameter 'iterations'" in out.stderr + out.stdout, out


def test_a_search_under_a_budget_stops_at_its_iterations_and_its_cpu_time():
    state = NimGame.new_initial_state({"heaps": "3,4,5,6,7"}, 0)
    agent = ISMCTSAgent(iterations=MAX_ITERATIONS)
    with limited(Budget(iterations=50)):
        action = agent.act(decision(NimGame, state, 0))
    assert action in state.legal_actions(0) and agent.last.iterations == 50
    agent = MCTSAgent(iterations=MAX_ITERATIONS, worlds=4)
    t0 = time.thread_time()
    with limited(Budget(seconds=0.2)):
        action = agent.act(decision(NimGame, state, 0))
    used = time.thread_time() - t0
    assert action in state.legal_actions(0)
    assert 0 < agent.last.iterations < MAX_ITERATIONS and used < 5.0  # cut near 0.2 s of CPU, not 100,000 iterations


def test_docs_list_every_bot_parameter_with_its_bounds():
    doc = (ROOT / "docs" / "agents.md").read_text()
    missing = [f"{gid} {name}.{n}" for gid, name, cls in BOTS for n, p in bot_params(cls).items()
               if f"`{n}` {p.bounds()}" not in doc]
    assert not missing, f"docs/agents.md does not list: {missing}"
