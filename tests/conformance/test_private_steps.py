"""A private step changes no other seat's view: along seeded random playouts of every scenario of every game.

The rule. Let a step be player p applying an action, producing events E, and let q be an observer: another
player, or a spectator (None). The step is *private for q* when no event of E is visible to q
(``Event.visible_to(q)``) and either E is not empty (it told someone else something) or the step was taken at a
simultaneous node (several players deciding: secret plotting). After a step that is private for q, ``view(q)``
must be exactly what it was, unless the step changed who decides (the set of ``current_players()``): then q may
see that a simultaneous plot was submitted, or that the turn passed.

What the rule leaves alone: steps that produce no event at all outside a simultaneous node are the public steps
of a decomposed order (a course or a fire declaration built in the open, as in knighthawks); a game that builds
a secret order step by step must either take those steps at a simultaneous node or emit private events, and
then the rule holds it.

What it catches (issue 18): knighthawks `lay` (a trap laid privately, event to the layer only) showing
`mine_counter`/`hidden_mines` rise in the opponent's view while the same player keeps deciding; tactical
`launch` of an undetected ship (a private `ordnance_launched`) showing the ordnance, `add_attacker` of a hidden
ship changing the visible combat group, and a transfer from a hidden ship changing the receiving ship; and for
spectators, tactical secret fleet purchases (`buy`) and secret orders (`order`) appearing in `view(None)`.
"""

from __future__ import annotations

import pytest

from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of
from tests.conformance.hidden import private_step_leaks

CASES = configurations()
PLAYOUTS = 2
MAX_STEPS = 1200


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_private_steps_change_no_other_view(case):
    gid, opts = case
    game = game_of(gid)
    found = []
    for k in range(PLAYOUTS):
        seed = 3000 + k
        state = game.new_initial_state(game.resolve_options(opts), seed)
        rng = Rng(derive_seed(seed, "private-steps"))
        step = 0
        while not state.is_terminal() and step < MAX_STEPS:
            players = list(state.current_players())
            p = players[rng.below(len(players))]
            _, problems = private_step_leaks(state, p, rng.choice(state.legal_actions(p)))
            found += [f"seed {seed} step {step}: {x}" for x in problems]
            step += 1
    assert not found, f"{gid} {opts}: {len(found)} views changed by private steps, first: {found[0]}"
