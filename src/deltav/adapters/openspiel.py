"""OpenSpiel games of the four games: importing this module registers ``deltav_<game>`` with pyspiel.

``pyspiel.load_game("deltav_mining", {"scenario": "standard", "seed": 7, "max_steps": 300, "options": "{}"})``:
``options`` is a JSON object of further rules options, ``seed`` seeds the state's RNG (chance is sampled from
it: ``SAMPLED_STOCHASTIC``), ``max_steps`` > 0 ends a match after that many decisions (terminal, returns 0).
Sequential dynamics: a simultaneous node is turn-taking with hidden submissions (``deltav.adapters.table``), so
the game is imperfect-information. Observers give the hashed view features (tensor) and the view's canonical
JSON (string) per player. Owns the OpenSpiel binding only.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pyspiel

from deltav.adapters.table import Table, game_and_encoding
from deltav.core.errors import IllegalAction
from deltav.core.rng import Rng

GAMES = ("mining", "knighthawks", "deepspace", "tactical")


def _options(game_id: str, params: dict) -> dict:
    opts = json.loads(params.get("options") or "{}")
    if not isinstance(opts, dict):
        raise ValueError("the 'options' parameter must be a JSON object")
    if params.get("scenario"):
        opts["scenario"] = params["scenario"]
    return opts


def _make(game_id: str):
    game_cls, _ = game_and_encoding(game_id)
    default_scenario = game_cls.option("scenario").default
    game_type = pyspiel.GameType(
        short_name=f"deltav_{game_id}",
        long_name=f"deltav {game_cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game_cls.max_players,
        min_num_players=game_cls.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"scenario": default_scenario, "seed": 0, "max_steps": 0, "options": "{}"},
    )

    class DeltavGame(pyspiel.Game):
        def __init__(self, params=None):
            params = dict(params or {})
            full = {"scenario": default_scenario, "seed": 0, "max_steps": 0, "options": "{}", **params}
            self.table = Table(game_id, _options(game_id, full), int(full["max_steps"]))
            self.seed = int(full["seed"])
            t = self.table
            length = t.max_steps if t.max_steps > 0 else t.game.max_decisions(t.options)
            info = pyspiel.GameInfo(
                num_distinct_actions=t.num_actions,
                max_chance_outcomes=0,
                num_players=t.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=int(length),
            )
            super().__init__(game_type, info, params)

        def new_initial_state(self):
            return DeltavState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            if iig_obs_type is not None and iig_obs_type.perfect_recall:
                raise ValueError("deltav games provide observations, not information states")
            return DeltavObserver(self.table.obs_size)

    class DeltavState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.table = copy.copy(game.table)
            self.table.reset(game.seed)

        def __deepcopy__(self, memo):
            # pyspiel copies Python states with deepcopy; clone the engine state, keep the pyspiel part
            cls = type(self)
            new = cls.__new__(cls)
            pyspiel.State.__init__(new, self.get_game())
            for k, v in self.__dict__.items():
                setattr(new, k, copy.deepcopy(v, memo))
            return new

        def current_player(self):
            p = self.table.to_move()
            return pyspiel.PlayerId.TERMINAL if p is None else p

        def _legal_actions(self, player):
            return self.table.legal_ints(player)

        def _apply_action(self, action):
            p = self.table.to_move()
            try:
                self.table.submit(p, int(action))
            except IllegalAction as exc:
                raise ValueError(str(exc)) from None

        def _action_to_string(self, player, action):
            try:
                a = self.table.decode(player, int(action))
            except IllegalAction:
                return f"action {action}"
            return self.table.describe(a)

        def is_terminal(self):
            return self.table.is_over()

        def returns(self):
            return self.table.returns()

        def __str__(self):
            return str(self.table.state)

    class DeltavObserver:
        def __init__(self, size: int):
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state, player):
            self.tensor[:] = state.table.observation(player)

        def string_from(self, state, player):
            return state.table.observation_string(player)

    DeltavGame.__name__ = f"Deltav{game_id.capitalize()}Game"
    pyspiel.register_game(game_type, DeltavGame)
    return DeltavGame


GAME_CLASSES = {g: _make(g) for g in GAMES}


def resampler(seed: int = 0):
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler``: ``cb(state, player)`` returns a state built by the
    game's own determinizer from ``player``'s view alone (``Game.determinize``), so a search never reads what
    that player cannot see. Choices other players already buffered at a simultaneous node are hidden from
    ``player``, so they are redrawn among those players' legal actions in the sampled world."""
    rng = Rng(seed)

    def cb(state, player):
        t = state.table
        new = state.clone()
        world = t.game.determinize(t.state.view(player), player, rng.fork(t.steps, len(t.pending)))
        pending = []
        for p, a in t.pending:
            legal = world.legal_actions(p)
            pending.append((p, a if p == player else legal[rng.below(len(legal))]))
        new.table.state = world
        new.table.pending = pending
        return new

    return cb
