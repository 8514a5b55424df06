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
