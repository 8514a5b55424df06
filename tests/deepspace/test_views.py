"""Spectators and private steps, over random playouts of every scenario: ``view(None)`` holds only public
information, and a step whose events a seat does not see changes nothing in that seat's view (nor in the
spectator's); a public "submitted" step changes only that the submitter is no longer waited for."""

from __future__ import annotations

import json

import pytest

from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.messages import Allocated, Declared, Deployed, Designed, Plotted
from deltav.games.deepspace.scenarios import builtin_ids
from tests.view_check import scribble

from .helpers import walk

SUBMITTED = (Designed, Deployed, Plotted, Allocated, Declared)
SECRET_SHIP_KEYS = {"design", "name", "thrust", "evasion", "endurance", "weapons", "partial", "pending"}
OPTIONS = [{}, {"leftover_damage": "partial", "friendly_fire": True, "withdrawal_radius": 8}]


def _public_only(view, state):
    assert "mine" not in view
    for x in view["ships"]:
        assert not SECRET_SHIP_KEYS & set(x), x
    assert not state.secret_tokens(None) & json_tokens(view)


@pytest.mark.parametrize("scenario", builtin_ids())
@pytest.mark.parametrize("opt", range(len(OPTIONS)))
def test_private_steps_change_no_other_view_and_spectators_see_public_information_only(scenario, opt):
    for seed in (1, 2, 3):
        for s, p, a in walk(scenario, seed, OPTIONS[opt]):
            n = s.num_players
            viewers = [q for q in range(n) if q != p] + [None]
            before = {q: s.view(q) for q in viewers}
            events = s.apply_action(p, a)
            seen = {q: [e for e in events if e.visible_to(q)] for q in viewers}
            for q in viewers:
                after = s.view(q)
                if not seen[q]:
                    assert after == before[q], (scenario, seed, p, a, q)
                elif len(seen[q]) == 1 and isinstance(seen[q][0], SUBMITTED) and after["phase"] == before[q]["phase"]:
                    # only "p has submitted": the waiting flag of p and nothing else
                    assert before[q]["players"][p]["waiting"] and not after["players"][p]["waiting"]
                    after["players"][p] = {**after["players"][p], "waiting": True}  # a shared read-only record
                    assert after == before[q], (scenario, seed, p, a, q)
            spectator = s.view(None)
            _public_only(spectator, s)
            for q in range(n):
                assert not s.secret_tokens(q) & json_tokens(s.view(q))



@pytest.mark.parametrize("scenario", ["duel", "design-duel", "melee"])
def test_a_view_shares_no_mutable_object_with_the_state(scenario):
    """Scribbling over every container of a view changes neither the state nor the next view."""
    for i, (s, p, a) in enumerate(walk(scenario, 4, {"self_destruct": True}, limit=400)):
        if i % 7 == 0:
            for q in [None, *range(s.num_players)]:
                before = json.dumps(s.to_json())  # text: nothing a scribble can reach
                fresh = json.dumps(s.view(q))
                scribble(s.view(q))
                assert json.dumps(s.to_json()) == before, (scenario, q)
                assert json.dumps(s.view(q)) == fresh, (scenario, q)
        s.apply_action(p, a)


@pytest.mark.parametrize("scenario", ["duel", "melee", "design-duel"])
def test_determinize_reuses_nothing_a_sampled_world_can_change(scenario):
    """Samples are computed once and reused (caches), but every sampled world is its own: playing one out (its
    ships lose levels) changes neither the view nor the next sample drawn with the same seed."""
    for i, (s, p, a) in enumerate(walk(scenario, 6, {}, limit=300)):
        if i % 11 == 0:
            q = s.current_players()[0]
            view = s.view(q)
            text = json.dumps(view)
            first = DeepSpaceGame.determinize(view, q, Rng(i))
            want = json.dumps(first.to_json())
            for x in first.ships:
                x.lv[:] = [0] * len(x.lv)
                x.partial[:] = [9] * len(x.partial)
            again = DeepSpaceGame.determinize(view, q, Rng(i))
            assert json.dumps(again.to_json()) == want
            assert json.dumps(view) == text
        s.apply_action(p, a)
