"""Two different legal actions of one decision never read alike: the words a page puts on a button
(``Game.describer``) tell every choice apart, as OpenSpiel's ``random_sim_test`` also demands of
``action_to_string`` (found when a heavy cruiser's two laser batteries both read "fire its laser battery"). Checked
at every decision of a seeded random playout of every scenario of every game."""

from __future__ import annotations

from collections import defaultdict

import pytest

from deltav.core.protocol import default_names
from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of

CASES = configurations()
MAX_STEPS = 400
# 4100 met two of a Knight Hawks ship's seekers and two Mineral Scans of one hand, 1 and 2 more of them, 11 two of
# Io's weak-gravity hexes on one tactical course
SEEDS = (4100, 1, 2, 11)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_no_two_legal_actions_of_a_decision_read_alike(case, seed):
    gid, opts = case
    game = game_of(gid)
    options = game.resolve_options(opts)
    state = game.new_initial_state(options, seed)
    describe = game.describer(options, default_names(state.num_players))
    rng = Rng(derive_seed(seed, "words"))
    steps = 0
    while not state.is_terminal() and steps < MAX_STEPS:
        for p in state.current_players():
            by_text = defaultdict(list)
            for a in state.legal_actions(p):
                by_text[describe(a)].append(a)
            alike = {t: [a.to_json() for a in acts] for t, acts in by_text.items() if len(acts) > 1}
            assert not alike, f"step {steps}, seat {p}: different actions read alike: {alike}"
        players = list(state.current_players())
        p = players[rng.below(len(players))]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
        steps += 1
