"""A server stopping while bot seats decide leaves no task behind: a bot turn cancelled at shutdown must not start
the next bot turn (which the closing loop would never run: "coroutine Room._bot_turn was never awaited")."""

from __future__ import annotations

import asyncio
import gc
import warnings

from deltav.games import load_all
from deltav.server.hub import Hub
from deltav.server.rooms import Settings
from deltav.server.store import Store


def test_closing_a_room_of_thinking_bots_leaves_no_task_and_no_unawaited_coroutine(tmp_path):
    async def main():
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bots.db'}")
        hub = Hub(store, Settings(grace_seconds=0, bot_workers=0), load_all())
        await hub.restore()
        made = await hub.create("mining", {"scenario": "standard"}, ["bot:random", "bot:random"], 3, None, None)
        room = hub.rooms[made["code"]]
        while room.seq < 5:  # the bots are playing: one of them is always deciding
            await asyncio.sleep(0.01)
        assert room.tasks
        await hub.close()
        left = [t for t in room.tasks if not t.done()]
        await store.close()
        return left

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        left = asyncio.run(main())
        gc.collect()
    assert left == []
    assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]
