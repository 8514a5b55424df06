"""Integer actions: along seeded random playouts of every scenario of every game, each legal action encodes
into [0, n), decodes back to an equal action, no two legal actions share an integer, and the mask marks exactly
the legal ones. The numbering is fixed per configuration (same n from every seed and position)."""

from __future__ import annotations

import importlib

import pytest

from deltav.core import Rng, get_game
from deltav.core.errors import MalformedAction
from deltav.games import load_all

load_all()

GAMES = ("mining", "knighthawks", "deepspace", "tactical")
CASES = [(g, s.id) for g in GAMES for s in get_game(g).scenarios()]
STEPS = 200  # decisions per playout (enough to reach every phase of the shorter games)


def encoding(game_id: str):
    return importlib.import_module(f"deltav.games.{game_id}.encoding")


@pytest.mark.parametrize(("game_id", "scenario"), CASES)
def test_legal_actions_round_trip(game_id, scenario):
    game = get_game(game_id)
    enc = encoding(game_id)
    opts = game.resolve_options({"scenario": scenario})
    for seed in (1, 2):
        state = game.new_initial_state(opts, seed)
        n = enc.num_distinct_actions(state)
        rng = Rng(seed)
        for step in range(STEPS):
            if state.is_terminal():
                break
            assert enc.num_distinct_actions(state) == n
            p = state.current_players()[0]
            legal = state.legal_actions(p)
            codes = [enc.encode(state, a, p) for a in legal]
            assert all(0 <= c < n for c in codes)
            assert len(set(codes)) == len(codes), "two legal actions share an integer"
            for a, c in zip(legal, codes):
                assert enc.decode(state, c, p) == a
            if n <= 200_000 and step % 7 == 0:
                mask = enc.legal_mask(state, p)
                assert len(mask) == n and sum(mask) == len(legal)
                assert sorted(i for i, x in enumerate(mask) if x) == sorted(codes)
            state.apply_action(p, legal[rng.below(len(legal))])


@pytest.mark.parametrize("game_id", GAMES)
def test_out_of_range_is_refused(game_id):
    game = get_game(game_id)
    enc = encoding(game_id)
    state = game.new_initial_state(game.resolve_options({}), 0)
    n = enc.num_distinct_actions(state)
    for bad in (-1, n, 1.5, "3"):
        with pytest.raises(MalformedAction):
            enc.decode(state, bad, state.current_players()[0])


BOT_CASES = [("tactical", "convoy"), ("tactical", "fleet_action"), ("tactical", "escape"), ("knighthawks", "fleet_battle"),
             ("deepspace", "melee"), ("mining", "standard")]


@pytest.mark.parametrize(("game_id", "scenario"), BOT_CASES)
def test_bot_games_round_trip(game_id, scenario):
    """Bots reach the phases random play rarely does (combat, logistics, repairs)."""
    from deltav.agents.registry import make_agent
    from deltav.core.match import play_match

    game = get_game(game_id)
    enc = encoding(game_id)
    seen: set[str] = set()

    def check(step, state, events):
        for p in state.current_players():
            legal = state.legal_actions(p)
            codes = {enc.encode(state, a, p): a for a in legal}
            assert len(codes) == len(legal)
            for c, a in codes.items():
                assert enc.decode(state, c, p) == a
                seen.add(a.TYPE)

    opts = {"scenario": scenario}
    if game_id == "tactical":
        opts["turn_limit"] = 12
    if game_id == "deepspace":
        opts["round_limit"] = 6  # every ship is asked about self-destruction each round: keep the match short
    n = game.num_players(game.resolve_options(opts))
    play_match(game, opts, 3, [make_agent(game_id, "scripted") for _ in range(n)], max_steps=600, on_step=check)
    assert len(seen) >= 3, seen
    print(game_id, sorted(seen))
