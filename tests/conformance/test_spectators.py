"""A spectator sees only public information: along seeded random playouts of every scenario of every game,
``view(None)`` holds no token of ``secret_tokens(None)`` and, for every player p, no token of
``secret_tokens(p)``: nothing any single player may not see may be shown to a spectator. Full-information
viewing belongs to replays of finished matches."""

from __future__ import annotations

import pytest

from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of
from tests.conformance.hidden import spectator_leaks

CASES = configurations()
PLAYOUTS = 2
CHECK_EVERY = 3
MAX_STEPS = 1500


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_spectators_see_no_secret(case):
    gid, opts = case
    game = game_of(gid)
    found = []
    for k in range(PLAYOUTS):
        seed = 2000 + k
        state = game.new_initial_state(game.resolve_options(opts), seed)
        rng = Rng(derive_seed(seed, "spectators"))
        step = 0
        while not state.is_terminal() and step < MAX_STEPS:
            if step % CHECK_EVERY == 0:
                leaked = spectator_leaks(state)
                if leaked:
                    found.append(f"seed {seed} step {step}: view(None) shows {sorted(leaked)[:5]}")
            players = list(state.current_players())
            p = players[rng.below(len(players))]
            state.apply_action(p, rng.choice(state.legal_actions(p)))
            step += 1
        if spectator_leaks(state):
            found.append(f"seed {seed} final state: view(None) shows {sorted(spectator_leaks(state))[:5]}")
    assert not found, f"{gid} {opts}: {len(found)} spectator leaks, first: {found[0]}"
