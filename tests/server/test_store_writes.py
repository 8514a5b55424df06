"""The store's write path for accepted submissions on SQLite: batches from many rooms go through one writer
thread in one transaction each, in each room's order; a write the database refuses stores nothing of its batch,
and a room whose write failed tells its seat so, changes nothing and accepts the same action afterwards; the
log is checkpointed into the database file by the store's own thread, not inside a submission's commit."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3

from starlette.testclient import TestClient

from deltav.server.app import create_app
from deltav.server.rooms import Settings
from deltav.server.store import MatchRow, SeatRow, Store
from tests.server.helpers import room_socket


def _match(code: str) -> MatchRow:
    return MatchRow(code=code, no=1, game="toy", options={}, seed=1, status="live",
                    seats=[SeatRow(0, "human", None, None, None, None), SeatRow(1, "human", None, None, None, None)])


def test_batches_of_many_rooms_keep_each_rooms_order_and_reach_the_database_file(tmp_path):
    db = tmp_path / "w.db"

    async def main():
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        codes = [f"R{i:04d}" for i in range(40)]
        for code in codes:
            await store.create_room(_match(code))

        async def room(code: str):  # a room awaits each write before the next, as Room does
            for seq in range(25):
                await store.accept(code, 1, seq, seq % 2, {"type": "step", "n": seq})

        await asyncio.gather(*[room(c) for c in codes])
        loaded = [await store.load_match(c) for c in codes]
        await store.close()  # the writer's last checkpoint: the database file alone holds every row
        return codes, loaded

    codes, loaded = asyncio.run(main())
    for row in loaded:
        assert row.submissions == [(seq % 2, {"type": "step", "n": seq}) for seq in range(25)]
    alone = tmp_path / "copy.db"
    shutil.copy(db, alone)  # without the -wal file next to it
    con = sqlite3.connect(alone)
    try:
        counts = dict(con.execute("SELECT code, COUNT(*) FROM submissions GROUP BY code").fetchall())
    finally:
        con.close()
    assert counts == {c: 25 for c in codes}


def test_a_refused_write_stores_nothing_of_its_batch(tmp_path):
    db = tmp_path / "f.db"

    async def main():
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        await store.create_room(_match("AAAAA"))
        await store.create_room(_match("BBBBB"))
        con = sqlite3.connect(db)
        con.execute("CREATE TRIGGER full BEFORE INSERT ON submissions WHEN NEW.seq = 1 "
                    "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        con.commit()
        con.close()
        await store.accept("AAAAA", 1, 0, 0, {"n": 0})
        results = await asyncio.gather(store.accept("AAAAA", 1, 1, 1, {"n": 1}),
                                       store.accept("BBBBB", 1, 0, 0, {"n": 0}), return_exceptions=True)
        a, b = await store.load_match("AAAAA"), await store.load_match("BBBBB")
        await store.close()
        return results, a, b

    results, a, b = asyncio.run(main())
    assert isinstance(results[0], Exception) and "disk full" in str(results[0])
    assert a.submissions == [(0, {"n": 0})]
    if isinstance(results[1], Exception):  # it shared the failed transaction: nothing of it was stored either
        assert b.submissions == []
    else:
        assert b.submissions == [(0, {"n": 0})]


def test_a_room_whose_write_fails_says_so_changes_nothing_and_takes_the_action_again(tmp_path):
    db = tmp_path / "r.db"
    app = create_app(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any"))
    with TestClient(app) as c:
        r = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"], "seed": 3})
        code, token = r.json()["code"], r.json()["token"]
        c.post(f"/rooms/{code}/join", json={})
        con = sqlite3.connect(db)
        con.execute("CREATE TRIGGER full BEFORE INSERT ON submissions BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        con.commit()
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            msg = ws.receive_json()
            while msg["type"] != "state":
                msg = ws.receive_json()
            snap = msg["snapshot"]
            action = snap["legal"][0]["action"]
            ws.send_json({"type": "submit", "step": snap["step"], "action": action, "id": 7})
            msg = ws.receive_json()
            while msg["type"] != "error":
                msg = ws.receive_json()
            assert msg["code"] == "internal" and msg["id"] == 7 and "nothing changed" in msg["message"]
            con.execute("DROP TRIGGER full")
            con.commit()
            con.close()
            ws.send_json({"type": "submit", "step": snap["step"], "action": action, "id": 8})
            msg = ws.receive_json()
            while msg["type"] != "accepted":
                assert msg["type"] != "error", msg
                msg = ws.receive_json()
            assert msg["id"] == 8 and msg["step"] == snap["step"]
            while msg["type"] != "state":
                msg = ws.receive_json()
            after = msg["snapshot"]  # the toy's first node is simultaneous: decided, or the step moved on
            assert after["step"] == snap["step"] + 1 or any(d["seat"] == 0 and d["submitted"]
                                                           for d in after["deciding"]), after
    check = sqlite3.connect(db)
    try:
        rows = check.execute("SELECT seq FROM submissions WHERE code = ?", (code,)).fetchall()
    finally:
        check.close()
    assert rows == [(0,)]
