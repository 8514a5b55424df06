"""The game-independent core: hex math, dice, the game protocol, typed values, match records.

Nothing in ``deltav.core`` may import a game, an agent, the CLI or any I/O layer above it.
"""

from deltav.core.errors import (
    DeltavError,
    IllegalAction,
    MalformedAction,
    OptionError,
    RecordError,
    ScenarioError,
)
from deltav.core.protocol import Game, Option, Result, ScenarioInfo, State, get_game, register_game, registered_games
from deltav.core.rng import Rng
from deltav.core.values import Action, Codec, Event, value

__all__ = [
    "Action",
    "Codec",
    "DeltavError",
    "Event",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "Option",
    "OptionError",
    "RecordError",
    "Result",
    "Rng",
    "ScenarioError",
    "ScenarioInfo",
    "State",
    "get_game",
    "register_game",
    "registered_games",
    "value",
]
