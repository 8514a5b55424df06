"""Properties over random games: conservation of tiles, rockets and counters; legal actions are exactly the
accepted ones; views never leak; JSON round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deltav.core.errors import IllegalAction
from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining.messages import (
    BidUp,
    Declare,
    Discard,
    Look,
    Move,
    MoveAlien,
    Replace,
    Reveal,
    Sabotage,
    Steal,
    Survey,
)
from deltav.games.mining.scenarios import SQUARES

PROBES = [Look(s) for s in range(0, 49, 5)] + [Reveal(s) for s in range(0, 49, 6)] + [
    Move(24, 3), Move(3, 24), Move(24, 10, 1), MoveAlien(24), MoveAlien(9), Declare("C03"), Declare("C99"),
    Survey("b0-alphatite"), Survey("b1-omnidium"), Replace("b0-betamite"), BidUp("b1-gammatite"),
    Steal("b1-alphatite"), Steal("t03"), Discard("t40"), Sabotage(1, 24),
]


def invariants(s):
    cfg = s.cfg
    on_board = [t for t in s.squares if t >= 0]
    in_hands = [t for h in s.hands for t, _ in h]
    collected = [t for c in s.collected for t, _ in c]
    assert sorted(on_board + in_hands + collected + s.discarded) == list(range(len(cfg.kinds)))
    for p in range(s.num_players):
        assert sum(s.rockets[p * SQUARES:(p + 1) * SQUARES]) + s.shipyards[p] == cfg.rockets
        assert all(c >= 0 for c in s.rockets[p * SQUARES:(p + 1) * SQUARES])
    assert s.aliens == bin(s.faceup).count("1")


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.sampled_from(["standard", "variant-b"]))
def test_random_games_keep_the_invariants(seed, players, scenario):
    s = MiningGame.new_initial_state({"players": players, "scenario": scenario}, seed)
    rng = Rng(seed)
    steps = 0
    while not s.is_terminal():
        invariants(s)
        p = s.current_players()[0]
        legal = s.legal_actions(p)
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        if steps % 5 == 0:
            for probe in PROBES:
                twin = s.clone()
                try:
                    twin.apply_action(p, probe)
                    # listed, or a listed choice in other words (a steal naming no victim, a tile of a listed kind)
                    assert probe in legal or s.same_choice(p, probe), f"{probe} accepted but not listed"
                except IllegalAction as err:
                    assert probe not in legal, f"{probe} listed but refused: {err}"
                    assert err.rule.startswith(("mining.", "protocol."))
            for q in (None, *range(players)):
                assert not s.secret_tokens(q) & json_tokens(s.view(q))
        s.apply_action(p, rng.choice(legal))
        steps += 1
    invariants(s)
    again = MiningGame.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.to_json() == s.to_json() and again.result() == s.result()


@pytest.mark.parametrize("opts", [
    {"bump": "all", "overmatch": "ignored", "incident_ends_attempt": False, "skip_empty_windows": False},
    {"mandatory_contract_attempt": True, "survey_short_lines": False, "asteroid_to_asteroid": True,
     "omnidium_bid_up": "not_allowed", "stolen_bribe": "discarded", "full_tie": "draw"},
    {"incident_cooldown": False, "scan_counts_station_rockets": False, "sabotage_any_rocket": False,
     "alien_tiles_count_for_end": True, "revealed_tiles_known": False, "bid_up": False},
])
def test_every_ruling_alternative_plays_to_the_end(opts):
    for seed in range(3):
        s = MiningGame.new_initial_state({"players": 3, "scenario": "variant-b", **opts}, seed)
        rng = Rng(seed)
        bound = MiningGame.max_decisions(MiningGame.resolve_options({"players": 3, "scenario": "variant-b", **opts}))
        steps = 0
        while not s.is_terminal():
            p = s.current_players()[0]
            s.apply_action(p, rng.choice(s.legal_actions(p)))
            steps += 1
            assert steps <= bound
        invariants(s)
