"""The bot gate (issue 8): every scenario of every game played bot-vs-bot with the difficulty presets, hard
and easy mixed, in both seat orders. Any rejected bot action (AgentError) or engine error fails the suite.

Each game's own bot tests go deeper; this gate is the cross-game guarantee that no preset ever submits an
illegal action in any scenario the project ships."""

from __future__ import annotations

import pytest

from deltav.agents import make_agent
from deltav.core.match import play_match
from tests.conformance.cases import case_id, configurations, game_of

CASES = [c for c in configurations() if c[0] != "toy"]


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_presets_play_every_scenario_without_a_rejected_action(case):
    gid, opts = case
    game = game_of(gid)
    n = game.num_players(game.resolve_options(opts))
    for k, levels in enumerate((["hard", "easy"], ["easy", "hard"])):
        specs = [levels[p % 2] for p in range(n)]
        agents = [make_agent(gid, s) for s in specs]
        record, state, _ = play_match(game, opts, 500 + k, agents, [f"bot:{s}" for s in specs])
        assert state.is_terminal()
        assert record.result is not None and record.result["reason"]
