"""Every game's match summary (``Game.match_summary``) has the shape the result screen reads
(``protocol.check_summary``): at the end of a seeded random playout of every scenario (finished by the rules,
or cut short, as a match ended by a resignation is), from every event of the match and the seats' names."""

from __future__ import annotations

import json

import pytest

from deltav.core.protocol import MatchEvents, check_summary, default_names
from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of

CASES = configurations()
MAX_STEPS = 1500


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_the_match_summary_has_the_result_screens_shape(case):
    gid, opts = case
    game = game_of(gid)
    for seed, limit in ((4000, MAX_STEPS), (4001, 25)):  # a whole match, and one cut short (an ending)
        state = game.new_initial_state(game.resolve_options(opts), seed)
        rng = Rng(derive_seed(seed, "summary"))
        events, decisions = [], [0] * state.num_players
        while not state.is_terminal() and sum(decisions) < limit:
            players = list(state.current_players())
            p = players[rng.below(len(players))]
            events += state.apply_action(p, rng.choice(state.legal_actions(p)))
            decisions[p] += 1
        names = default_names(state.num_players)
        before = json.dumps(state.to_json(), sort_keys=True)
        summary = check_summary(game.match_summary(state, MatchEvents(events, decisions), names), state.num_players)
        json.dumps(summary)  # plain JSON
        assert json.dumps(state.to_json(), sort_keys=True) == before, "the summary changed the state"
