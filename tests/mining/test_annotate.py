"""The notes the mining engine puts on legal entries for clients (``annotate.py``): they repeat only what the
deciding player may know. The strongest check: a world sampled from the player's view alone (the sampler builds
it from the view, so any hidden tile is reshuffled) gives exactly the same notes as the true state."""

from __future__ import annotations

import json
import random

from deltav.core import Rng, get_game
from deltav.core.protocol import json_tokens
from deltav.core.session import Session
from deltav.games import load_all
from deltav.games.mining.annotate import annotate
from deltav.games.mining.visibility import squares_of

load_all()
GAME = get_game("mining")


def walk(players: int, seed: int, steps: int = 400):
    """(state, player, legal) at every decision of a random game."""
    state = GAME.new_initial_state({"players": players}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        yield state, p, legal
        state.apply_action(p, rng.choice(legal))


def test_notes_depend_only_on_the_players_view():
    checked = 0
    for seed in range(4):
        for state, p, legal in walk(3, seed):
            notes = annotate(state, p, legal)
            world = GAME.determinize(state.view(p), p, Rng(seed * 1000 + checked))
            assert world.view(p) == state.view(p)
            assert annotate(world, p, world.legal_actions(p)) == notes, (seed, state.view(p)["phase"])
            checked += 1
    assert checked > 500


def test_notes_never_hold_a_secret_token():
    found = set()
    for seed in range(4):
        for state, p, legal in walk(3, seed):
            notes = annotate(state, p, legal)
            if notes is None:
                continue
            found |= {next(iter(n)) for n in notes if n}
            secrets = state.secret_tokens(p)
            assert not (json_tokens(notes) & secrets)
            assert all(n is None or json.dumps(n).isascii() for n in notes)
    assert {"square", "need", "freezes"} <= found


def test_reveal_notes_say_what_happens():
    """A known tile noted as fitting is matched when revealed; one noted as not fitting is a mismatch; the
    chance of an unknown square is a probability, the same for every unknown square."""
    fits_seen = misfits_seen = chances = 0
    for seed in range(8):
        for state, p, legal in walk(2, seed, 600):
            if state.view(p)["phase"] != "reveal":
                continue
            notes = annotate(state, p, legal)
            assert notes is not None
            unknown = {n["chance"] for n in notes if n and n["known"] is None}
            assert len(unknown) <= 1 and all(0 <= c <= 1 for c in unknown)
            chances += len(unknown)
            for a, n in zip(legal, notes, strict=True):
                if n["known"] is None or n["known"]["kind"] not in ("alphatite", "betamite", "gammatite",
                                                                    "deltamite", "omnidium"):
                    continue
                after = state.clone()
                after.apply_action(p, a)
                v = after.view(p)
                mismatch = v["attempt"] is not None and v["attempt"]["mismatch"] == a.square
                failed = v["attempt"] is None and v["phase"] != "bid-up-window" and not n["fits"]
                if n["fits"]:
                    fits_seen += 1
                    assert not mismatch
                else:
                    misfits_seen += 1
                    assert mismatch or failed or v["phase"] == "replace"
    assert fits_seen and misfits_seen and chances


def test_declare_plans_use_known_tiles_that_complete_the_contract():
    plans = 0
    for seed in range(6):
        for state, p, legal in walk(2, seed, 600):
            if state.view(p)["phase"] != "attempt":
                continue
            view = state.view(p)
            notes = annotate(state, p, legal)
            for a, n in zip(legal, notes or [None] * len(legal), strict=True):
                if n is None or "plan" not in n or n["plan"] is None:
                    continue
                plans += 1
                contract = next(c for c in view["contracts"] if c["id"] == a.contract)
                assert len(n["plan"]) == len(contract["minerals"])
                for sq in n["plan"]:
                    assert squares_of(view)[sq]["tile"] is not None  # the player knows it
    assert plans


def test_the_session_puts_notes_on_legal_entries():
    s = Session(GAME, {"players": 2}, 3, ["a", "b"])
    p = s.snapshot(None)["deciding"][0]["seat"]
    s.submit(p, s.snapshot(p)["legal"][0]["action"], expected_step=0)
    for _ in range(60):
        env = s.snapshot(s.snapshot(None)["deciding"][0]["seat"])
        if env["view"]["phase"] == "attempt":
            assert all("need" in e["note"] for e in env["legal"] if e["action"]["type"] == "declare")
            return
        s.submit(env["seat"], env["legal"][-1]["action"], expected_step=env["step"])
    raise AssertionError("no attempt phase reached")
