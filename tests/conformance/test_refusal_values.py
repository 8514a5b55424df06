"""A refusal never fails: an action whose integer fields hold a 5,000-digit number (a Python caller's action,
past the codec that bounds them in JSON) is refused by every game with an IllegalAction whose message can be
read, never a ValueError from printing the number (issue 32, item 12). Refusals quote untrusted values through
``deltav.core.jsonin.shown``."""

from __future__ import annotations

import dataclasses

import pytest

from deltav.core.errors import IllegalAction
from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of

CASES = configurations()
MAX_STEPS = 150
ACTIONS_PER_STEP = 12
HUGE = (10**5000, -(10**5000))


def _huge_variants(action):
    """``action`` with one integer field (or every item of a tuple of integers) replaced by a huge number."""
    for f in dataclasses.fields(action):
        v = getattr(action, f.name)
        if type(v) is int:
            values = HUGE
        elif isinstance(v, tuple) and v and all(type(x) is int for x in v):
            values = tuple(tuple(h for _ in v) for h in HUGE)
        else:
            continue
        for h in values:
            yield f.name, dataclasses.replace(action, **{f.name: h})


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_a_refusal_that_quotes_a_huge_number_is_still_a_refusal(case):
    gid, opts = case
    game = game_of(gid)
    state = game.new_initial_state(game.resolve_options(opts), 11)
    rng = Rng(derive_seed(11, "refusal-values"))
    failures: dict[tuple, str] = {}
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        for p in state.current_players():
            legal = state.legal_actions(p)
            for action in legal[:ACTIONS_PER_STEP]:
                for name, bad in _huge_variants(action):
                    try:
                        state.clone().apply_action(p, bad)
                    except IllegalAction as exc:
                        assert str(exc) and exc.message
                    except Exception as exc:  # noqa: BLE001 - the defect under test
                        failures.setdefault((type(action).__name__, name), f"{type(exc).__name__}: {exc}"[:200])
        players = list(state.current_players())
        p = players[rng.below(len(players))]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
    assert not failures, f"{gid} {opts}: refusals that failed: {failures}"
