"""The conformance suite every registered game must pass, parametrised over the registry: a new game is
checked without new test code.

Over seeded random playouts of every scenario it checks that some player can always act, that games end
within the documented bound, that illegal and malformed actions are rejected without changing the state,
that clones are independent and JSON round-trips exactly, that seeds replay event for event, that records
replay and tampering is caught, and that no view contains another player's secrets.
"""

from __future__ import annotations

import copy
import json

import pytest

from deltav.core.errors import IllegalAction, RecordError
from deltav.core.protocol import json_tokens
from deltav.core.records import MatchRecord, replay
from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of
from tests.view_check import scribble

CASES = configurations()
PLAYOUTS = 2  # seeded random playouts per configuration (more run in the slow suite)
CHECK_EVERY = 7  # deep checks (clone, JSON, mutations, secrets) every k-th decision


def _random_playout(gid, opts, seed, deep=True, stats=None):
    """Play one random game, checking the per-node properties; returns the list of (player, action, events)."""
    game = game_of(gid)
    options = game.resolve_options(opts)
    state = game.new_initial_state(options, seed)
    rng = Rng(derive_seed(seed, "conformance"))
    bound = game.max_decisions(options)
    trace = []
    step = 0
    while not state.is_terminal():
        players = list(state.current_players())
        assert players, f"{gid}: non-terminal node with nobody to act at step {step}"
        legal_by_player = {}
        for p in players:
            legal = state.legal_actions(p)
            assert legal, f"{gid}: player {p} must act but has no legal action at step {step}"
            legal_by_player[p] = legal
        if deep and step % CHECK_EVERY == 0:
            _deep_checks(game, state, players, legal_by_player, rng, stats)
        p = players[rng.below(len(players))]
        action = rng.choice(legal_by_player[p])
        events = state.apply_action(p, action)
        for e in events:
            decoded = game.events.decode(json.loads(json.dumps(e.to_json())))
            assert decoded == e, f"{gid}: event does not round-trip through its JSON form: {e}"
        trace.append((p, action.to_json(), [e.to_json() for e in events]))
        step += 1
        assert step <= bound, f"{gid} {opts}: no end after {bound} decisions (the documented bound)"
    result = state.result()
    assert result is not None, f"{gid}: terminal state without a result"
    assert len(state.returns()) == state.num_players
    assert not state.current_players(), f"{gid}: terminal state still asks for decisions"
    for p in range(state.num_players):
        assert state.legal_actions(p) == [], f"{gid}: terminal state offers actions to player {p}"
    return trace, state


def _deep_checks(game, state, players, legal_by_player, rng, stats):
    before = state.to_json()
    before_text = json.dumps(before, sort_keys=True)

    # JSON round trip
    again = game.state_from_json(json.loads(before_text))
    assert json.dumps(again.to_json(), sort_keys=True) == before_text, f"{game.id}: from_json(to_json(s)) != s"
    for p in list(range(state.num_players)) + [None]:
        assert again.view(p) == state.view(p), f"{game.id}: view({p}) changes after a JSON round trip"

    # clone independence
    twin = state.clone()
    p = players[0]
    twin.apply_action(p, rng.choice(legal_by_player[p]))
    assert json.dumps(state.to_json(), sort_keys=True) == before_text, f"{game.id}: a clone shares state with its original"

    # malformed and illegal actions are rejected and change nothing
    for bad_player, bad in _bad_actions(game, state, players, legal_by_player, rng):
        legal_set = set(legal_by_player.get(bad_player, []))
        try:
            action = game.action_from_json(bad)
        except IllegalAction:
            continue
        if bad_player in legal_by_player and (action in legal_set or state.same_choice(bad_player, action)):
            continue  # the mutation happened to produce a legal action (or another name of one: State.same_choice)
        with pytest.raises(IllegalAction):
            state.apply_action(bad_player, action)
        after = json.dumps(state.to_json(), sort_keys=True)
        assert after == before_text, f"{game.id}: rejected action {bad} changed the state"

    # secrets: no view contains another player's secrets; determinized worlds keep the view
    for viewer in list(range(state.num_players)) + [None]:
        view = state.view(viewer)
        text = json.dumps(view, sort_keys=True)  # views are plain JSON
        tokens = state.secret_tokens(viewer)
        if stats is not None and tokens:
            stats["secrets"] = stats.get("secrets", 0) + 1
        leaked = tokens & json_tokens(json.loads(text))
        assert not leaked, f"{game.id}: view({viewer}) leaks secrets {sorted(leaked)[:5]}"
        if viewer is not None and game.has_hidden_information:
            world = game.determinize(copy.deepcopy(view), viewer, Rng(rng.next64()))
            assert world.view(viewer) == view, f"{game.id}: a determinized world changes player {viewer}'s view"
            assert json.dumps(state.to_json(), sort_keys=True) == before_text

    # a view cannot be used to change the state: its shared (read-only) records refuse every change, and
    # changing what is fresh in it changes neither the state nor a later view
    for viewer in list(range(state.num_players)) + [None]:
        view = state.view(viewer)
        text = json.dumps(view, sort_keys=True)
        scribble(view, f"{game.id} view({viewer})")
        where = f"{game.id}: writing into view({viewer})"
        assert json.dumps(state.to_json(), sort_keys=True) == before_text, f"{where} changed the state"
        assert json.dumps(state.view(viewer), sort_keys=True) == text, f"{where} changed a later view"


