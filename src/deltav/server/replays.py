"""Replays of finished matches for the browser: the spectator's snapshot at any step of a stored record.

A record is rebuilt once per match (the steps submitted again in their recorded order into a fresh
``Session``, exactly as the server played them, simultaneous batches included) and checked against the
stored steps and events; the spectator snapshot after every applied batch is kept. The positions are the
steps a viewer could ever have seen (a simultaneous batch's inner steps are not among them). A small LRU
keeps the newest matches' snapshots.

This module owns replay building and caching only; the route is app.py's, the records are the store's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from deltav.core.errors import DeltavError, RecordError
from deltav.core.protocol import Game
from deltav.core.records import MatchRecord
from deltav.core.session import Session, recorded_names

#: How many matches' snapshots are kept in memory.
CACHE_MATCHES = 6


@dataclass(frozen=True)
class Replay:
    """Every position of one finished match: ``positions[i]`` is a step, ``snapshots[i]`` the spectator's
    snapshot there (its log is the newest entries up to that step), ``events[i]`` the public events the batch
    that led there added."""

    positions: tuple[int, ...]
    snapshots: tuple[dict, ...]
    events: tuple[tuple[dict, ...], ...]

    def at(self, step: int) -> int:
        """The index of the last position at or before ``step`` (0 before the first)."""
        lo, hi = 0, len(self.positions) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.positions[mid] <= step:
                lo = mid
            else:
                hi = mid - 1
        return lo


def build(record_json: Mapping, games: Mapping[str, type[Game]]) -> Replay:
    """Rebuild a stored record step by step; raises RecordError when it does not replay as stored."""
    record = MatchRecord.from_json(record_json)
    game = games.get(record.game)
    if game is None:
        raise RecordError(f"the record's game {record.game!r} is not installed here")
    try:
        s = Session(game, record.options, record.seed, record.seats or None, recorded_names(record))
    except DeltavError as exc:
        raise RecordError(f"cannot start the recorded match: {exc}") from None
    positions, snapshots, events = [0], [s.snapshot(None)], [()]
    for i, st in enumerate(record.steps):
        before = s.step
        try:
            out = s.submit(st.player, st.action)
        except DeltavError as exc:
            raise RecordError(f"step {i}: player {st.player}'s recorded action does not replay ({exc})") from None
        if out.buffered is not None:
            continue
        positions.append(s.step)
        snapshots.append(s.snapshot(None))
        events.append(tuple(e for e in s.log(None, before)))
    if [x.to_json() for x in s.record.steps] != [x.to_json() for x in record.steps]:
        raise RecordError("the replayed steps or events differ from the stored record")
    return Replay(tuple(positions), tuple(snapshots), tuple(events))


class ReplayCache:
    """The newest :data:`CACHE_MATCHES` replays by (room code, match number); thread-safe (built off the loop)."""

    def __init__(self, size: int = CACHE_MATCHES):
        self.size = size
        self._items: OrderedDict[tuple[str, int], Replay] = OrderedDict()
        self._lock = threading.Lock()
        self.builds = 0

    def get(self, key: tuple[str, int], record_json: Mapping, games: Mapping[str, type[Game]]) -> Replay:
        with self._lock:
            got = self._items.get(key)
            if got is not None:
                self._items.move_to_end(key)
                return got
        replay = build(record_json, games)
        with self._lock:
            self.builds += 1
            self._items[key] = replay
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return replay
