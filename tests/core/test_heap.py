"""``deltav.core.heap.freeze_startup`` (the process setting of servers, bot workers and match pools): after it
the start-up heap is frozen and the young generation is collected every ``YOUNG_THRESHOLD`` allocations, the
older generations' thresholds kept. Run in a process of its own (a frozen heap is never collected)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_freeze_startup_freezes_the_heap_and_raises_the_young_threshold():
    code = ("import gc, json, sys; sys.path.insert(0, sys.argv[1]); from deltav.core import heap; "
            "before = gc.get_threshold(); heap.freeze_startup(); "
            "print(json.dumps([before, gc.get_threshold(), gc.get_freeze_count() > 0, heap.YOUNG_THRESHOLD]))")
    out = subprocess.run([sys.executable, "-c", code, SRC], capture_output=True, text=True, check=True).stdout
    before, after, frozen, young = json.loads(out)
    assert frozen
    assert after == [young, before[1], before[2]]
    assert young > before[0]
