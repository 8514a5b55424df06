"""A short run of the server fuzzer (benchmarks/fuzz_server.py, run through ``benchmarks/fuzz.py --server``): a
real ``deltav serve`` gets malformed input on every HTTP route and every WebSocket message type and must count 0
crashes (no 5xx, no traceback in its log, no socket dropped without a close code, no socket left silent)."""

from __future__ import annotations

from benchmarks.fuzz_server import CRASHES, MESSAGE_TYPES, ServerFuzzer

PROBES = 500


def test_the_server_survives_a_short_fuzzing_run_without_a_crash():
    report = ServerFuzzer(seed=7, probes=PROBES).run()
    assert report.total >= PROBES
    probed = {k.split(" ")[1] for k in report.probes if k.startswith("ws ")}
    assert set(MESSAGE_TYPES) <= probed, probed  # every message type was thrown at it
    assert sum(v for k, v in report.probes.items() if k.startswith("http ")) >= PROBES // 5
    for kind in CRASHES:
        assert report.counts[kind] == 0, report.summary()
