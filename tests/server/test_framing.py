"""What goes on the wire: a spectator connecting sends nothing to the other viewers (their messages would be the
same as the last), and every spectator of a room is sent the very same text (encoded once per state, not once
per spectator)."""

from __future__ import annotations

import asyncio

from deltav.games import load_all
from deltav.server.hub import Hub
from deltav.server.rooms import Settings
from deltav.server.store import Store
from tests.server.helpers import room_socket
from tests.server.test_protocol import client, state, toy_room


def pending_states(ws) -> int:
    """How many state messages were queued for a socket before a ping's pong."""
    ws.send_json({"type": "ping"})
    n = 0
    while (msg := ws.receive_json())["type"] != "pong":
        n += msg["type"] == "state"
    return n


def test_a_spectator_connecting_sends_nothing_to_the_others(tmp_path):
    with client(tmp_path) as c:
        code, tokens = toy_room(c)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a, room_socket(c, f"/ws/{code}") as first:
            state(first)
            assert pending_states(a) >= 1  # its own connect
            for _ in range(4):
                with room_socket(c, f"/ws/{code}") as spec:
                    assert state(spec)["snapshot"]["seat"] is None  # the newcomer gets the room's state at once
            assert pending_states(a) == 0 and pending_states(first) == 0
            with room_socket(c, f"/ws/{code}?token={tokens[1]}"):  # a seat connecting is news to everyone
                assert pending_states(a) == 1 and pending_states(first) == 1


class Recorder:
    """A socket that keeps what it was sent (the text objects themselves)."""

    def __init__(self):
        self.sent: list[str] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def test_every_spectator_is_sent_the_same_text_object(tmp_path):
    async def main():
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}")
        hub = Hub(store, Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any"), load_all())
        await hub.restore()
        try:
            made = await hub.create("toy", {}, ["human", "human"], 3, None, None)
            await hub.join(made["code"], None, None)
            room = hub.rooms[made["code"]]
            seat = await room.attach(Recorder(), made["token"])
            watchers = [Recorder() for _ in range(3)]
            for w in watchers:
                await room.attach(w, None)
            await asyncio.sleep(0.05)
            for w in watchers:
                w.sent.clear()
            await room.submit(seat, {"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})
            await asyncio.sleep(0.05)
            texts = [w.sent[-1] for w in watchers]
            assert '"type":"state"' in texts[0] and all(t is texts[0] for t in texts)
        finally:
            await hub.close()
            await store.close()

    asyncio.run(main())
