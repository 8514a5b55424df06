"""The fuzzer (benchmarks/fuzz.py), bounded and seeded: a fixed number of probes per game, and every kind of
fault must count zero. Each (game, kind) is its own test, so a failure names what the game does not yet hold."""

from __future__ import annotations

import functools

import pytest
from benchmarks.fuzz import KINDS, Fuzzer

from deltav.games import load_all

PROBES = 4000  # a few seconds per game
PROBE_TIME = 10.0  # seconds a state probe may run before it counts as a hang (generous: the suite runs loaded)
GAMES = sorted(gid for gid, g in load_all().items() if g.__module__.startswith("deltav.games."))


@functools.cache
def _report(gid):
    return Fuzzer(gid, seed=18, probes=PROBES, probe_time=PROBE_TIME).run()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("gid", GAMES)
def test_fuzzing_finds_no_fault(gid, kind):
    report = _report(gid)
    assert report.total >= PROBES
    assert report.counts[kind] == 0, report.summary()
