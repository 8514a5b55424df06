"""Replays of finished matches for the browser: a viewer's snapshot at any step of a stored record.

A record is rebuilt once per match and view (the steps submitted again in their recorded order into a fresh
``Session``, exactly as the server played them, simultaneous batches included) and checked against the
stored steps and events; the snapshot after every applied batch is kept, in the view asked for: "full" (the
default: the match is over, so nothing is secret; ``State.full_view`` and every event), "spectator" or one
seat's (what it knew then). A live match's sockets never get the full view: only this module asks for it. The positions are the
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
    """Every position of one finished match in one view: ``positions[i]`` is a step, ``snapshots[i]`` the
    viewer's snapshot there (its log is the newest entries up to that step), ``events[i]`` the events the
    batch that led there added that the viewer may see."""

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


#: The views a replay may be seen in: everything (the default), a spectator's, or one seat's (its number).
VIEWS = ("full", "spectator")


def parse_view(raw: str | None, num_players: int) -> str | int:
    """The ``view`` query parameter: "full" (also when absent), "spectator", or a seat number 0..n-1; raises
    ValueError with a sentence naming what is allowed."""
    if raw is None or raw == "full":
        return "full"
    if raw == "spectator":
        return raw
    if raw.isdigit() and int(raw) < num_players:
        return int(raw)
    raise ValueError(f"view must be full, spectator or a seat number 0..{num_players - 1} (got {raw[:40]!r})")


def build(record_json: Mapping, games: Mapping[str, type[Game]], view: str | int = "full") -> Replay:
    """Rebuild a stored record step by step and keep ``view``'s snapshot at every position: "full" (the match
    is over, so nothing is secret: ``Session.snapshot_full``, every event), "spectator" (``snapshot(None)``) or a
    seat (what that seat knew: its view and log; nothing to act on). Raises RecordError when the record does not
    replay as stored."""
    record = MatchRecord.from_json(record_json)
    game = games.get(record.game)
    if game is None:
        raise RecordError(f"the record's game {record.game!r} is not installed here")
    try:
        s = Session(game, record.options, record.seed, record.seats or None, recorded_names(record))
    except DeltavError as exc:
        raise RecordError(f"cannot start the recorded match: {exc}") from None

    def shown(before: int | None) -> tuple[dict, tuple[dict, ...]]:
        """The viewer's snapshot now and the log entries added since step ``before``."""
        if view == "full":
            return s.snapshot_full(force=True), tuple(s.log_full(before)) if before is not None else ()
        if view == "spectator":
            return s.snapshot(None), tuple(s.log(None, before)) if before is not None else ()
        env = s.snapshot(None)
        env.update(seat=view, view=s.state.view(view), log=s.log(view))
        return env, tuple(s.log(view, before)) if before is not None else ()

    first, _ = shown(None)
    positions, snapshots, events = [0], [first], [()]
    for i, st in enumerate(record.steps):
        before = s.step
        try:
            out = s.submit(st.player, st.action)
        except DeltavError as exc:
            raise RecordError(f"step {i}: player {st.player}'s recorded action does not replay ({exc})") from None
        if out.buffered is not None:
            continue
        snap, added = shown(before)
        positions.append(s.step)
        snapshots.append(snap)
        events.append(added)
    if [x.to_json() for x in s.record.steps] != [x.to_json() for x in record.steps]:
        raise RecordError("the replayed steps or events differ from the stored record")
    if record.ending is not None:  # ended outside the rules after the last step: the last position shows it
        s.apply_ending(record.ending)
        snapshots[-1] = shown(None)[0]
    return Replay(tuple(positions), tuple(snapshots), tuple(events))


class ReplayCache:
    """The newest :data:`CACHE_MATCHES` replays by (room code, match number, view); thread-safe (built off the
    loop)."""

    def __init__(self, size: int = CACHE_MATCHES):
        self.size = size
        self._items: OrderedDict[tuple, Replay] = OrderedDict()
        self._lock = threading.Lock()
        self.builds = 0

    def get(self, key: tuple, record_json: Mapping, games: Mapping[str, type[Game]], view: str | int = "full") -> Replay:
        """The replay of ``key`` (room code, match number) seen in ``view``, built once per (key, view)."""
        key = (*key, view)
        with self._lock:
            got = self._items.get(key)
            if got is not None:
                self._items.move_to_end(key)
                return got
        replay = build(record_json, games, view)
        with self._lock:
            self.builds += 1
            self._items[key] = replay
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return replay
