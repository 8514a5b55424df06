"""Run the server's restart path on PostgreSQL (on demand, never as a test: it needs a running PostgreSQL).

A human against mining's easy bot plays 40 steps on a server using ``--db URL``; the server stops; a new one on the
same database replays the room; the match is finished, and its record must verify and equal the same match
played on SQLite without a restart.

Usage: ``PYTHONPATH=src python benchmarks/check_postgres.py postgresql+asyncpg://postgres@127.0.0.1:PORT/deltav``
(a scratch PostgreSQL: ``runuser -u postgres -- initdb -D DIR -A trust``, then
``runuser -u postgres -- pg_ctl -D DIR -o "-c listen_addresses=127.0.0.1 -p PORT -k /tmp" start`` and
``createdb deltav``). Needs the ``postgres`` extra (asyncpg).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from starlette.testclient import TestClient  # noqa: E402
from tests.server.helpers import record_difference, room_socket  # noqa: E402
from tests.server.test_protocol import play_until  # noqa: E402

from deltav.core.records import MatchRecord, replay  # noqa: E402
from deltav.server.app import create_app  # noqa: E402
from deltav.server.rooms import Settings  # noqa: E402

SETTINGS = Settings(grace_seconds=0, bot_workers=0)
ROOM = {"game": "mining", "seats": ["human", "bot:easy"], "seed": 31}


def main(url: str) -> int:
    with TestClient(create_app(url, SETTINGS)) as c:
        r = c.post("/rooms", json=ROOM).json()
        with room_socket(c, f"/ws/{r['code']}?token={r['token']}") as ws:
            step = play_until(ws, 0, 40)["snapshot"]["step"]
    with TestClient(create_app(url, SETTINGS)) as c:
        restored = c.get("/healthz").json()["rooms"]
        with room_socket(c, f"/ws/{r['code']}?token={r['token']}") as ws:
            play_until(ws, 0, None)
        record = c.get(f"/rooms/{r['code']}/record").json()
    replay(MatchRecord.from_json(record))
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(f"sqlite+aiosqlite:///{tmp}/x.db", SETTINGS)) as c:
        s = c.post("/rooms", json=ROOM).json()
        with room_socket(c, f"/ws/{s['code']}?token={s['token']}") as ws:
            play_until(ws, 0, None)
        reference = c.get(f"/rooms/{s['code']}/record").json()
    diff = record_difference(record, reference)
    print(f"stopped at step {step}, {restored} room(s) restored, finished with {len(record['steps'])} steps; "
          f"record verifies; {'identical to the uninterrupted SQLite match' if diff is None else 'DIFFERS: ' + diff}")
    return 0 if diff is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
