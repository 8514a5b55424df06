"""The legal entries of a seat's snapshot, built once per (seat, step), their action JSON and text built once per
action value for the whole process.

A snapshot lists every legal action of the deciding seat as ``{"action": JSON, "text": sentence, "note"?: ...}``.
:class:`~deltav.core.session.Session` already builds that list once per seat and step (every socket of the seat,
reconnects and duplicates read the same list). What it still redoes at every step is the action's JSON and its
sentence (the match's describer, ``Game.describer(options, names)``), although consecutive steps offer mostly the
same actions (the same moves, the same bids) and both are pure functions of the action value (a frozen, hashable
dataclass) once the options and the seats' names are fixed. :class:`RoomSession` keeps a table of entries keyed by
the action per (game, options, names, and what the describer learned from public events that action texts
depend on: its ``signature()``), so each distinct action is described once per process for every match that
shares them; the notes (``Game.annotate_legal``) depend on the position and are still computed once per seat
and step.

The entries of the table are shared between snapshots (an entry with a note is a new dict over the shared action
JSON and text): read only (they are encoded, never changed).
This module owns that table only; the session owns the rules, the room owns the sockets.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from deltav.core.protocol import Action, Game
from deltav.core.session import Session

#: distinct actions remembered per table before the table starts again (a bound on memory, far above what one
#: game offers: a mining match has a few hundred distinct actions)
TABLE_LIMIT = 50_000
#: tables (one per game, options and seat names) kept; the least recently used one is dropped beyond this
TABLES_LIMIT = 256

_tables: OrderedDict[tuple, dict[Action, dict]] = OrderedDict()


def text_key(game: type[Game], options: dict, names: Sequence[str] | None) -> tuple:
    """What a match's texts depend on: the game, its resolved options and the seats' names."""
    return (game, json.dumps(options, sort_keys=True), tuple(names) if names is not None else None)


def table_of(key: tuple) -> dict[Action, dict]:
    table = _tables.get(key)
    if table is None:
        table = _tables[key] = {}
        while len(_tables) > TABLES_LIMIT:
            _tables.popitem(last=False)
    else:
        _tables.move_to_end(key)
    return table


def entry_of(table: dict[Action, dict], describe: Callable[[Any], str], action: Action) -> dict:
    """``{"action": action.to_json(), "text": describe(action)}``, made once per distinct action and table and
    shared by every snapshot that offers the action without a note (read only)."""
    try:
        got = table.get(action)
    except TypeError:  # an unhashable field (never in the shipped games): described each time
        return {"action": action.to_json(), "text": describe(action)}
    if got is None:
        if len(table) >= TABLE_LIMIT:
            table.clear()
        got = table[action] = {"action": action.to_json(), "text": describe(action)}
    return got


def table_size(game: type[Game]) -> int:
    """The distinct actions described for ``game`` (every table of it)."""
    return sum(len(t) for k, t in _tables.items() if k[0] is game)


class RoomSession(Session):
    """The server's session: :class:`Session` with the legal entries taken from the table above: an entry
    without a note is the shared one, an entry with a note a new dict over the shared action JSON and text.
    Entries are equal to the plain session's (tested). Sharing them also means a room keeps next to no new
    objects for its current legal list, which the garbage collector would otherwise scan (docs/server.md)."""

    def _legal_entries(self, seat: int, view: Any = None) -> list[dict]:
        """Built at each call, not kept for the step: the room encodes each seat's snapshot once per step and
        keeps the text, so a list kept here would only be objects that outlive a collection of the young
        generation in every live room (the notes are containers) for nobody to read again."""
        actions = self.legal_actions(seat)
        describe = self.describe
        signature = getattr(describe, "signature", None)
        learned = signature() if signature is not None else None  # what action texts learned (public events)
        kept = getattr(self, "_text_key", None)
        if kept is None or kept[0] is not describe or kept[2] != learned:  # a new describer or lesson: its table
            kept = self._text_key = (describe, (*text_key(self.game, self.options, self.names), learned), learned)
        table = table_of(kept[1])
        got = [entry_of(table, describe, a) for a in actions]
        notes: Any = self.game.annotate_legal(self.state, seat, actions, view=view)
        if notes is not None:
            if len(notes) != len(got):
                raise ValueError(f"{self.game.id}.annotate_legal gave {len(notes)} notes for {len(got)} actions")
            for k, note in enumerate(notes):
                if note is not None:
                    shared = got[k]
                    got[k] = {"action": shared["action"], "text": shared["text"], "note": note}
        return got
