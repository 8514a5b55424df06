"""Deciders for a remote seat: a built-in deltav bot, or any program speaking JSON lines.

:class:`BotPlayer` gives a registry bot (``bot:hard``, ``mcts:iterations=200``...) exactly what a local bot
gets in ``play_match``: a :class:`~deltav.core.protocol.Decision` built from the seat's own snapshot (its
view, its legal actions decoded by the game, the resolved options, so ``Decision.sample_world`` calls
``game.determinize`` on that view), its own RNG (``derive_seed(seed, "seat", seat)``, as ``play_match`` derives
it from the match seed; a remote agent does not know the match seed, so it is given one), and the events its
seat saw, fed to ``Agent.observe`` step by step (after a reconnection the missed ones are fetched with
``sync``). Decisions run in a thread, so the socket keeps answering pings while a bot thinks.

:class:`CommandPlayer` runs a program (the line protocol is in docs/research.md): for every snapshot in which the
seat must act it writes one line, the ``snapshot`` object (with ``candidates`` when the server sent some and
``refusal`` when its previous answer at that step was refused), and reads one line back: an action object from
``snapshot.legal[i].action`` or the index ``i``. When the match is over it writes the final snapshot and
closes the program's stdin.

This module owns deciding for a remote seat; the socket is :mod:`deltav.client.seat`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
from collections.abc import Sequence
from typing import Any

from deltav.client.seat import AsyncSeat
from deltav.core.agent import Agent
from deltav.core.errors import DeltavError
from deltav.core.protocol import Decision, Game, get_game
from deltav.core.rng import Rng, derive_seed


class AgentProgramError(DeltavError):
    """The program behind ``--command`` broke the line protocol (exited, or wrote a line that is not JSON)."""


def _game(gid: str) -> type[Game]:
    from deltav.games import load_all

    load_all()
    return get_game(gid)


class BotPlayer:
    """A registry bot playing one remote seat (see the module docstring)."""

    def __init__(self, spec: str, seed: int = 0):
        self.spec = spec[4:] if spec.startswith("bot:") else spec
        self.seed = seed
        self.agent: Agent | None = None
        self.game: type[Game] | None = None
        self.rng: Rng | None = None
        self.options: dict | None = None
        self.fed_upto = 0  # every visible event of the steps below this one was given to observe()
        self._reconnects = 0
        self._behind = False
        self.decisions = 0

    def _setup(self, snap: dict) -> None:
        from deltav.agents import make_agent

        self.game = _game(snap["game"])
        self.agent = make_agent(self.game.id, self.spec)
        self.rng = Rng(derive_seed(self.seed, "seat", snap["seat"]))
        self.options = self.game.resolve_options(snap["options"])

    def feed(self, seat: int, entries: Sequence[dict]) -> None:
        """Give the agent the log entries of steps it has not seen yet, one ``observe`` call per step."""
        by_step: dict[int, list] = {}
        for e in entries:
            if e["step"] >= self.fed_upto:
                by_step.setdefault(e["step"], []).append(self.game.events.decode(e["event"]))
        for step in sorted(by_step):
            self.agent.observe(seat, by_step[step])
            self.fed_upto = step + 1

    def on_state(self, msg: dict) -> None:
        snap = msg["snapshot"]
        if self.agent is None:
            self._setup(snap)
            self._behind = snap["step"] > 0  # joined a match already under way: its log is fetched first
        self.feed(snap["seat"], msg.get("events") or [])

    async def decide(self, msg: dict, seat: AsyncSeat) -> dict:
        snap = msg["snapshot"]
        if seat.reconnects != self._reconnects or self._behind:
            self._reconnects, self._behind = seat.reconnects, False  # events may have been missed: fetch them
            again = await seat.sync(since=self.fed_upto)
            self.feed(snap["seat"], again["snapshot"]["log"])
        legal = [self.game.action_from_json(e["action"]) for e in snap["legal"]]
        decision = Decision(self.game, snap["seat"], snap["view"], legal, self.rng, self.options)
        action = await asyncio.to_thread(self.agent.act, decision)
        self.decisions += 1
        return action.to_json()

    async def run(self, seat: AsyncSeat, on_state: Any = None) -> dict:
        def hook(msg: dict) -> None:
            self.on_state(msg)
            if on_state is not None:
                on_state(msg)

        return await seat.play(lambda msg: self.decide(msg, seat), hook)


class CommandPlayer:
    """A program playing one remote seat over JSON lines (see the module docstring)."""

    def __init__(self, command: str | Sequence[str], timeout: float = 600.0):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise AgentProgramError("the command is empty")
        self.timeout = timeout
        self.proc: asyncio.subprocess.Process | None = None
        self.decisions = 0

    async def start(self) -> None:
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**24)
        except OSError as exc:
            raise AgentProgramError(f"cannot start {self.argv[0]!r}: {exc}") from None

    async def _write(self, obj: dict) -> None:
        try:
            self.proc.stdin.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise AgentProgramError(f"{self.argv[0]} closed its stdin (exit code {self.proc.returncode})") from None

    async def decide(self, msg: dict, seat: AsyncSeat) -> dict | int:
        line = dict(msg["snapshot"])
        if "candidates" in msg:
            line["candidates"] = msg["candidates"]
        if seat.last_refusal is not None:
            r = seat.last_refusal
            line["refusal"] = {"code": r.code, "message": r.message, "rule": r.rule, "field": r.field}
        await self._write(line)
        try:
            raw = await asyncio.wait_for(self.proc.stdout.readline(), self.timeout)
        except TimeoutError:
            raise AgentProgramError(f"{self.argv[0]} gave no answer in {self.timeout:g} s") from None
        if not raw:
            code = await self.proc.wait()
            raise AgentProgramError(f"{self.argv[0]} exited (code {code}) without answering step {line['step']}")
        try:
            answer = json.loads(raw)
        except ValueError:
            raise AgentProgramError(f"{self.argv[0]} answered a line that is not JSON: {raw[:200]!r}") from None
        if isinstance(answer, bool) or not isinstance(answer, int | dict):
            raise AgentProgramError(f"{self.argv[0]} answered {answer!r}: an action object or an index is expected")
        self.decisions += 1
        return answer

    async def finish(self, final: dict | None) -> int | None:
        """Write the final snapshot, close the program's stdin and wait for it (killed after 10 s)."""
        if self.proc is None:
            return None
        if final is not None and self.proc.returncode is None:
            with contextlib.suppress(AgentProgramError):
                await self._write(final["snapshot"])
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            return await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            return await self.proc.wait()

    async def run(self, seat: AsyncSeat, on_state: Any = None) -> dict:
        await self.start()
        final = None
        try:
            final = await seat.play(lambda msg: self.decide(msg, seat), on_state)
            return final
        finally:
            await self.finish(final)
