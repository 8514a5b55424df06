"""Shared set-up: the registry of games is loaded once, plus the test-only toy game (tests/toygame.py), so
the core machinery and the conformance suite are exercised even on a game no other test depends on."""

import tests.toygame  # noqa: F401  (registers the "toy" game)
from deltav.games import load_all

load_all()
