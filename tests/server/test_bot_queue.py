"""The server's bot runner: at most one decision per worker; the rest wait, a hint (urgent) ahead of bot seats'
decisions, which keep their order of arrival; a waiter that goes away frees nothing it did not hold."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

from deltav.core.agent import Agent
from deltav.core.rng import Rng
from deltav.server.bots import BotRunner, BotSeat


class Gate(Agent):
    """Records when it starts deciding and waits for the test to open its gate (a slow search)."""

    def __init__(self, name: str, started: list[str], gate: threading.Event):
        self.name, self.started, self.gate = name, started, gate

    def act(self, decision):
        self.started.append(self.name)
        assert self.gate.wait(10), "the test never opened the gate"
        return self.name


def _seat(name: str, started: list[str], gate: threading.Event) -> BotSeat:
    return BotSeat(0, "bot:test", Gate(name, started, gate), Rng(1))


def test_a_hint_goes_ahead_of_queued_bot_moves_and_the_rest_keep_their_order():
    async def main():
        runner = BotRunner(0)  # threads: BotRunner.THREADS workers
        started: list[str] = []
        gate = threading.Event()
        decision = SimpleNamespace(rng=Rng(2))

        def ask(name: str, urgent: bool = False):
            return asyncio.create_task(runner.decide(_seat(name, started, gate), decision, urgent=urgent))

        busy = [ask(f"busy{k}") for k in range(BotRunner.THREADS)]
        await asyncio.sleep(0.2)
        moves = [ask(f"move{k}") for k in range(3)]
        await asyncio.sleep(0.05)
        hint = ask("hint", urgent=True)
        await asyncio.sleep(0.05)
        assert runner.waiting() == 4 and sorted(started) == sorted(f"busy{k}" for k in range(BotRunner.THREADS))
        gate.set()
        got = await asyncio.gather(*busy, *moves, hint)
        runner.close()
        return started, got

    started, got = asyncio.run(main())
    assert got == [f"busy{k}" for k in range(BotRunner.THREADS)] + ["move0", "move1", "move2", "hint"]
    after = started[BotRunner.THREADS:]
    assert after[0] == "hint" and [n for n in after if n != "hint"] == ["move0", "move1", "move2"], started


def test_a_waiter_that_goes_away_neither_runs_nor_holds_a_worker():
    async def main():
        runner = BotRunner(0)
        started: list[str] = []
        gate = threading.Event()
        decision = SimpleNamespace(rng=Rng(2))
        busy = [asyncio.create_task(runner.decide(_seat(f"busy{k}", started, gate), decision))
                for k in range(BotRunner.THREADS)]
        await asyncio.sleep(0.2)
        gone = asyncio.create_task(runner.decide(_seat("gone", started, gate), decision))
        await asyncio.sleep(0.05)
        gone.cancel()
        gate.set()
        await asyncio.gather(*busy)
        later = await asyncio.gather(*[runner.decide(_seat(f"later{k}", started, gate), decision)
                                       for k in range(BotRunner.THREADS + 1)])
        idle = runner._running
        runner.close()
        return started, later, idle

    started, later, idle = asyncio.run(main())
    assert "gone" not in started
    assert later == [f"later{k}" for k in range(BotRunner.THREADS + 1)] and idle == 0
