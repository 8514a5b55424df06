"""One match seen as turn-taking with hidden submissions: the engine-facing core every adapter shares.

A simultaneous node (several ``current_players()``) is offered to its deciders one at a time, in the order the
engine lists them; each choice is buffered (nobody sees it, the position does not change) and all are applied,
in that same order, once every decider has chosen: exactly what ``deltav.core.match.play_match`` does. Actions
are the integers of the game's ``encoding`` module. Owns no framework; imports no numpy.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from deltav.core.errors import IllegalAction
from deltav.core.protocol import Game, State, get_game
from deltav.games import load_all


def game_and_encoding(game_id: str):
    load_all()
    return get_game(game_id), importlib.import_module(f"deltav.games.{game_id}.encoding")


class Table:
    """A match of ``game_id`` with ``options``; ``max_steps`` (applied actions) truncates it (0: no cap)."""

    def __init__(self, game_id: str, options: Mapping[str, Any] | None = None, max_steps: int = 0):
        self.game: type[Game]
        self.game, self.enc = game_and_encoding(game_id)
        self.options = self.game.resolve_options(options)
        self.describe = self.game.describer(self.options, None)  # the text of an action (OpenSpiel's strings)
        self.max_steps = int(max_steps)
        probe = self.game.new_initial_state(self.options, 0)
        self.num_players = probe.num_players
        self.num_actions = self.enc.num_distinct_actions(probe)
        self.obs_size = len(self.enc.observation(probe, 0))  # fixed per configuration (tested)
        self.state: State = probe
        self.pending: list[tuple[int, Any]] = []
        self.steps = 0

    def reset(self, seed: int) -> None:
        self.state = self.game.new_initial_state(self.options, seed)
        self.pending = []
        self.steps = 0

    # --- whose turn --------------------------------------------------------------------------------
    def deciders(self) -> list[int]:
        if self.is_over():
            return []
        return list(self.state.current_players())

    def to_move(self) -> int | None:
        """The next player to choose, or None when the match is over (or truncated)."""
        done = {p for p, _ in self.pending}
        for p in self.deciders():
            if p not in done:
                return p
        return None

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def is_truncated(self) -> bool:
        return not self.state.is_terminal() and self.max_steps > 0 and self.steps >= self.max_steps

    def is_over(self) -> bool:
        return self.is_terminal() or self.is_truncated()

    def returns(self) -> list[float]:
        return list(self.state.returns()) if self.state.is_terminal() else [0.0] * self.num_players

    # --- actions -----------------------------------------------------------------------------------
    def legal_ints(self, player: int) -> list[int]:
        if player != self.to_move():
            return []
        return self.enc.action_space(self.state).legal_ints(self.state, player)

    def legal_mask(self, player: int) -> list[int]:
        mask = [0] * self.num_actions
        for i in self.legal_ints(player):
            mask[i] = 1
        return mask

    def decode(self, player: int, code: int):
        return self.enc.decode(self.state, code, player)

    def submit(self, player: int, code: int) -> list[tuple[int, list]]:
        """Player ``player`` chooses action ``code``: checked now against the unchanged position, applied when
        every decider of the node has chosen. IllegalAction (or MalformedAction) leaves everything as it was.
        Returns the ``(player, events)`` of the actions applied (none while a node still waits)."""
        if player != self.to_move():
            raise IllegalAction("protocol.turn", f"player {player} may not act now")
        action = self.decode(player, code)
        if action not in self.state.legal_actions(player):
            raise IllegalAction("adapter.illegal", f"action {code} ({action.to_json()}) is not legal now")
        self.pending.append((player, action))
        applied: list[tuple[int, list]] = []
        if self.to_move() is None:
            chosen, self.pending = self.pending, []
            for p, a in chosen:
                if self.state.is_terminal():
                    break
                applied.append((p, self.state.apply_action(p, a)))
                self.steps += 1
        return applied

    # --- observations ------------------------------------------------------------------------------
    def observation(self, player: int) -> list[float]:
        return self.enc.observation(self.state, player)

    def observation_string(self, player: int) -> str:
        return self.enc.observation_string(self.state, player)


def _table_deepcopy(self: Table, memo: dict) -> Table:
    """A deep copy through the engine's own ``clone()`` (frameworks copy states with ``copy.deepcopy``)."""
    new = Table.__new__(Table)
    new.__dict__.update(self.__dict__)
    new.state = self.state.clone()
    new.pending = list(self.pending)
    return new


Table.__deepcopy__ = _table_deepcopy  # type: ignore[attr-defined]
