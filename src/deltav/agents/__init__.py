"""Generic search agents and the bot registry.

- :func:`make_agent` (``make_agent("mining", "hard")``, ``make_agent("tactical", "mcts:iterations=500")``)
  resolves a spec into an :class:`~deltav.core.agent.Agent`; :func:`available_specs` lists the names.
- :class:`MCTSAgent` (determinized MCTS / PIMC), :class:`ISMCTSAgent` (SO-ISMCTS), :class:`DUCTAgent`
  (simultaneous moves: decoupled UCT or regret matching) search sampled worlds only, never the true state.
- Presets ``easy`` / ``normal`` / ``hard`` per game are data in :mod:`deltav.agents.presets`.

See ``docs/agents.md``. This package knows the protocol only; game-specific bots and heuristics live with
their game (its AI package ``deltav.games.<id>.bots``, with ``bots/heuristics.py``).
"""

from deltav.agents.mcts import DUCTAgent, ISMCTSAgent, MCTSAgent, SearchAgent, SearchResult, SearchUnavailable
from deltav.agents.registry import available_specs, game_bots, make_agent, resolve_preset
from deltav.agents.rollout import Evaluation, RolloutPolicy, playout, random_policy
from deltav.agents.spec import AgentSpecError, Param, parse_spec
from deltav.core.agent import Agent, RandomAgent

__all__ = [
    "Agent",
    "AgentSpecError",
    "DUCTAgent",
    "Evaluation",
    "ISMCTSAgent",
    "MCTSAgent",
    "Param",
    "RandomAgent",
    "RolloutPolicy",
    "SearchAgent",
    "SearchResult",
    "SearchUnavailable",
    "available_specs",
    "game_bots",
    "make_agent",
    "parse_spec",
    "playout",
    "random_policy",
    "resolve_preset",
]