def _mutations(obj, rng):
    """Variants of a JSON action with one field broken."""
    out = []
    keys = [k for k in obj if k != "type"]
    out.append({**obj, "type": "no-such-action"})
    out.append({k: v for k, v in obj.items() if k != "type"})
    out.append({**obj, "unexpected_field": 1})
    for k in keys:
        v = obj[k]
        out.append({kk: vv for kk, vv in obj.items() if kk != k})
        for bad in (None, "x", -1, 999, 10**9, [], {}, True, 2.5):
            if bad != v:
                out.append({**obj, k: bad})
        if isinstance(v, int) and not isinstance(v, bool):
            out.append({**obj, k: v + 1})
            out.append({**obj, k: v - 1})
        if isinstance(v, list) and v:
            out.append({**obj, k: v[:-1]})
            out.append({**obj, k: v + v[-1:]})
    rng.shuffle(out)
    return out[:24]


def _bad_actions(game, state, players, legal_by_player, rng):
    out = []
    others = [q for q in range(state.num_players) if q not in players]
    for p in players:
        legal = legal_by_player[p]
        sample = rng.choice(legal).to_json()
        for m in _mutations(sample, rng):
            out.append((p, m))
        for q in others:  # acting out of turn
            out.append((q, sample))
    out.append((state.num_players + 3, legal_by_player[players[0]][0].to_json()))
    out.append((players[0], "not an object"))
    return out


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_random_playouts_obey_the_protocol(case):
    gid, opts = case
    stats: dict = {}
    for k in range(PLAYOUTS):
        _random_playout(gid, opts, seed=1000 + k, stats=stats)
    game = game_of(gid)
    if game.has_hidden_information:
        assert stats.get("secrets", 0) > 0, f"{gid}: declares hidden information but never named a secret"


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_same_seed_same_game_and_records_replay(case, tmp_path):
    gid, opts = case
    from deltav.core.agent import RandomAgent
    from deltav.core.match import play_match

    game = game_of(gid)
    n = game.num_players(game.resolve_options(opts))
    rec1, _, _ = play_match(game, opts, 77, [RandomAgent() for _ in range(n)])
    rec2, _, _ = play_match(game, opts, 77, [RandomAgent() for _ in range(n)])
    assert rec1.to_json() == rec2.to_json(), f"{gid}: the same seed and bots gave a different match"

    path = rec1.save(tmp_path / "match.json")
    loaded = MatchRecord.load(path)
    final = replay(loaded)
    assert (final.result().to_json() if final.result() else None) == rec1.result

    # tampering is caught, with the step where it diverges
    steps_with_events = [i for i, s in enumerate(loaded.steps) if s.events]
    if steps_with_events:
        i = steps_with_events[len(steps_with_events) // 2]
        bad = MatchRecord.from_json(json.loads(path.read_text()))
        bad.steps[i].events[0] = {**bad.steps[i].events[0], "tampered": True}
        with pytest.raises(RecordError) as err:
            replay(bad)
        assert err.value.step == i
    bad = MatchRecord.from_json(json.loads(path.read_text()))
    bad.result = {"winners": [], "reason": "forged", "scores": None}
    with pytest.raises(RecordError):
        replay(bad)
