"""Every game's briefing (``Game.briefing``) has the shape the briefing dialog reads (``check_briefing``), for
every scenario and player count, every seat and a spectator, with default and given names."""

from __future__ import annotations

import json

import pytest

from deltav.core.protocol import check_briefing
from tests.conformance.cases import case_id, configurations, game_of

CASES = configurations()


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_the_briefing_has_the_dialogs_shape(case):
    gid, opts = case
    game = game_of(gid)
    options = game.resolve_options(opts)
    n = game.num_players(options)
    for names in (None, [f"Name {p}" for p in range(n)]):
        for seat in (None, *range(n)):
            briefing = check_briefing(game.briefing(options, seat, names), n)
            json.dumps(briefing)
            if names is not None:
                assert [s["name"] for s in briefing["sides"]] == names
