"""The conformance checks must catch real defects: run them against deliberately broken toy games."""

from __future__ import annotations

import pytest

from deltav.core.errors import IllegalAction
from tests.conformance import test_conformance as conf
from tests.toygame import Step, ToyGame, ToyState


class LeakyState(ToyState):
    def view(self, player):
        v = super().view(player)
        v["all_cards"] = list(self.cards)  # the bug: shows the opponent's card
        return v

    def clone(self):
        s = super().clone()
        s.__class__ = LeakyState
        return s


class SloppyState(ToyState):
    def apply_action(self, player, action):
        self.steps += 1  # the bug: changes the state before validating
        if isinstance(action, Step) and action.size not in (1, 2):
            raise IllegalAction("toy.step.size", "steps are 1 or 2")
        self.steps -= 1
        return super().apply_action(player, action)

    def clone(self):
        s = super().clone()
        s.__class__ = SloppyState
        return s


def _game_with(state_cls, gid):
    class Broken(ToyGame):
        id = gid

        @classmethod
        def new_initial_state(cls, options=None, seed=0):
            s = ToyGame.new_initial_state(options, seed)
            s.__class__ = state_cls
            return s

        @classmethod
        def state_from_json(cls, obj):
            s = ToyGame.state_from_json(obj)
            s.__class__ = state_cls
            return s

    state_cls.game = Broken
    return Broken


def _playout_with(monkeypatch, game):
    monkeypatch.setattr(conf, "game_of", lambda gid: game)
    monkeypatch.setattr(conf, "CHECK_EVERY", 1)
    conf._random_playout(game.id, {}, seed=1, stats={})


def test_a_view_that_leaks_a_secret_fails(monkeypatch):
    with pytest.raises(AssertionError, match="leaks secrets"):
        _playout_with(monkeypatch, _game_with(LeakyState, "toy-leaky"))


def test_an_action_that_mutates_before_failing_fails(monkeypatch):
    with pytest.raises(AssertionError, match="changed the state"):
        _playout_with(monkeypatch, _game_with(SloppyState, "toy-sloppy"))


def test_the_honest_toy_game_passes(monkeypatch):
    _playout_with(monkeypatch, ToyGame)


# --- the hidden-information checks (tests/conformance/hidden.py) bite too -----------------------------------


class SpectatorLeakyState(ToyState):
    """Names no spectator secret at all, and shows the spectator both cards: only the per-player rule sees it."""

    def view(self, player):
        v = super().view(player)
        if player is None:
            v["cards"] = list(self.cards)
        return v

    def secret_tokens(self, player):
        return set() if player is None else super().secret_tokens(player)


def test_a_spectator_view_showing_a_players_secret_fails():
    from tests.conformance.hidden import spectator_leaks

    honest = ToyGame.new_initial_state({}, 3)
    assert spectator_leaks(honest) == set()
    leaky = ToyGame.new_initial_state({}, 3)
    leaky.__class__ = SpectatorLeakyState
    assert spectator_leaks(leaky) == set(leaky.cards)


class _Hide:
    TYPE = "hide"

    def to_json(self):
        return {"type": "hide"}


class _Hidden:
    TYPE = "hidden"

    def __init__(self, to):
        self.to = to

    def visible_to(self, player):
        return player is not None and player in self.to


class PeekState:
    """Player 0 hides three things in a row (private events to player 0 only); with ``leak`` the opponent's view
    counts them, as the knighthawks trap counter did."""

    num_players = 2

    def __init__(self, leak):
        self.leak = leak
        self.hidden = 0

    def current_players(self):
        return (0,) if self.hidden < 3 else (1,)

    def apply_action(self, player, action):
        self.hidden += 1
        return [_Hidden((0,))]

    def view(self, player):
        v = {"mine": self.hidden if player == 0 else None}
        if self.leak:
            v["counter"] = self.hidden
        return v


def test_a_private_step_that_changes_another_view_fails():
    from tests.conformance.hidden import private_step_leaks

    honest, leaky = PeekState(leak=False), PeekState(leak=True)
    _, problems = private_step_leaks(honest, 0, _Hide())
    assert problems == []
    _, problems = private_step_leaks(leaky, 0, _Hide())
    assert len(problems) == 2 and "view(1)" in problems[0] and "view(None)" in problems[1]
    # the third hide passes the turn: the others may see that, so it is not held to the rule
    private_step_leaks(leaky, 0, _Hide())
    _, problems = private_step_leaks(leaky, 0, _Hide())
    assert problems == []


def test_the_honest_toy_game_passes_the_hidden_information_checks():
    from deltav.core.rng import Rng
    from tests.conformance.hidden import private_step_leaks, spectator_leaks

    state, rng = ToyGame.new_initial_state({}, 9), Rng(4)
    while not state.is_terminal():
        assert spectator_leaks(state) == set()
        p = rng.choice(list(state.current_players()))
        _, problems = private_step_leaks(state, p, rng.choice(state.legal_actions(p)))
        assert problems == []
