"""Every registered game (and the toy) runs on the one phase mechanism (``deltav.core.phases``): over seeded random
playouts of every scenario, each position is in a declared phase, whose ``players`` are the deciders, every listed
action is of a kind the phase declares, an action of another kind gets the phase's own refusal (state unchanged),
and each decision leads to one of the phases the table declares for it."""

from __future__ import annotations

import pytest

from deltav.core.errors import IllegalAction
from deltav.core.phases import PhaseTable, check_transition
from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of

CASES = configurations()


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_play_follows_the_declared_phase_table(case):
    gid, opts = case
    game = game_of(gid)
    options = game.resolve_options(opts)
    table = None
    for k in range(4):
        state = game.new_initial_state(options, derive_seed(k, "phases"))
        table = type(state).phases
        assert isinstance(table, PhaseTable)
        rng = Rng(derive_seed(k, "phases", gid))
        kinds_probed = 0
        while not state.is_terminal():
            phase = table.phase_of(state)
            assert phase is not None
            if phase.players is not None:
                assert list(state.current_players()) == list(phase.players(state))
            p = state.current_players()[rng.below(len(state.current_players()))]
            legal = state.legal_actions(p)
            if phase.kinds:
                assert {type(a) for a in legal} <= set(phase.kinds), f"{gid} {phase.title}: unlisted kinds"
                other = [c for c in game.actions.classes.values() if c not in phase.kinds and not _fields(c)]
                if other and kinds_probed < 20:
                    kinds_probed += 1
                    before = state.to_json()
                    with pytest.raises(IllegalAction) as exc:
                        state.apply_action(p, other[0]())
                    assert exc.value.rule == phase.wrong_kind(state, p, other[0]()).rule
                    assert state.to_json() == before
            before_key = getattr(state, table.attr)
            state.apply_action(p, rng.choice(legal))
            check_transition(table, before_key, state)
        assert table.phase_of(state) is None and not state.current_players()


def _fields(cls) -> tuple:
    return getattr(cls, "__dataclass_fields__", {}) and tuple(cls.__dataclass_fields__)
