"""The server's bot runner (threads: the order is exact with one worker): at most one decision per worker; the
rest wait, served kind by kind in turn (bot moves, then help a person asked for) and within a kind lane by lane
(room by room), so neither a flood of hints nor one busy room starves the others; a waiter that goes away frees
nothing it did not hold; a bot that raises is a BotFailure and the runner goes on."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest

from deltav.core.agent import Agent
from deltav.core.rng import Rng
from deltav.server.bot_workers import HELP, MOVE, BotFailure, BotRunner, BotSeat


class OneThread(BotRunner):
    THREADS = 1


class Gate(Agent):
    """Records when it starts deciding and waits for the test to open its gate (a slow search)."""

    def __init__(self, name: str, started: list[str], gate: threading.Event):
        self.name, self.started, self.gate = name, started, gate

    def act(self, decision):
        self.started.append(self.name)
        assert self.gate.wait(10), "the test never opened the gate"
        if self.name.startswith("broken"):
            raise ValueError("a NaN in the search")
        return self.name


def _seat(name: str, started: list[str], gate: threading.Event) -> BotSeat:
    return BotSeat(0, "bot:test", Gate(name, started, gate), Rng(1))


def test_moves_and_help_take_turns_and_rooms_take_turns_within_each():
    async def main():
        runner = OneThread(0)
        started: list[str] = []
        gate = threading.Event()
        decision = SimpleNamespace(rng=Rng(2))

        def ask(name: str, kind: str, lane: str):
            return asyncio.create_task(runner.decide(_seat(name, started, gate), decision, kind=kind, lane=lane))

        busy = ask("busy", MOVE, "A")
        await asyncio.sleep(0.2)
        asked = [ask("A-move0", MOVE, "A"), ask("A-move1", MOVE, "A"), ask("A-move2", MOVE, "A"),
                 ask("B-move0", MOVE, "B"), ask("B-move1", MOVE, "B"),
                 ask("C-hint0", HELP, "C"), ask("C-hint1", HELP, "C"), ask("D-hint0", HELP, "D")]
        await asyncio.sleep(0.1)
        assert runner.waiting() == 8 and started == ["busy"]
        gate.set()
        got = await asyncio.gather(busy, *asked)
        runner.close()
        return started, got

    started, got = asyncio.run(main())
    assert got == ["busy", "A-move0", "A-move1", "A-move2", "B-move0", "B-move1", "C-hint0", "C-hint1", "D-hint0"]
    assert started == ["busy", "A-move0", "C-hint0", "B-move0", "D-hint0", "A-move1", "C-hint1", "B-move1", "A-move2"]


def test_a_waiter_that_goes_away_neither_runs_nor_holds_a_worker():
    async def main():
        runner = BotRunner(0)
        started: list[str] = []
        gate = threading.Event()
        decision = SimpleNamespace(rng=Rng(2))
        busy = [asyncio.create_task(runner.decide(_seat(f"busy{k}", started, gate), decision))
                for k in range(BotRunner.THREADS)]
        await asyncio.sleep(0.2)
        gone = asyncio.create_task(runner.decide(_seat("gone", started, gate), decision, kind=HELP, lane="x"))
        await asyncio.sleep(0.05)
        gone.cancel()
        gate.set()
        await asyncio.gather(*busy)
        later = await asyncio.gather(*[runner.decide(_seat(f"later{k}", started, gate), decision)
                                       for k in range(BotRunner.THREADS + 1)])
        idle = runner.busy()
        runner.close()
        return started, later, idle

    started, later, idle = asyncio.run(main())
    assert "gone" not in started
    assert later == [f"later{k}" for k in range(BotRunner.THREADS + 1)] and idle == 0


def test_a_bot_that_raises_is_a_failure_and_the_runner_goes_on():
    async def main():
        runner = OneThread(0)
        gate = threading.Event()
        gate.set()
        decision = SimpleNamespace(rng=Rng(2))
        with pytest.raises(BotFailure) as failed:
            await runner.decide(_seat("broken", [], gate), decision)
        after = await runner.decide(_seat("fine", [], gate), decision)
        runner.close()
        return failed.value, after

    failed, after = asyncio.run(main())
    assert failed.kind == "error" and "ValueError: a NaN in the search" in failed.reason
    assert after == "fine"
