"""deltav: four space tabletop games (rules engines, AI opponents, a Python API).

The package is layered (imports only point down):

- ``deltav.core``: hex math, dice, the game protocol, typed values, match records. Knows no game.
- ``deltav.games.<id>``: one package per game (rules, data files, scenarios, heuristics, scripted bots).
- ``deltav.agents``: generic search (MCTS, ISMCTS, simultaneous-move search) and the difficulty presets.
- ``deltav.cli``: the ``deltav`` command.
"""

__version__ = "0.1.0"
