"""The game packages. ``load_all()`` imports each one, which registers it with the core registry.

A new game plugs in by adding its package here; nothing else changes (the CLI, the conformance suite and the
benchmarks all iterate over the registry).
"""

from __future__ import annotations

import importlib

from deltav.core.protocol import Game, registered_games

GAME_PACKAGES = ("tactical", "mining", "deepspace", "knighthawks")


def load_all() -> dict[str, type[Game]]:
    """Import every game package (each registers itself) and return the registry."""
    for name in GAME_PACKAGES:
        try:
            importlib.import_module(f"deltav.games.{name}")
        except ModuleNotFoundError as exc:
            # a game that has not landed yet; any other import error is a real bug and propagates
            if exc.name != f"deltav.games.{name}":
                raise
    return registered_games()
