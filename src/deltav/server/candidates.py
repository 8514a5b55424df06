"""Candidates: what built-in bots would play, sent with a seat's snapshot when that seat must decide.

A seat that connects with ``/ws/{code}?candidates=bot:easy,bot:normal`` (its token in its hello; at most
:data:`MAX_SPECS` registry specs) gets, in every ``state`` message whose snapshot has ``to_act`` in a live
room, a field ``candidates``: ``[{"spec", "action", "text"}]`` in the order asked (``{"spec", "error"}`` when
a bot failed). Each is a fresh agent of that spec deciding from the seat's own snapshot (its view and legal
actions: the very Decision a bot seat gets, with an RNG derived from the room code, match, step and spec, never
from the match seed), on the server's bot workers, so the event loop never searches. A remembering bot (the
mining levels' memory) therefore plays from the view alone. Computed once per step and connection.

The socket is wrapped before the room attaches it: messages still leave in order (a state message waits for
its candidates; later messages queue behind it), so one socket has at most one set of candidates being worked
out at a time (each a :data:`~deltav.server.bots.HELP` request of the room's lane on the bot workers). When the
socket closes, :meth:`CandidateSocket.abandon` stops that work (the worker is interrupted) and no more is asked
for; and one seat has one socket's candidates worked out at a time (a newer socket of the seat abandons an older
one that has not closed yet). Specs are checked (bounded parameters) when the socket connects. This module owns
candidates only; rooms know nothing of them.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from deltav.core.errors import DeltavError
from deltav.core.jsonin import shown
from deltav.core.protocol import Decision
from deltav.core.rng import Rng, derive_seed
from deltav.server.bots import HELP, BotFailure, BotSeat, make_bot_agent
from deltav.server.rooms import ClientError, Room, Socket

MAX_SPECS = 4
#: (room code, seat) -> the socket whose candidates are being worked out for that seat
_WORKING: dict[tuple[str, int], CandidateSocket] = {}
_STATE_TO_ACT = '"to_act":true'


def parse(raw: str | None, game_id: str) -> list[str]:
    """The specs of a ``candidates`` query parameter (comma-separated); ClientError ``bad_candidates``."""
    if raw is None or not raw.strip():
        return []
    specs = [s.strip() for s in raw.split(",") if s.strip()]
    specs = [s if s.startswith("bot:") else f"bot:{s}" for s in specs]
    if len(specs) > MAX_SPECS:
        raise ClientError("bad_candidates", f"at most {MAX_SPECS} candidate bots may be asked for, got {len(specs)}")
    for s in specs:
        try:
            make_bot_agent(game_id, s)
        except DeltavError as exc:
            raise ClientError("bad_candidates", f"candidate {shown(s)}: {exc}") from None
    return specs


class CandidateSocket:
    """A socket that adds ``candidates`` to the state messages in which its seat must decide."""

    def __init__(self, ws: Socket, room: Room, specs: list[str]):
        self.ws = ws
        self.room = room
        self.specs = specs
        self._cache: dict[tuple, list[dict]] = {}
        self._work: asyncio.Task | None = None  # the candidates being worked out now
        self.abandoned = False

    async def send_text(self, data: str) -> None:
        if not self.abandoned and _STATE_TO_ACT in data and data.startswith('{"type":"state"'):
            msg = json.loads(data)
            snap = msg["snapshot"]
            if snap["to_act"] and snap["seat"] is not None and msg["room"]["status"] == "live":
                key = (self.room.code, snap["seat"])
                older = _WORKING.get(key)
                if older is not None and older is not self:
                    older.abandon()  # one socket's candidates per seat at a time: the newest socket's
                _WORKING[key] = self
                self._work = asyncio.ensure_future(self.candidates(msg["room"]["match"], snap))
                try:
                    msg["candidates"] = await self._work
                except asyncio.CancelledError:
                    if self.abandoned:
                        return  # the socket is gone: nobody reads this message
                    raise
                finally:
                    self._work = None
                    if _WORKING.get(key) is self:
                        del _WORKING[key]
                data = json.dumps(msg, separators=(",", ":"))
        await self.ws.send_text(data)

    def abandon(self) -> None:
        """The socket has closed: stop the candidates being worked out and ask for no more."""
        self.abandoned = True
        if self._work is not None:
            self._work.cancel()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.ws.close(code, reason)

    async def candidates(self, match: int, snap: dict) -> list[dict]:
        key = (match, snap["step"])
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = [await self._one(match, snap, spec) for spec in self.specs]
            for old in [k for k in self._cache if k != key]:
                del self._cache[old]
        return got

    async def _one(self, match: int, snap: dict, spec: str) -> dict[str, Any]:
        game, seat = self.room.game, snap["seat"]
        try:
            legal = [game.action_from_json(e["action"]) for e in snap["legal"]]
            rng = Rng(derive_seed(0, "candidates", self.room.code, match, snap["step"], spec))
            decision = Decision(game, seat, snap["view"], legal, rng, self.room.session.options)
            bot = BotSeat(seat, spec, make_bot_agent(game.id, spec), rng)
            action = await self.room.hub.bots.decide(bot, decision, kind=HELP, lane=self.room.code)
        except BotFailure as exc:  # a failing bot must not cost the seat its snapshot
            return {"spec": spec, "error": exc.reason}
        except Exception as exc:
            return {"spec": spec, "error": f"{type(exc).__name__}: {shown(str(exc), 200)}"}
        return {"spec": spec, "action": action.to_json(), "text": self.room.session.describe(action)}
