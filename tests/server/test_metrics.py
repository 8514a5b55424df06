"""``GET /metrics`` of one process, in-process: the room and socket gauges, the submission and commit
histograms, the event loop's lag, and the garbage collector's pauses (timed by a ``gc.callbacks`` hook that
the app removes when it shuts down)."""

from __future__ import annotations

import gc

import pytest
from starlette.testclient import TestClient

from deltav.server.app import create_app
from deltav.server.rooms import Settings
from tests.server.helpers import room_socket


def test_metrics_count_rooms_actions_and_collector_pauses(tmp_path):
    before = len(gc.callbacks)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 's.db'}", Settings(grace_seconds=0, bot_workers=0))
    with TestClient(app) as c:
        r = c.post("/rooms", json={"game": "toy", "seats": ["human", "bot:random"], "seed": 3, "name": "ann"})
        assert r.status_code == 201, r.text
        code, token = r.json()["code"], r.json()["token"]
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            snap = ws.receive_json()
            while snap.get("type") != "state":
                snap = ws.receive_json()
            entry = snap["snapshot"]["legal"][0]
            ws.send_json({"type": "submit", "step": snap["snapshot"]["step"], "action": entry["action"], "id": 1})
            while True:
                m = ws.receive_json()
                if m.get("type") == "state" and m["snapshot"]["step"] > snap["snapshot"]["step"]:
                    break
            gc.collect()  # a full collection: generation 2
            body = c.get("/metrics").text
        assert 'deltav_rooms{role="owner"} 1.0' in body
        assert "deltav_actions_total" in body and "deltav_submit_seconds_count 1.0" in body
        writes = next(ln for ln in body.splitlines() if ln.startswith("deltav_store_write_seconds_count"))
        assert float(writes.split()[1]) >= 1  # the human's submission (the bot's may follow)
        lag = next(ln for ln in body.splitlines() if ln.startswith("deltav_loop_lag_seconds_count"))
        assert float(lag.split()[1]) >= 0  # sampled every 50 ms while the app runs
        count = next(ln for ln in body.splitlines() if ln.startswith('deltav_gc_pause_seconds_count{generation="2"}'))
        assert float(count.split()[1]) >= 1
        longest = next(ln for ln in body.splitlines() if ln.startswith('deltav_gc_pause_max_seconds{generation="2"}'))
        assert float(longest.split()[1]) > 0
    assert len(gc.callbacks) == before  # the hook left with the app


def test_the_collector_thresholds_an_operator_may_set():
    from deltav.server.run import GC_THRESHOLDS, gc_thresholds

    assert gc_thresholds(None) == gc_thresholds("") == GC_THRESHOLDS
    assert gc_thresholds("5000,2,1000") == (5000, 2, 1000)
    for bad in ("5000,2", "a,b,c", "0,10,10", "-1,10,10", "1,2,3,4"):
        with pytest.raises(SystemExit, match="DELTAV_GC_THRESHOLDS"):
            gc_thresholds(bad)
