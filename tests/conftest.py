"""Shared set-up: the registry of games is loaded once, plus the test-only toy game (tests/toygame.py), so
the core machinery and the conformance suite are exercised even on a game no other test depends on.

Hypothesis tests check properties, not speed (speed is measured under benchmarks/): the per-example deadline
is off, so a loaded machine cannot fail a correct test."""

from hypothesis import settings

import tests.toygame  # noqa: F401  (registers the "toy" game)
from deltav.games import load_all

settings.register_profile("deltav", deadline=None)
settings.load_profile("deltav")

load_all()
